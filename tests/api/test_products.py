"""Operations 1-4: list, view, add and update products (DESIGN §5)."""
import io
import json
import re
from decimal import Decimal
from urllib.parse import quote

import pytest

from helpers import created, product
from models import Balance
from schemas import product_schema
from stock import audit, catalog
from storage.db import writing

DEFAULTS = {
    "active": 1, "category": 0, "lot_level": 0, "packaging": [], "weight_brutto": 0,
    "weight_netto": 0, "weight_unit": "kg", "base_unit_barcode": "", "decimal_places": 3,
}


def url(code):
    return "/v1/products/" + quote(code, safe="")


def view(api, code):
    r = api.get(url(code))
    assert r.status_code == 200, r.json
    return r.json["item"]


def create(api, code="P1", **fields):
    r = api.post("/v1/products/", product(code, **fields))
    assert r.status_code == 201, r.json
    return r


def add_stock(session, code, amount_milli, id_warehouse=1, lot=""):
    """Stock without a document (tests using it are marked unbalanced)."""
    with writing(session):
        session.add(Balance(id_warehouse=id_warehouse, product_code=code, lot=lot, amount_milli=amount_milli))


def field_errors(r):
    assert r.status_code == 422, r.json
    assert r.json["error"]["code"] == "validation_error"
    return r.json["error"]["fields"]["data"]


# --- create and view ------------------------------------------------------------------------

def test_create_answers_201_with_empty_object(api):
    r = api.post("/v1/products/", product("P1"))
    assert r.status_code == 201
    assert r.json == {}


def test_create_with_required_fields_only_applies_defaults(api):
    create(api, "P1")
    assert view(api, "P1") == {"product_code": "P1", "name": "Product P1", "base_unit": "pc", **DEFAULTS}


def test_create_with_every_field_returns_them(api):
    full = {
        "product_code": "MILK-1", "name": "Milk 1 l", "active": 0, "base_unit": "l",
        "base_unit_barcode": "8590001", "category": 7, "lot_level": 1,
        "packaging": [{"unit": "crate", "amount_base_units": 12, "barcode": "8590012"},
                      {"unit": "pallet", "amount_base_units": "480.5", "barcode": ""}],
        "weight_brutto": "1.075", "weight_netto": 1, "weight_unit": "kg", "decimal_places": 2,
    }
    r = api.post("/v1/products/", full)
    assert r.status_code == 201, r.json
    # (the test client reads JSON numbers with fractions as Decimal, like the service)
    assert view(api, "MILK-1") == {
        **full, "weight_brutto": Decimal("1.075"),
        "packaging": [full["packaging"][0], {**full["packaging"][1], "amount_base_units": Decimal("480.5")}],
    }


def test_packaging_barcode_defaults_to_empty(api):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6}])
    assert view(api, "P1")["packaging"] == [{"unit": "box", "amount_base_units": 6, "barcode": ""}]


def test_numbers_are_json_numbers_in_the_response(api):
    create(api, "P1", weight_brutto="0.125", weight_netto=2,
           packaging=[{"unit": "box", "amount_base_units": "2.5"}, {"unit": "pack", "amount_base_units": "4.000"}])
    text = api.get(url("P1")).get_data(as_text=True)
    assert re.search(r'"amount_base_units":\s*2\.5[,}]', text)
    assert re.search(r'"amount_base_units":\s*4[,}]', text)
    assert re.search(r'"weight_brutto":\s*0\.125[,}]', text)
    assert re.search(r'"weight_netto":\s*2[,}]', text)
    assert re.search(r'"active":\s*1[,}]', text)


@pytest.mark.parametrize("sent, returned", [
    (1, 1), ("1", 1), ("0.001", "0.001"), (0.001, "0.001"), ("2.500", "2.5"), ("1.2340", "1.234"), ("1e2", 100),
    ("999999.999", "999999.999"),
])
def test_amount_base_units_accepts_exact_positive_numbers(api, sent, returned):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": sent}])
    assert view(api, "P1")["packaging"][0]["amount_base_units"] == Decimal(returned)


