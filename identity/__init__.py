"""Identity: who a request comes from and acts for, and what it may manage (DESIGN 2, 16, 26).

One room for keys, people and their sessions, so that each is found in one obvious place:

  client.py    the request's client: its address (behind the trusted proxy too), whether it
               came over HTTPS, the name the access line logs it under
  caller.py    the Caller (a key or a person: role, warehouses), and `may_manage`, the one rule
               deciding whether a caller may make, change or see another identity, a warehouse,
               a webhook or a row of the audit trail
  api_keys.py  API keys: issued, checked, revoked, last use
  people.py    people who sign in to the pages: passwords, the sign-in throttle, disabling
  sessions.py  the pages' sessions, kept on the server
  notes.py     last-use notes written without waiting for the write lock

Two floors (tests/test_layout.py FLOORS): client.py imports nothing of the project, and
caller.py only stock.errors, so that every layer may import them (the rules of stock/ are given
a Caller). api_keys, people, sessions and notes are rules on a session, between schemas/ and stock/:
they may import stock/ (audit, warehouses, errors), models and storage/, never schemas/,
routes/, pages/ or flask.
"""
