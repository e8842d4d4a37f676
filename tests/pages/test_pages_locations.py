"""A warehouse's locations on the pages (pages/locations.py) through the test client: listed in
walking order, added, edited, held, deactivated (refused while they hold stock), their labels as
PDF and ZPL read back; what lies on one location; and who may change them.

tests/pages/test_pages_locations_browser.py drives the same pages in chromium at 1280 and 390 px.
"""
import re

import pytest

from conftest import signed_in, token_of
from helpers import batch, created, item, product
from scanning import pdf_pages, scanned
from stock import audit, locations as location_rules
from stock.caller import Caller


def listed(session, id_warehouse=1) -> list[dict]:
    session.remove()
    return location_rules.list_locations(session, Caller(None, "t", "admin", None), id_warehouse)


def problem(html: str, field: str) -> str:
    found = re.search(rf'<span class="problem" id="{field}-problem" role="alert">([^<]*)</span>', html)
    return found.group(1) if found else ""


def post(client, path, **form):
    token = token_of(client.get("/warehouses/1/locations"))
    return client.post(path, data={"token": token, **form})


def add(api, code, id_warehouse=1, **fields):
    created(api.post("/v1/locations/", {"id_warehouse": id_warehouse, "code": code, **fields}))


@pytest.fixture
def racks(api):
    """Warehouse 1 with a dock, three shelves (added out of walking order) and a hold shelf;
    MILK on A-2, CHEESE lot L1 on A-10, some MILK left unplaced."""
    for body in (product("MILK", name="Milk 1 l"), product("CHEESE", name="Edam", base_unit="kg", lot_level=1)):
        created(api.post("/v1/products/", body))
    for code, fields in (("A-10", {}), ("A-2", {"name": "Aisle A, bay 2"}), ("DOCK", {"sequence": 0, "receiving": 1}),
                         ("B-1", {}), ("Q", {"sequence": 900, "hold": 1, "name": "Quarantine"})):
        add(api, code, **fields)
    created(api.post("/v1/batches/", batch(1, [item("MILK", 10, wplace="A-2"), item("CHEESE", "2.5", "kg", lot="L1",
                                                                                    wplace="a-10"),
                                                item("MILK", 4, wplace="")])))
    return api


def test_smoke(racks, admin):
    r = admin.get("/warehouses/1/locations")
    print(r.get_data(as_text=True)[-6000:])
    assert r.status_code == 200
    r = admin.get("/locations/1/A-2"); assert r.status_code == 200, r.get_data(as_text=True)
    r = admin.get("/locations/1/"); assert r.status_code == 200, r.get_data(as_text=True)
    r = admin.get("/moves/new?from_warehouse=1&from_location=A-2"); assert r.status_code == 200, r.get_data(as_text=True)
    r = admin.get("/warehouses/1/locations/labels.pdf?code=A-2&code=dock"); assert r.status_code == 200, r.get_data(as_text=True)
    print(scanned(r.data, 1), scanned(r.data, 2))
    r = admin.get("/warehouses/1/locations/edit/A-2"); assert r.status_code == 200, r.get_data(as_text=True)


def test_smoke2(racks, admin):
    r = admin.get("/?warehouse=1"); assert r.status_code == 200, r.get_data(as_text=True)
    html = r.get_data(as_text=True); print(html[html.index("<table"):html.index("</table>")])
    r = admin.get("/?location=a-2"); print(r.get_data(as_text=True)[-3000:])
    r = admin.get("/products/MILK"); html = r.get_data(as_text=True); print(html[html.index("<table"):html.index("</table>")])
    r = admin.get("/?level=0&format=csv"); print(r.data.decode())


def test_smoke3(racks, admin):
    created(racks.post("/v1/documents/", {"document_number": "D9", "id_warehouse": 1, "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
             "items": [{"item_number": 1, "product_code": "MILK", "amount_ordered": 20, "direction": "O"}, {"item_number": 2, "product_code": "CHEESE", "amount_ordered": 1, "direction": "O"}]}))
    r = admin.get("/orders/D9/pick-list"); html = r.get_data(as_text=True); print(html[html.index("<article"):])
    r = admin.get("/warehouses/1/count-sheet"); html = r.get_data(as_text=True); print(html[html.index("<table"):html.index("</table>")])