def test_unknown_product_is_404(api):
    r = api.get("/v1/products/NOPE")
    assert r.status_code == 404
    assert r.json["error"]["code"] == "not_found"


@pytest.mark.parametrize("code", ["a\x00b", "\x00", "tab\there", "new\nline"])
def test_a_code_with_control_characters_names_nothing(api, code):
    # (PostgreSQL cannot compare text holding NUL; the answer must still be 404, as on SQLite)
    assert api.get(url(code)).status_code == 404
    assert api.post(url(code), {"name": "x"}).status_code == 404


def test_duplicate_code_is_409_and_keeps_the_first(api):
    create(api, "P1", name="first")
    r = api.post("/v1/products/", product("P1", name="second"))
    assert r.status_code == 409
    assert r.json["error"]["code"] == "conflict"
    assert view(api, "P1")["name"] == "first"


# --- validation on create ------------------------------------------------------------------

@pytest.mark.parametrize("missing", ["product_code", "name", "base_unit"])
def test_required_field_missing_is_422(api, missing):
    body = product("P1")
    del body[missing]
    assert missing in field_errors(api.post("/v1/products/", body))


@pytest.mark.parametrize("field", ["product_code", "name", "base_unit"])
def test_required_field_empty_is_422(api, field):
    assert field in field_errors(api.post("/v1/products/", product("P1", **{field: ""})))


@pytest.mark.parametrize("field, value", [
    ("active", "1"), ("active", True), ("active", 1.0), ("active", 2), ("active", None),
    ("category", "3"), ("category", 2.5), ("category", -1), ("category", 2**31),
    ("lot_level", "0"), ("lot_level", 2), ("lot_level", False),
    ("name", 5), ("name", None), ("base_unit", ["pc"]), ("product_code", 12),
    ("product_code", "tab\there"), ("product_code", "x" * 201),
    ("base_unit_barcode", 123), ("base_unit_barcode", "12\x003"), ("weight_unit", 1), ("weight_unit", "x" * 21),
    ("weight_unit", "k\x00g"), ("name", "nul\x00"),
    ("packaging", {}), ("packaging", None), ("packaging", ["box"]),
    ("weight_brutto", "-0.001"), ("weight_netto", -1), ("weight_brutto", "1.2345"),
    ("weight_netto", "abc"), ("weight_brutto", True), ("weight_brutto", "NaN"), ("weight_netto", 10**12),
])
def test_wrong_value_is_422_naming_the_field(api, field, value):
    assert field in field_errors(api.post("/v1/products/", product("P1", **{field: value})))
    assert api.get(url("P1")).status_code == 404


@pytest.mark.parametrize("amount", [0, "0", "-1", "1.2345", "0.0001", "x", "", True, None, 10**12])
def test_amount_base_units_must_be_positive_with_three_places(api, amount):
    r = api.post("/v1/products/", product("P1", packaging=[{"unit": "box", "amount_base_units": amount}]))
    assert "amount_base_units" in field_errors(r)["packaging"]["0"]


@pytest.mark.parametrize("entry, field", [
    ({"amount_base_units": 2}, "unit"),
    ({"unit": "box"}, "amount_base_units"),
    ({"unit": "", "amount_base_units": 2}, "unit"),
    ({"unit": "box", "amount_base_units": 2, "barcode": 5}, "barcode"),
    ({"unit": "box", "amount_base_units": 2, "colour": "red"}, "colour"),
])
def test_packaging_entry_fields_are_checked(api, entry, field):
    r = api.post("/v1/products/", product("P1", packaging=[entry]))
    assert field in field_errors(r)["packaging"]["0"]


def test_unknown_field_is_422_naming_it(api):
    errors = field_errors(api.post("/v1/products/", product("P1", colour="red")))
    assert list(errors) == ["colour"]


def test_packaging_unit_names_are_unique(api):
    r = api.post("/v1/products/", product("P1", packaging=[{"unit": "box", "amount_base_units": 2},
                                                          {"unit": "box", "amount_base_units": 3}]))
    assert "packaging" in field_errors(r)


