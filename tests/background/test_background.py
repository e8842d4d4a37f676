"""The background work in served processes: one lease for several processes, nothing lost to kill -9."""
import time

import pytest
from sqlalchemy import select

from stock.caller import Caller  # noqa: F401  (the tests' path to the project)
from models import Lease, OutboxEvent
from receiver import Receiver, wait_for
from server import batch_body, create_products, database_engine, free_port

pytestmark = pytest.mark.live


def add_webhook(server, url):
    status, body = server.post("/v1/webhooks/", {"url": url, "events": ["batch.booked"]})
    assert status == 201, body
    return body["item"]


def test_two_processes_on_one_database_send_each_event_once(live_server, database_config):
    receiver = Receiver()
    try:
        first = live_server()
        second = live_server(api_key=first.api_key)
        create_products(first)
        add_webhook(first, receiver.url)
        for number in range(1, 21):
            server = first if number % 2 else second
            status, body = server.post("/v1/batches/", batch_body(number, "I", [("P1", number)]))
            assert status == 201, body
        wait_for(lambda: len(receiver.received) >= 20, timeout=60)
        time.sleep(2.5)  # two ticks of both processes: a second copy would come by now
        numbers = [event["data"]["batch_number"] for event in receiver.events()]
        assert sorted(numbers) == list(range(1, 21))
        assert len({event["id"] for event in receiver.events()}) == 20
        engine = database_engine(database_config)
        try:
            with engine.connect() as connection:
                holder = connection.execute(select(Lease.holder)).scalar_one()
        finally:
            engine.dispose()
        assert int(holder.split(":")[1]) in (first.process.pid, second.process.pid)
    finally:
        receiver.stop()


def test_events_pending_at_a_kill_are_sent_after_the_restart(live_server, database_config):
    port = free_port()
    server = live_server()
    create_products(server)
    add_webhook(server, f"http://127.0.0.1:{port}/hook")  # nobody listens yet
    for number in (1, 2, 3):
        status, body = server.post("/v1/batches/", batch_body(number, "I", [("P1", number)]))
        assert status == 201, body
    server.kill()
    engine = database_engine(database_config)
    try:
        with engine.connect() as connection:
            assert len(connection.execute(select(OutboxEvent.id)).all()) == 3
    finally:
        engine.dispose()
    receiver = Receiver(port)
    try:
        server.start()
        wait_for(lambda: {e["data"]["batch_number"] for e in receiver.events()} == {1, 2, 3}, timeout=90)
        numbers = [e["data"]["batch_number"] for e in receiver.events()]
        assert numbers == sorted(numbers)  # in order, a repeat at most of the one in flight at the kill
    finally:
        receiver.stop()
