"""Background work: the outbox, the webhook sender, and the lease that keeps it to one process.

Events are written to the outbox by the rules, in the booking's own transaction; the sender
here reads them after the commit and delivers them, so a slow receiver never slows a booking.
Automatic backups and expiry events run under the same lease (DESIGN section 20).

  lease.py    which process does the background work (a row in the database)
  sender.py   the outbox fanned out to webhooks, signed, posted in order, retried
  worker.py   the thread `python app.py` starts: the lease, the sender, the alerts' events

May import: stock/, storage/, models. Never routes/ or pages/; operations/ starts it.
"""