def test_packaging_unit_differs_from_base_unit(api):
    r = api.post("/v1/products/", product("P1", packaging=[{"unit": "pc", "amount_base_units": 2}]))
    assert "packaging" in field_errors(r)


@pytest.mark.parametrize("change", [{"base_unit": "box"},
                                    {"packaging": [{"unit": "pc", "amount_base_units": 2}]}])
def test_an_update_may_not_name_a_packaging_like_the_kept_base_unit(api, change):
    """The body names one of the two, the product keeps the other: the same rule holds."""
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6}])
    before = view(api, "P1")
    assert "packaging" in field_errors(api.post(url("P1"), change))
    assert view(api, "P1") == before


def test_two_units_of_one_product_may_not_share_a_barcode(api):
    r = api.post("/v1/products/", product("P1", base_unit_barcode="111",
                                          packaging=[{"unit": "box", "amount_base_units": 2, "barcode": "111"}]))
    assert r.status_code == 422


# --- barcodes across products ---------------------------------------------------------------

def with_barcode(code, barcode, on):
    if on == "base":
        return product(code, base_unit_barcode=barcode)
    return product(code, packaging=[{"unit": "box", "amount_base_units": 10, "barcode": barcode}])


@pytest.mark.parametrize("existing_on", ["base", "packaging"])
@pytest.mark.parametrize("new_on", ["base", "packaging"])
def test_barcode_used_by_another_product_is_409_on_create(api, existing_on, new_on):
    assert api.post("/v1/products/", with_barcode("P1", "4006381333931", existing_on)).status_code == 201
    r = api.post("/v1/products/", with_barcode("P2", "4006381333931", new_on))
    assert r.status_code == 409, r.json
    assert api.get(url("P2")).status_code == 404


@pytest.mark.parametrize("existing_on", ["base", "packaging"])
@pytest.mark.parametrize("new_on", ["base", "packaging"])
def test_barcode_used_by_another_product_is_409_on_update(api, existing_on, new_on):
    assert api.post("/v1/products/", with_barcode("P1", "4006381333931", existing_on)).status_code == 201
    create(api, "P2")
    change = with_barcode("P2", "4006381333931", new_on)
    del change["name"], change["base_unit"]
    r = api.post(url("P2"), change)
    assert r.status_code == 409, r.json
    unchanged = view(api, "P2")
    assert (unchanged["base_unit_barcode"], unchanged["packaging"]) == ("", [])


def test_empty_barcodes_never_clash(api):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 2}])
    create(api, "P2", packaging=[{"unit": "box", "amount_base_units": 2, "barcode": ""}])


def test_a_product_keeps_its_own_barcodes_on_update(api):
    create(api, "P1", base_unit_barcode="111", packaging=[{"unit": "box", "amount_base_units": 2, "barcode": "222"}])
    r = api.post(url("P1"), {"name": "renamed", "packaging": [{"unit": "crate", "amount_base_units": 4, "barcode": "222"}]})
    assert r.status_code == 200, r.json


def test_a_barcode_freed_by_an_update_may_be_used_by_another_product(api):
    create(api, "P1", base_unit_barcode="111")
    assert api.post(url("P1"), {"base_unit_barcode": ""}).status_code == 200
    create(api, "P2", base_unit_barcode="111")


# --- update ---------------------------------------------------------------------------------

def test_update_replaces_only_the_fields_given(api):
    create(api, "P1", category=3, weight_brutto="1.5", packaging=[{"unit": "box", "amount_base_units": 6}])
    before = view(api, "P1")
    r = api.post(url("P1"), {"name": "New name", "weight_netto": "0.75"})
    assert r.status_code == 200
    assert r.json == {}
    assert view(api, "P1") == {**before, "name": "New name", "weight_netto": Decimal("0.75")}


def test_update_with_packaging_replaces_the_whole_list(api):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6, "barcode": "1"},
                                 {"unit": "crate", "amount_base_units": 24}])
    r = api.post(url("P1"), {"packaging": [{"unit": "pallet", "amount_base_units": 480},
                                           {"unit": "box", "amount_base_units": 12}]})
    assert r.status_code == 200, r.json
    assert view(api, "P1")["packaging"] == [{"unit": "pallet", "amount_base_units": 480, "barcode": ""},
                                            {"unit": "box", "amount_base_units": 12, "barcode": ""}]


