"""background/sender.py with a real receiver: http.server on 127.0.0.1 in a thread of the test.

The background work runs in the test's process (BackgroundWork on a test app, as `python app.py`
starts it), with short pauses so that a retry comes within the test.
"""
import time

import pytest
from sqlalchemy import select

from background.worker import BackgroundWork
from conftest import Api, Scanner, signed_in, token_of
from helpers import add_products, created, item, order
from models import WebhookDelivery
from receiver import WAIT, Receiver, verify, wait_for
from storage.db import db

pytestmark = pytest.mark.live


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.stop()


@pytest.fixture
def working(make_app, keys):
    """A test app whose background work runs; its admin Api, and a Scanner over it."""
    app = make_app(WEBHOOK_FIRST_RETRY=0.2, BACKGROUND_TICK=0.05, ALERT_EVERY=3600, WEBHOOK_TIMEOUT=2.0)
    api = Api(app.test_client(), keys["admin"])
    add_products(api)
    work = BackgroundWork(app).start()
    yield app, api, Scanner(api)
    work.stop()
    with app.app_context():
        db.session.remove()


def add_webhook(api, url, events=("batch.booked",)):
    r = api.post("/v1/webhooks/", {"url": url, "events": list(events)})
    assert r.status_code == 201
    return r.json["item"]


def test_events_arrive_signed_and_in_order(working, receiver):
    app, api, scanner = working
    hook = add_webhook(api, receiver.url)
    for amount in (1, 2, "2.5"):
        scanner.book("R", "I", [item("P1", amount)])
    wait_for(lambda: len(receiver.received) >= 3)
    for headers, body in receiver.received:
        assert verify(hook["secret"], headers["Warehouse-Signature"], body)
        assert headers["Content-Type"] == "application/json"
        assert not verify("whsec_other", headers["Warehouse-Signature"], body)
    sent = receiver.events()
    assert [e["data"]["batch_number"] for e in sent] == [1, 2, 3]
    assert [e["id"] for e in sent] == sorted(e["id"] for e in sent)
    assert set(sent[0]) == {"id", "event", "created", "data"}
    assert sent[0]["event"] == "batch.booked" and sent[0]["created"].endswith("Z")


def test_a_failed_delivery_is_retried_and_the_order_kept(working, receiver):
    app, api, scanner = working
    receiver.plan = [500]
    add_webhook(api, receiver.url)
    scanner.book("R", "I", [item("P1", 1)])
    scanner.book("R", "I", [item("P1", 2)])
    wait_for(lambda: len(receiver.received) >= 3)
    assert [e["data"]["batch_number"] for e in receiver.events()] == [1, 1, 2]

    def deliveries():
        with app.app_context():
            rows = db.session.execute(select(WebhookDelivery.state, WebhookDelivery.attempts,
                                             WebhookDelivery.last_status).order_by(WebhookDelivery.event_id)).all()
            db.session.remove()
        return [tuple(row) for row in rows]

    # The sender records an answer just after the receiver gave it.
    wait_for(lambda: deliveries() == [("delivered", 2, 200), ("delivered", 1, 200)])
    assert api.get("/v1/webhooks/").json["list"][0]["last_status"] == 200


def test_only_the_events_a_webhook_wants_reach_it(working, receiver):
    app, api, scanner = working
    add_webhook(api, receiver.url, events=["stocktaking.booked"])
    scanner.book("R", "I", [item("P1", 1)])
    scanner.count(("P1", 3))
    wait_for(lambda: receiver.received)
    time.sleep(0.3)  # time for a wrong event to come too, were one sent
    assert [e["event"] for e in receiver.events()] == ["stocktaking.booked"]


def test_a_write_off_and_a_return_are_told_signed(working, receiver):
    app, api, scanner = working
    hook = add_webhook(api, receiver.url, events=["write_off.booked", "return.booked"])
    scanner.book("R", "I", [item("P1", 5)])
    assert api.post("/v1/documents/", order("SO-1", directions=("O",))).status_code == 201
    scanner.book("R", "O", [item("P1", 3)], document_number="SO-1")
    assert api.post("/v1/write_offs/", {"write_off_id": "w-1", "id_warehouse": 1, "reason": "lost",
                                        "items": [{"product_code": "P1", "amount": 1}]}).status_code == 201
    assert api.post("/v1/returns/", {"return_id": "r-1", "document_number": "SO-1", "reason": "too many",
                                     "items": [{"product_code": "P1", "amount": 2}]}).status_code == 201
    wait_for(lambda: len(receiver.received) >= 2)
    for headers, body in receiver.received:
        assert verify(hook["secret"], headers["Warehouse-Signature"], body)
    sent = receiver.events()
    assert [(e["event"], e["data"].get("write_off_id") or e["data"].get("return_id")) for e in sent] == [
        ("write_off.booked", "w-1"), ("return.booked", "r-1")]
    assert sent[0]["data"]["reason"] == "lost" and sent[1]["data"]["document_number"] == "SO-1"
    assert sent[0]["data"]["booked_by"] == sent[1]["data"]["booked_by"] == "admin"


