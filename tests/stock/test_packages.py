"""stock/packages.py: stock counted in the largest packaging unit that fits, and the rest in base units."""
import pytest

from helpers import product
from schemas import product_schema
from stock import catalog, packages

CRATE_AND_PALLET = [{"unit": "crate", "amount_base_units_milli": 12_000},
                    {"unit": "pallet", "amount_base_units_milli": 480_000},
                    {"unit": "box", "amount_base_units_milli": 6_000}]


@pytest.mark.parametrize("amount, counted", [
    (192_000, {"count": 16, "unit": "crate", "rest_milli": 0}),  # the office's example: 192 pc = 16 crates
    (200_000, {"count": 16, "unit": "crate", "rest_milli": 8_000}),  # never a cascade: 16 crate + 8 pc
    (12_000, {"count": 1, "unit": "crate", "rest_milli": 0}),
    (11_000, {"count": 1, "unit": "box", "rest_milli": 5_000}),  # the largest that fits is the box
    (960_500, {"count": 2, "unit": "pallet", "rest_milli": 500}),  # thousandths stay exact
    (-30_000, {"count": -2, "unit": "crate", "rest_milli": -6_000}),  # below zero: both parts negative
    (5_999, None),  # smaller than the smallest package
    (0, None),
])
def test_the_largest_package_that_fits_and_the_rest(amount, counted):
    assert packages.in_packages(amount, CRATE_AND_PALLET) == counted


def test_a_product_without_packaging_has_no_count():
    assert packages.in_packages(192_000, []) is None


def test_of_two_units_of_one_size_the_first_is_taken():
    same = [{"unit": "tray", "amount_base_units_milli": 24_000}, {"unit": "case", "amount_base_units_milli": 24_000}]
    assert packages.in_packages(50_000, same) == {"count": 2, "unit": "tray", "rest_milli": 2_000}


def test_decimal_packages_of_a_product_kept_in_kilograms():
    sack = [{"unit": "sack", "amount_base_units_milli": 2_500}]
    assert packages.in_packages(12_250, sack) == {"count": 4, "unit": "sack", "rest_milli": 2_250}


def test_packaging_of_reads_the_products_units_in_their_order(session):
    catalog.create_product(session, product_schema.load(product("MILK", packaging=[
        {"unit": "pallet", "amount_base_units": 480}, {"unit": "crate", "amount_base_units": "12"}])))
    catalog.create_product(session, product_schema.load(product("SOAP")))
    found = packages.packaging_of(session, ["MILK", "SOAP", "MILK", "NONE"])
    assert found == {"MILK": [{"unit": "pallet", "amount_base_units_milli": 480_000},
                              {"unit": "crate", "amount_base_units_milli": 12_000}]}
    assert packages.packaging_of(session, []) == {}
    assert packages.in_packages(500_000, found["MILK"]) == {"count": 1, "unit": "pallet", "rest_milli": 20_000}