def test_update_with_empty_packaging_removes_all(api):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6}])
    assert api.post(url("P1"), {"packaging": []}).status_code == 200
    assert view(api, "P1")["packaging"] == []


def test_update_without_packaging_keeps_it(api):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6}])
    assert api.post(url("P1"), {"base_unit": "kg"}).status_code == 200
    assert view(api, "P1")["packaging"] == [{"unit": "box", "amount_base_units": 6, "barcode": ""}]


def test_update_may_repeat_the_product_code_of_the_path(api):
    create(api, "A/1")
    assert api.post(url("A/1"), {"product_code": "A/1", "name": "x"}).status_code == 200
    assert view(api, "A/1")["name"] == "x"


def test_update_with_another_product_code_is_422(api):
    create(api, "P1")
    r = api.post(url("P1"), {"product_code": "P2", "name": "x"})
    assert "product_code" in field_errors(r)
    assert view(api, "P1")["name"] == "Product P1"
    assert api.get(url("P2")).status_code == 404


def test_update_of_unknown_product_is_404(api):
    r = api.post(url("NOPE"), {"name": "x"})
    assert r.status_code == 404
    assert api.get(url("NOPE")).status_code == 404


def test_update_of_unknown_product_with_bad_fields_is_404(api):
    assert api.post(url("NOPE"), {"active": "yes"}).status_code == 404


def test_update_checks_types_of_the_fields_given(api):
    create(api, "P1")
    assert "active" in field_errors(api.post(url("P1"), {"active": "1"}))
    assert "name" in field_errors(api.post(url("P1"), {"name": ""}))
    assert "weight_brutto" in field_errors(api.post(url("P1"), {"weight_brutto": "1.2345"}))
    assert view(api, "P1") == {"product_code": "P1", "name": "Product P1", "base_unit": "pc", **DEFAULTS}


@pytest.mark.parametrize("entry, field", [({"unit": "box"}, "amount_base_units"),
                                          ({"amount_base_units": 1}, "unit")])
def test_update_needs_complete_packaging_entries(api, entry, field):
    create(api, "P1")
    r = api.post(url("P1"), {"packaging": [entry]})
    assert field in field_errors(r)["packaging"]["0"]


def test_update_packaging_unit_may_not_be_the_base_unit(api):
    create(api, "P1", base_unit="pc")
    assert "packaging" in field_errors(api.post(url("P1"), {"packaging": [{"unit": "pc", "amount_base_units": 2}]}))


def test_update_base_unit_may_not_be_a_packaging_unit(api):
    create(api, "P1", base_unit="pc", packaging=[{"unit": "box", "amount_base_units": 2}])
    assert "packaging" in field_errors(api.post(url("P1"), {"base_unit": "box"}))
    assert view(api, "P1")["base_unit"] == "pc"


def test_update_with_repeated_packaging_units_is_422(api):
    create(api, "P1")
    r = api.post(url("P1"), {"packaging": [{"unit": "box", "amount_base_units": 2},
                                           {"unit": "box", "amount_base_units": 3}]})
    assert "packaging" in field_errors(r)


@pytest.mark.unbalanced  # stock made by writing a balance: posting is not part of this
@pytest.mark.parametrize("change", [{"base_unit": "kg"}, {"lot_level": 1}, {"base_unit": "kg", "name": "x"}])
def test_base_unit_or_lot_level_cannot_change_while_stock_exists(api, session, change):
    create(api, "P1", base_unit="pc", lot_level=0)
    add_stock(session, "P1", 5000)
    r = api.post(url("P1"), change)
    assert r.status_code == 409, r.json
    assert r.json["error"]["code"] == "conflict"
    assert view(api, "P1") == {"product_code": "P1", "name": "Product P1", "base_unit": "pc", **DEFAULTS}


