"""The background work of one service process: started by `python app.py`, never by the tests' app.

A thread ticks every TICK seconds. It takes or renews the lease (background/lease.py); while
it holds it, it fans out the outbox and hands each webhook with a due delivery to a small pool
of sender threads (one webhook at a time per thread, so each keeps its order), notes new
alerts as events every ALERT_EVERY seconds, and prunes old events daily. `held` is set while
the lease is held: the automatic backups (operations/backups.py) wait for it.
"""
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import date

from background import lease, sender
from stock.alerts import note_alerts
from storage import outage
from storage.db import db

log = logging.getLogger("warehouse")

TICK = 1.0  # seconds
ALERT_EVERY = 60.0
PRUNE_EVERY = 24 * 3600.0
SENDERS = 4  # webhooks served at once


class BackgroundWork:
    def __init__(self, app):
        self.app = app
        config = app.config
        self.tick = config.get("BACKGROUND_TICK", TICK)
        self.alert_every = config.get("ALERT_EVERY", ALERT_EVERY)
        self.first_pause = config.get("WEBHOOK_FIRST_RETRY", 10.0)
        self.timeout = config.get("WEBHOOK_TIMEOUT", sender.TIMEOUT)
        self.holder = lease.holder_name()
        self.held = threading.Event()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="background", daemon=True)
        self.pool = ThreadPoolExecutor(SENDERS, thread_name_prefix="webhooks")
        self.in_flight: set[int] = set()
        self.lock = threading.Lock()

    def start(self) -> "BackgroundWork":
        self.thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> bool:
        """Stop the thread and the senders, and let go of the lease; whether the thread ended
        within `timeout` (the senders stop after at most one post of `self.timeout`)."""
        self.stopping.set()
        if self.thread.is_alive():
            self.thread.join(timeout)
        self.pool.shutdown(wait=True, cancel_futures=True)
        if self.held.is_set():
            try:
                with self.app.app_context():
                    lease.release(db.session, self.holder)
                    db.session.remove()
            except Exception:
                log.warning("the background lease could not be let go; another process takes it "
                            "over when it expires", exc_info=True)
            self.held.clear()
        return not self.thread.is_alive()

    def _run(self) -> None:
        renewed = alerts_noted = pruned = 0.0
        while not self.stopping.is_set():
            now = time.monotonic()
            if self.held.is_set() and now - renewed > lease.TTL.total_seconds() / 2:
                # Renewals failed (the database did not answer, or was busy): another process may
                # take over soon, so stop before it can, and never send alongside it.
                self._hold(False, f"the background lease was not renewed for {now - renewed:.0f} s "
                                  "(the database did not answer in time): this process pauses the "
                                  "background work until it holds the lease again")
            try:
                with self.app.app_context():
                    if now - renewed >= lease.RENEW or not self.held.is_set():
                        self._hold(lease.take_or_renew(db.session, self.holder))
                        renewed = now
                    if self.held.is_set():
                        sender.fan_out(db.session)
                        for webhook_id in sender.due_webhooks(db.session):
                            self._send(webhook_id)
                        if now - alerts_noted >= self.alert_every:
                            note_alerts(db.session, date.today(), self.app.config["EXPIRY_DAYS"])
                            alerts_noted = now
                        if now - pruned >= PRUNE_EVERY:
                            sender.prune(db.session)
                            pruned = now
                    db.session.remove()
            except Exception as error:
                self._failed(error, "the background work", "the background work failed this time; it tries again")
            self.stopping.wait(self.tick)

    def _failed(self, error: Exception, what: str, message: str) -> None:
        """While the database does not answer, a failure is part of the one outage the log holds
        (storage/outage.py: a warning when it starts, a line when it ends); else its traceback."""
        if outage.is_connection_lost(error):
            with self.app.app_context():
                outage.refused(db.engine, error, what)
        else:
            log.error(message, exc_info=error)

    def _hold(self, holding: bool, why: str = "another process took over the background work") -> None:
        if holding and not self.held.is_set():
            log.info("this process does the background work (webhooks, expiry events, backups)")
            self.held.set()
        elif not holding and self.held.is_set():
            log.warning(why)
            self.held.clear()

    def _send(self, webhook_id: int) -> None:
        with self.lock:
            if webhook_id in self.in_flight:
                return
            self.in_flight.add(webhook_id)
        self.pool.submit(self._deliver, webhook_id)

    def _deliver(self, webhook_id: int) -> None:
        try:
            with self.app.app_context():
                try:
                    sender.deliver(db.session, webhook_id, self.first_pause, self.timeout, stopping=self.stopping)
                finally:
                    db.session.remove()
        except Exception as error:
            self._failed(error, f"delivering to webhook {webhook_id}",
                         f"delivering to webhook {webhook_id} failed this time; it tries again")
        finally:
            with self.lock:
                self.in_flight.discard(webhook_id)
