"""background/lease.py: one holder at a time; renewed by it, taken over when it expires or its process is gone."""
import socket
import subprocess
import sys
from datetime import timedelta

from sqlalchemy import update

from background import lease
from models import Lease
from storage.db import utc_now, writing


def test_one_holder_at_a_time(session):
    first, second = lease.holder_name(), lease.holder_name()
    assert first != second
    assert lease.take_or_renew(session, first)
    assert not lease.take_or_renew(session, second)
    assert lease.take_or_renew(session, first)  # renewed
    assert lease.current_holder(session) == first


def test_an_expired_lease_is_taken_over(session):
    first, second = lease.holder_name(), lease.holder_name()
    assert lease.take_or_renew(session, first)
    with writing(session, []):
        session.execute(update(Lease).values(expires=utc_now() - timedelta(seconds=1)))
    assert lease.current_holder(session) is None
    assert lease.take_or_renew(session, second)
    assert not lease.take_or_renew(session, first)  # the old holder does not get it back


def test_the_lease_of_a_dead_process_on_this_host_is_taken_at_once(session):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    dead = f"{socket.gethostname()}:{gone}:abcd"
    with writing(session, []):
        session.add(Lease(name=lease.NAME, holder=dead, expires=utc_now() + lease.TTL))
    assert lease.take_or_renew(session, lease.holder_name())
    # A live process elsewhere is waited for.
    with writing(session, []):
        session.execute(update(Lease).values(holder="another-host:1:abcd", expires=utc_now() + lease.TTL))
    assert not lease.take_or_renew(session, lease.holder_name())


def test_a_clean_stop_lets_go(session):
    first, second = lease.holder_name(), lease.holder_name()
    assert lease.take_or_renew(session, first)
    lease.release(session, first)
    assert lease.take_or_renew(session, second)
