"""`flask --app app check`: every balance recomputed from the warehouse documents."""
import pytest

from helpers import product
from models import Balance
from storage.db import writing


@pytest.fixture
def booked(api):
    assert api.post("/v1/products/", product("P1")).status_code == 201
    batches = [("R", "I", "10"), ("R", "O", "2.5"), ("V", "I", "7")]
    for number, (type_, direction, amount) in enumerate(batches, start=1):
        r = api.post("/v1/batches/", {
            "batch_settings": {"batch_number": number, "id_warehouse": 1, "direction": direction,
                               "type": type_, "date": "2026-03-02"},
            "batch_items": [{"product_code": "P1", "amount": amount, "unit": "pc"}]})
        assert r.status_code == 201, r.json
    return api


def test_check_passes_on_an_empty_database(runner):
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK")


def test_check_passes_after_bookings(booked, runner):
    result = runner.invoke(args=["check"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().count("\n") == 0  # one line


@pytest.mark.unbalanced
def test_check_fails_and_prints_each_difference(booked, runner, session):
    with writing(session):
        session.get(Balance, (1, "P1", "")).amount_milli = 7250
        session.add(Balance(id_warehouse=2, product_code="P1", lot="", amount_milli=1000))
    session.remove()
    result = runner.invoke(args=["check"])
    assert result.exit_code != 0
    lines = result.output.splitlines()
    assert "warehouse 1 product 'P1' lot '': balance 7.25, documents say 7 (off by 0.25)" in lines
    assert "warehouse 2 product 'P1' lot '': balance 1, documents say 0 (off by 1)" in lines
    assert "2 balance(s) differ" in result.output
    assert "OK" not in result.output