def test_a_hanging_receiver_does_not_hold_up_bookings(working, receiver):
    app, api, scanner = working
    receiver.hang.set()
    add_webhook(api, receiver.url)
    scanner.book("R", "I", [item("P1", 1)])
    receiver.hanging.wait(WAIT)
    assert receiver.hanging.is_set()
    # While the receiver holds the first event unanswered, bookings go on.
    for amount in range(2, 7):
        scanner.book("R", "I", [item("P1", amount)])
    assert not receiver.released.is_set()
    # The rest wait behind the first, in order (the first may have been tried again meanwhile).
    assert {e["data"]["batch_number"] for e in receiver.events()} == {1}
    receiver.hang.clear()
    receiver.released.set()
    wait_for(lambda: [e["data"]["batch_number"] for e in receiver.events()][-6:] == [1, 2, 3, 4, 5, 6])


def test_a_webhook_of_a_limited_admin_gets_only_its_warehouses_events(working, receiver, admin_w1):
    app, api, scanner = working
    response = admin_w1.post("/v1/webhooks/", {"url": receiver.url, "events": ["batch.booked", "stocktaking.booked"]})
    assert response.status_code == 201, response.json
    everything = Receiver()
    try:
        add_webhook(api, everything.url, events=["batch.booked", "stocktaking.booked"])
        scanner.book("R", "I", [item("P1", 1)], warehouse=2)
        scanner.book("R", "I", [item("P1", 2)], warehouse=1)
        scanner.count(("P1", 3), warehouse=2)
        scanner.count(("P1", 1), warehouse=1)
        wait_for(lambda: len(everything.received) >= 6)
        wait_for(lambda: len(receiver.received) >= 3)
        time.sleep(0.3)  # time for an event of warehouse 2 to come too, were one sent
    finally:
        everything.stop()
    assert [(e["event"], e["data"]["id_warehouse"]) for e in receiver.events()] == [
        ("batch.booked", 1), ("batch.booked", 1), ("stocktaking.booked", 1)]


def test_a_redirect_is_not_followed_and_the_answer_is_kept_short(working, receiver):
    app, api, scanner = working
    elsewhere = Receiver()
    try:
        receiver.plan = [302, 302, 302]
        receiver.location = elsewhere.url
        receiver.answer = b"moved " * 100
        add_webhook(api, receiver.url)
        scanner.book("R", "I", [item("P1", 1)])
        wait_for(lambda: len(receiver.received) >= 2)
        time.sleep(0.3)
        assert elsewhere.received == []
    finally:
        elsewhere.stop()

    def last():
        with app.app_context():
            row = db.session.execute(select(WebhookDelivery.state, WebhookDelivery.last_status,
                                            WebhookDelivery.last_answer)).first()
            db.session.remove()
        return row

    state, status, answer = last()
    assert (state, status) == ("pending", 302)
    assert answer == ("moved " * 100)[:200]
    # Once the receiver answers 200 itself, the event is delivered there.
    wait_for(lambda: last()[0] == "delivered")
    assert elsewhere.received == []


# --- order.closed: by hand (the API, the order's page) and by the batch that delivers the rest --

def add_order(api, number, warehouse=1):
    """An order of 10 P1 to receive."""
    created(api.post("/v1/documents/", order(number, id_warehouse=warehouse)))


def close(api, number, reason="The supplier cancelled the rest."):
    return api.post(f"/v1/documents/close/{number}", {"reason": reason})


def test_an_order_closed_by_the_api_and_by_its_page_is_told_signed(working, receiver, person):
    app, api, scanner = working
    hook = add_webhook(api, receiver.url, events=["order.closed"])
    add_order(api, "PO-API")
    add_order(api, "PO-PAGE", warehouse=2)
    assert close(api, "PO-API").status_code == 200
    page = signed_in(app.test_client(), person, "admin_office")
    token = token_of(page.get("/orders/PO-PAGE"))
    assert page.post("/orders/close/PO-PAGE", data={"token": token, "reason": "Shop closed for good"}).status_code == 303
    wait_for(lambda: len(receiver.received) >= 2)
    for headers, body in receiver.received:
        assert verify(hook["secret"], headers["Warehouse-Signature"], body)
    sent = receiver.events()
    assert [e["event"] for e in sent] == ["order.closed", "order.closed"]
    assert [e["data"] for e in sent] == [
        {"document_number": "PO-API", "id_warehouse": 1, "closed_by": "admin",
         "closed_by_kind": "key", "reason": "The supplier cancelled the rest.", "batch_number": 0},
        {"document_number": "PO-PAGE", "id_warehouse": 2, "closed_by": "admin_office",
         "closed_by_kind": "person", "reason": "Shop closed for good", "batch_number": 0}]