@pytest.mark.unbalanced  # stock made by writing a balance: posting is not part of this
def test_negative_stock_is_stock_too(api, session):
    create(api, "P1")
    add_stock(session, "P1", -1)
    assert api.post(url("P1"), {"lot_level": 1}).status_code == 409


@pytest.mark.unbalanced  # stock made by writing a balance: posting is not part of this
@pytest.mark.parametrize("change", [{"base_unit": "pc", "lot_level": 0}, {"name": "x", "category": 4},
                                    {"packaging": [{"unit": "box", "amount_base_units": 3}]}])
def test_other_changes_are_allowed_with_stock(api, session, change):
    create(api, "P1", base_unit="pc", lot_level=0)
    add_stock(session, "P1", 5000)
    assert api.post(url("P1"), change).status_code == 200


@pytest.mark.unbalanced  # stock made by writing a balance: posting is not part of this
@pytest.mark.parametrize("change", [{"base_unit": "kg"}, {"lot_level": 1}])
def test_base_unit_or_lot_level_may_change_without_stock(api, session, change):
    create(api, "P1")
    create(api, "OTHER")
    add_stock(session, "P1", 0)  # a balance that went back to zero is no stock
    add_stock(session, "OTHER", 5000)
    assert api.post(url("P1"), change).status_code == 200
    assert view(api, "P1").items() >= change.items()


# --- codes in the path ----------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "A/1", "with space", "Žluťoučký kůň", "/leading", "trailing/", "a//b", "100%", "q?x#y&z=1",
    "..", "日本語", " padded ", "+plus",
])
def test_any_printable_code_is_reached_url_encoded(api, code):
    create(api, code)
    assert view(api, code)["product_code"] == code
    assert api.post(url(code), {"name": "renamed"}).status_code == 200
    assert view(api, code)["name"] == "renamed"
    assert [p["product_code"] for p in api.get("/v1/products/").json["list"]] == [code]


def test_list_is_empty_without_products(api):
    r = api.get("/v1/products/")
    assert r.status_code == 200
    assert r.json == {"list": []}


def test_list_is_sorted_by_code_point(api):
    codes = ["b", "B", "a", "ä", "Ä", "Z", "10", "9", "a b", "ab", "€", "日本"]
    for code in codes:
        create(api, code)
    listed = [p["product_code"] for p in api.get("/v1/products/").json["list"]]
    assert listed == sorted(codes)
    assert listed[:4] == ["10", "9", "B", "Z"]


def test_list_carries_every_field_and_packaging_in_order(api):
    create(api, "P2", packaging=[{"unit": "z-box", "amount_base_units": 2}, {"unit": "a-box", "amount_base_units": 3}])
    create(api, "P1")
    listed = api.get("/v1/products/").json["list"]
    assert listed == [view(api, "P1"), view(api, "P2")]
    assert [p["unit"] for p in listed[1]["packaging"]] == ["z-box", "a-box"]


@pytest.mark.unbalanced  # stock made by writing a balance: posting is not part of this
def test_product_rules_answer_before_the_stock_conflict(api, session):
    create(api, "P1", packaging=[{"unit": "box", "amount_base_units": 6}])
    add_stock(session, "P1", 1000)
    r = api.post("/v1/products/P1", {"lot_level": 1, "base_unit_barcode": "111",
                                     "packaging": [{"unit": "box", "amount_base_units": 6, "barcode": "111"}]})
    assert r.status_code == 422, r.json


@pytest.mark.parametrize("fields", [
    {},
    {"packaging": [{"unit": "box", "amount_base_units": "2.5", "barcode": "4006"},
                   {"unit": "pallet", "amount_base_units": 480}],
     "weight_brutto": "1.25", "weight_netto": 1, "lot_level": 1, "active": 0, "category": 7,
     "base_unit_barcode": "4005", "weight_unit": "g"},
])
def test_product_answers_equal_the_schema_dump(api, session, fields):
    # The routes write products with schemas.product_out for speed; the schema stays the contract.
    create(api, "P1", **fields)
    expected = product_schema.dump(catalog.get_product(session, "P1"))
    assert api.get("/v1/products/P1").json["item"] == expected
    assert api.get("/v1/products/").json["list"] == [expected]


