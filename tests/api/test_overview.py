"""Operations 19-20: the documents-and-stocktaking overview and the monthly movement (DESIGN §9)."""
import pytest

from conftest import Scanner
from helpers import product


class Depot(Scanner):
    """Books one line of P1 a batch, on the day given, and reads the overviews."""

    def booked(self, type_, direction, day, warehouse=1, amount=1):
        self.book(type_, direction, [{"product_code": "P1", "amount": amount, "unit": "pc"}],
                  warehouse=warehouse, date=day)

    def receive(self, day, **kw):
        self.booked("R", "I", day, **kw)

    def ship(self, day, **kw):
        self.booked("R", "O", day, **kw)

    def count(self, day, **kw):
        self.booked("V", "I", day, **kw)

    def get(self, path, api=None):
        r = (api or self.api).get(path)
        assert r.status_code == 200, r.json
        return r.json["list"]

    def ufids(self):
        r = self.api.post("/v1/docs/filter?headers=1", {})
        return {doc["doc_number"]: doc["ufid"] for doc in r.json["list"]}


@pytest.fixture
def depot(api):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    return Depot(api)


# --- docs_and_stocktaking -------------------------------------------------------------------

@pytest.fixture
def busy(depot):
    depot.receive("2026-03-05", amount=10)  # doc 1: the latest goods-in by date...
    depot.receive("2026-03-04")  # doc 2: ...though this one has the higher number
    depot.ship("2026-03-01")  # doc 3
    depot.ship("2026-03-01")  # doc 4: same date, higher number: the latest goods-out
    depot.count("2026-02-20", warehouse=2, amount=0)  # a count with no difference: no documents
    depot.count("2026-02-27", warehouse=2, amount=0)
    depot.receive("2026-01-10", warehouse=3)  # doc 5
    return depot


def test_one_row_per_warehouse_with_documents_or_stocktakings(busy):
    ufids = busy.ufids()
    assert busy.get("/v1/overview/docs_and_stocktaking") == [
        {"id_warehouse": 1, "ufid_in": ufids[1], "in_date": "2026-03-05", "ufid_out": ufids[4],
         "out_date": "2026-03-01", "stocktaking_date": ""},
        {"id_warehouse": 2, "ufid_in": "", "in_date": "", "ufid_out": "", "out_date": "",
         "stocktaking_date": "2026-02-27"},
        {"id_warehouse": 3, "ufid_in": ufids[5], "in_date": "2026-01-10", "ufid_out": "", "out_date": "",
         "stocktaking_date": ""},
    ]


def test_a_stocktaking_with_differences_shows_its_documents_too(depot):
    depot.count("2026-04-01", amount=3)
    [row] = depot.get("/v1/overview/docs_and_stocktaking")
    assert (row["in_date"], row["stocktaking_date"], row["ufid_out"]) == ("2026-04-01", "2026-04-01", "")
    assert row["ufid_in"].startswith("I-2026-")


def test_one_warehouse_asked_for(busy):
    listed = busy.get("/v1/overview/docs_and_stocktaking?id_warehouse=2")
    assert [row["id_warehouse"] for row in listed] == [2]
    assert busy.get("/v1/overview/docs_and_stocktaking?id_warehouse=9") == []
    assert len(busy.get("/v1/overview/docs_and_stocktaking?id_warehouse=")) == 3


def test_docs_and_stocktaking_narrowed_to_the_key(busy, api_as):
    limited = api_as("read_w1")
    assert [row["id_warehouse"] for row in busy.get("/v1/overview/docs_and_stocktaking", limited)] == [1]
    assert busy.get("/v1/overview/docs_and_stocktaking?id_warehouse=2", limited) == []


def test_docs_and_stocktaking_empty(depot):
    assert depot.get("/v1/overview/docs_and_stocktaking") == []


@pytest.mark.parametrize("query", ["?id_warehouse=x", "?id_warehouse=-1", "?id_warehouse=1.5", "?other=1"])
def test_docs_and_stocktaking_validates_its_query(depot, query):
    r = depot.api.get(f"/v1/overview/docs_and_stocktaking{query}")
    assert r.status_code == 422
    assert r.json["error"]["code"] == "validation_error"


# --- monthly_movement -----------------------------------------------------------------------

@pytest.fixture
def months(depot):
    depot.receive("2025-12-31", amount=10)
    depot.receive("2026-01-01")
    depot.receive("2026-01-31")
    depot.ship("2026-01-15")
    depot.ship("2026-02-01", warehouse=1)
    depot.receive("2026-02-01", warehouse=2)
    return depot


def test_monthly_movement_counts_documents_per_year_month_direction(months):
    assert months.get("/v1/overview/monthly_movement") == [
        {"year": 2025, "month": 12, "direction": "I", "count": 1},
        {"year": 2026, "month": 1, "direction": "I", "count": 2},
        {"year": 2026, "month": 1, "direction": "O", "count": 1},
        {"year": 2026, "month": 2, "direction": "I", "count": 1},
        {"year": 2026, "month": 2, "direction": "O", "count": 1},
    ]


def test_monthly_movement_from_a_date(months):
    assert months.get("/v1/overview/monthly_movement?date_from=2026-01-15") == [
        {"year": 2026, "month": 1, "direction": "I", "count": 1},
        {"year": 2026, "month": 1, "direction": "O", "count": 1},
        {"year": 2026, "month": 2, "direction": "I", "count": 1},
        {"year": 2026, "month": 2, "direction": "O", "count": 1},
    ]
    assert months.get("/v1/overview/monthly_movement?date_from=2026-03-01") == []
    assert len(months.get("/v1/overview/monthly_movement?date_from=")) == 5


def test_monthly_movement_counts_stocktaking_documents(depot):
    depot.receive("2026-05-01", amount=5)
    depot.count("2026-05-02", amount=2)  # a goods-out adjustment document
    assert depot.get("/v1/overview/monthly_movement") == [
        {"year": 2026, "month": 5, "direction": "I", "count": 1},
        {"year": 2026, "month": 5, "direction": "O", "count": 1},
    ]


def test_monthly_movement_narrowed_to_the_key(months, api_as):
    listed = months.get("/v1/overview/monthly_movement?date_from=2026-02-01", api_as("read_w1"))
    assert listed == [{"year": 2026, "month": 2, "direction": "O", "count": 1}]


@pytest.mark.parametrize("query", ["?date_from=2026-13-01", "?date_from=15.01.2026", "?date=2026-01-01"])
def test_monthly_movement_validates_its_query(depot, query):
    r = depot.api.get(f"/v1/overview/monthly_movement{query}")
    assert r.status_code == 422


def test_overviews_need_a_key(client, depot):
    assert client.get("/v1/overview/monthly_movement").status_code == 401
    assert client.get("/v1/overview/docs_and_stocktaking").status_code == 401