def test_a_refused_close_tells_no_one_and_another_warehouses_webhook_hears_nothing(working, receiver, admin_w1):
    app, api, scanner = working
    response = api.post("/v1/webhooks/", {"url": receiver.url, "events": ["order.closed"], "warehouses": [2]})
    assert response.status_code == 201, response.json
    everything = Receiver()
    try:
        add_webhook(api, everything.url, events=["order.closed"])
        add_order(api, "PO-1")
        add_order(api, "PO-2", warehouse=2)
        assert close(admin_w1, "PO-2").status_code == 404  # out of its warehouses: refused
        assert close(api, "PO-1").status_code == 200
        assert close(api, "PO-1", reason="again").status_code == 409
        assert close(api, "PO-2").status_code == 200
        wait_for(lambda: len(everything.received) >= 2)
        wait_for(lambda: receiver.received)
        time.sleep(0.3)  # time for a refused close's event, or warehouse 1's to the other, were one sent
    finally:
        everything.stop()
    assert [(e["data"]["document_number"], e["data"]["reason"]) for e in everything.events()] == [
        ("PO-1", "The supplier cancelled the rest."), ("PO-2", "The supplier cancelled the rest.")]
    assert [e["data"]["document_number"] for e in receiver.events()] == ["PO-2"]


def test_the_batch_that_delivers_the_rest_closes_the_order_and_is_told_first(working, receiver, keys):
    app, api, _ = working
    scanner = Scanner(Api(app.test_client(), keys["scan"]))
    add_webhook(api, receiver.url, events=["batch.booked", "order.closed"])
    add_order(api, "PO-1")
    scanner.book("R", "I", [item("P1", 4)], document_number="PO-1")
    last = scanner.book("R", "I", [item("P1", 6)], document_number="PO-1")
    assert scanner.api.post("/v1/batches/", last).status_code == 201  # the retry books nothing
    wait_for(lambda: len(receiver.received) >= 3)
    time.sleep(0.3)  # time for a retry's events to come too, were any sent
    sent = receiver.events()
    assert [(e["event"], e["data"]["batch_number"]) for e in sent] == [
        ("batch.booked", 1), ("batch.booked", 2), ("order.closed", 2)]
    assert sent[2]["data"] == {"document_number": "PO-1", "id_warehouse": 1, "closed_by": "scan",
                               "closed_by_kind": "key", "reason": "", "batch_number": 2}
    assert api.get("/v1/documents/PO-1").json["item"]["state"] == 0


def test_a_count_that_delivers_the_order_is_told_after_its_stocktaking_to_its_warehouses_webhook(working, receiver,
                                                                                                   keys):
    app, api, _ = working
    scanner = Scanner(Api(app.test_client(), keys["scan"]))
    wanted = ["batch.booked", "stocktaking.booked", "order.closed"]
    response = api.post("/v1/webhooks/", {"url": receiver.url, "events": wanted, "warehouses": [1]})
    assert response.status_code == 201, response.json
    created(api.post("/v1/documents/", order("PO-COUNT", types=("V",))))
    created(api.post("/v1/documents/", {**order("PO-ELSEWHERE", types=("V",)), "id_warehouse": 2}))
    scanner.book("V", "I", [item("P1", 10)], document_number="PO-ELSEWHERE", warehouse=2)
    scanner.book("V", "I", [item("P1", 10)], document_number="PO-COUNT")
    wait_for(lambda: len(receiver.received) >= 3)
    time.sleep(0.3)  # time for warehouse 2's events to come too, were any sent here
    sent = receiver.events()
    assert [e["event"] for e in sent] == wanted
    assert {e["data"]["id_warehouse"] for e in sent} == {1}
    assert sent[2]["data"] == {"document_number": "PO-COUNT", "id_warehouse": 1, "closed_by": "scan",
                               "closed_by_kind": "key", "reason": "", "batch_number": 2}
    assert [api.get(f"/v1/documents/{n}").json["item"]["state"] for n in ("PO-COUNT", "PO-ELSEWHERE")] == [0, 0]