def test_create_and_update_are_in_the_audit_trail_with_before_and_after(api, session):
    created(api.post("/v1/products/", product("P1", packaging=[{"unit": "box", "amount_base_units": 6}])))
    assert api.post("/v1/products/P1", {"name": "Renamed", "weight_netto": "1.5", "base_unit": "pc",
                                        "packaging": [{"unit": "box", "amount_base_units": 12}]}).status_code == 200
    assert api.post("/v1/products/P1", {"active": 0}).status_code == 200
    session.rollback()
    [deactivated, update, create] = audit.list_entries(session, kind="product")
    assert (create["kind"], create["record"], create["who"]) == ("product.create", "P1", "admin")
    assert create["changes"]["name"] == [None, "Product P1"]
    assert update["kind"] == "product.update"
    assert update["changes"] == {
        "name": ["Product P1", "Renamed"], "weight_netto": ["0", "1.5"],
        "packaging": [[{"unit": "box", "amount_base_units": "6", "barcode": ""}],
                      [{"unit": "box", "amount_base_units": "12", "barcode": ""}]]}
    assert deactivated["changes"] == {"active": [1, 0]}


def test_a_refused_update_leaves_no_trail(api, session):
    created(api.post("/v1/products/", product("P1", base_unit_barcode="111")))
    created(api.post("/v1/products/", product("P2")))
    assert api.post("/v1/products/P2", {"base_unit_barcode": "111"}).status_code == 409
    session.rollback()
    assert audit.list_entries(session, kind="product.update") == []


# --- the whole list, written as it is read --------------------------------------------------

def import_products(client, key, text):
    r = client.post("/v1/import/products", headers={"TS-Apikey": key},
                    data={"file": (io.BytesIO(text.encode()), "products.csv")}, content_type="multipart/form-data")
    assert r.status_code == 200, r.json


def test_the_whole_list_is_streamed_and_is_every_product_with_its_packaging(api, client, keys, session):
    """2,400 products (more than two of routes/streaming.py's pieces): a third without packaging,
    between the others, so that each product's packaging is read beside it and no further."""
    expected = {}
    with_packaging, without = [], []
    for n in range(2_400):
        code = f"P{n:05d}"
        name = f"Jogurt čokolada {n}" if n % 7 == 0 else f"Flour {n} kg"
        product_ = {"product_code": code, "name": name, "active": 1, "base_unit": "pc", "base_unit_barcode": "",
                    "category": 0, "lot_level": 0, "packaging": [], "weight_brutto": n % 5 + 0.25,
                    "weight_netto": 0, "weight_unit": "kg", "decimal_places": 3}
        if n % 3:
            product_["packaging"] = [{"unit": "z-box", "amount_base_units": 6, "barcode": f"400{n:010d}"},
                                     {"unit": "a-pallet", "amount_base_units": 480, "barcode": ""}]
            with_packaging.append(f'{code},"{name}",pc,{n % 5 + 0.25},z-box,6,400{n:010d},a-pallet,480,\n')
        else:
            without.append(f'{code},"{name}",pc,{n % 5 + 0.25}\n')
        expected[code] = product_
    import_products(client, keys["admin"], "product_code,name,base_unit,weight_brutto,packaging_1_unit,"
                    "packaging_1_amount_base_units,packaging_1_barcode,packaging_2_unit,"
                    "packaging_2_amount_base_units,packaging_2_barcode\n" + "".join(with_packaging))
    import_products(client, keys["admin"], "product_code,name,base_unit,weight_brutto\n" + "".join(without))
    r = api.get("/v1/products/")
    assert r.status_code == 200 and "Content-Length" not in r.headers
    answer = {"list": [expected[code] for code in sorted(expected)]}
    assert r.data == (json.dumps(answer, separators=(",", ":")) + "\n").encode()
    # The same bytes as the list read whole and dumped at once, as it was answered before.
    whole = {"list": [product_schema.dump(product_) for product_ in catalog.list_products(session)]}
    assert r.data == (json.dumps(whole, separators=(",", ":")) + "\n").encode()
