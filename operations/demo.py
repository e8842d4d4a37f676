"""A believable demo depot: `flask --app app demo` fills an empty database.

Everything is booked the way the service books it: each product, order and
scanner batch is written as an API body, checked by the same schema, and
handed to the same rule function (catalog.create_product, create_order,
post_batch). So the demo's stock, documents and stocktaking obey every
rule a real depot's do, and `flask --app app check` finds them balanced.

The depot is made from a fixed seed relative to today: two warehouses (1 the
main hall, 2 the cold store), about 40 products, five customers, 90 days of
goods-in and goods-out, orders in states 0, 1 and 3, and a stocktaking ten
days ago with differences.
"""
import random
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, timedelta

from flask import current_app
from sqlalchemy import select

from identity import api_keys, people
from models import Batch, OrderDocument, Product, Warehouse, WarehouseDocument
from operations import upgrades
from schemas import batch_create_schema, customer_row_schema, order_create_schema, product_schema
from schemas.moves import move_schema
from stock import audit, catalog, locations, moves, warehouses
from stock.audit import CLI_ADDRESS, Actor
from stock.orders import create_order
from stock.policy import Policy
from stock.posting import post_batch
from stock.quantities import from_milli

DAYS = 90
SEED = 20261123
MAIN, COLD = 1, 2

# The racks (DESIGN 27), in walking order: the main hall's aisles A to C of six bays each, with
# its receiving dock; the cold store's cold shelves and one hold shelf for what must not be picked.
DOCK = "DOCK"
MAIN_SHELVES = [f"{aisle}-{bay:02d}" for aisle in "ABC" for bay in range(1, 7)]
COLD_SHELVES = ["K-01", "K-02", "K-03", "K-04"]
HOLD_SHELF = "Q-HOLD"

# (code, name, base unit, lot level, packaging [(unit, base units)], warehouse, typical delivery)
CATALOG = [
    ("MILK-1L", "Milk 1 l", "pc", 0, [("crate", 12)], COLD, 240),
    ("MILK-05L", "Milk 0.5 l", "pc", 0, [("crate", 20)], COLD, 200),
    ("YOG-NAT", "Natural yoghurt 150 g", "pc", 1, [("tray", 24)], COLD, 240),
    ("YOG-STR", "Strawberry yoghurt 150 g", "pc", 1, [("tray", 24)], COLD, 192),
    ("BUTTER-250", "Butter 250 g", "pc", 1, [("box", 40)], COLD, 160),
    ("CHEESE-EDAM", "Edam cheese", "kg", 1, [], COLD, 60),
    ("CHEESE-GOUDA", "Gouda cheese", "kg", 1, [], COLD, 50),
    ("HAM-SLICED", "Sliced ham 100 g", "pc", 1, [("box", 30)], COLD, 150),
    ("CHICKEN-FIL", "Chicken fillet", "kg", 1, [], COLD, 80),
    ("ICE-VAN", "Vanilla ice cream 1 l", "pc", 1, [("box", 6)], COLD, 60),
    ("PEAS-FROZEN", "Frozen peas 450 g", "pc", 0, [("box", 16)], COLD, 96),
    ("PIZZA-MARG", "Frozen pizza Margherita", "pc", 1, [("box", 10)], COLD, 80),
    ("WATER-15", "Still water 1.5 l", "pc", 0, [("pack", 6), ("pallet", 504)], MAIN, 504),
    ("WATER-SPARK", "Sparkling water 1.5 l", "pc", 0, [("pack", 6), ("pallet", 504)], MAIN, 504),
    ("COLA-05", "Cola 0.5 l", "pc", 0, [("pack", 24)], MAIN, 480),
    ("JUICE-ORA", "Orange juice 1 l", "pc", 1, [("box", 12)], MAIN, 240),
    ("JUICE-APP", "Apple juice 1 l", "pc", 1, [("box", 12)], MAIN, 240),
    ("BEER-LAGER", "Lager 0.5 l", "pc", 0, [("crate", 20)], MAIN, 400),
    ("COFFEE-BEAN", "Coffee beans 1 kg", "pc", 0, [("box", 8)], MAIN, 64),
    ("COFFEE-GRND", "Ground coffee 250 g", "pc", 0, [("box", 24)], MAIN, 120),
    ("TEA-BLACK", "Black tea, 40 bags", "pc", 0, [("box", 24)], MAIN, 96),
    ("SUGAR-1KG", "Sugar 1 kg", "pc", 0, [("sack", 10)], MAIN, 200),
    ("FLOUR-1KG", "Wheat flour 1 kg", "pc", 0, [("sack", 10)], MAIN, 200),
    ("RICE-1KG", "Long-grain rice 1 kg", "pc", 0, [("box", 12)], MAIN, 144),
    ("PASTA-SPAG", "Spaghetti 500 g", "pc", 0, [("box", 20)], MAIN, 200),
    ("PASTA-PENNE", "Penne 500 g", "pc", 0, [("box", 20)], MAIN, 160),
    ("OIL-SUN", "Sunflower oil 1 l", "pc", 0, [("box", 12)], MAIN, 120),
    ("TOMATO-CAN", "Chopped tomatoes 400 g", "pc", 1, [("tray", 24)], MAIN, 240),
    ("BEANS-CAN", "White beans 400 g", "pc", 1, [("tray", 24)], MAIN, 144),
    ("TUNA-CAN", "Tuna in oil 160 g", "pc", 1, [("tray", 48)], MAIN, 192),
    ("SALT-500", "Salt 500 g", "pc", 0, [], MAIN, 100),
    ("CHOC-MILK", "Milk chocolate 100 g", "pc", 1, [("box", 20)], MAIN, 200),
    ("BISCUIT-BUT", "Butter biscuits 200 g", "pc", 0, [("box", 18)], MAIN, 144),
    ("CEREAL-OAT", "Oat flakes 500 g", "pc", 0, [], MAIN, 90),
    ("SOAP-LIQ", "Liquid soap 500 ml", "pc", 0, [("box", 12)], MAIN, 72),
    ("DETERG-3L", "Laundry detergent 3 l", "pc", 0, [("box", 4)], MAIN, 48),
    ("DISH-TABS", "Dishwasher tablets, 40", "pc", 0, [], MAIN, 40),
    ("TOILET-8", "Toilet paper, 8 rolls", "pc", 0, [("bale", 6)], MAIN, 60),
    ("BAGS-BIN", "Bin bags 60 l, roll", "pc", 0, [], MAIN, 50),
    ("FOIL-ALU", "Aluminium foil 30 m", "pc", 0, [], MAIN, 40),
    ("ROPE-NYLON", "Nylon rope", "m", 0, [("coil", 50)], MAIN, 200),
]

CUSTOMERS = [
    (101, "Corner Market Ltd", "Station Road 4", "Linden", "4021"),
    (102, "Green Valley Grocers", "Mill Lane 17", "Ashford", "4310"),
    (103, "Harbour Canteen", "Quay Street 2", "Port Ellis", "4502"),
    (104, "Hillside Hotel", "Summit Way 9", "Oakmoor", "4118"),
    (105, "City School Kitchen", "Park Avenue 31", "Linden", "4020"),
]


class DemoRefused(Exception):
    """The database is not empty: the demo fills only a fresh depot."""


def ensure_schema() -> None:
    """Bring the database to the newest migration: a fresh demo.db is built by the migrations."""
    upgrades.upgrade_database(current_app, who="flask demo")


def refuse_unless_empty(session) -> None:
    for model, what in ((Batch, "batches"), (WarehouseDocument, "warehouse documents"),
                        (OrderDocument, "order documents"), (Product, "products")):
        if session.scalar(select(model).limit(1)) is not None:
            raise DemoRefused(f"The database already holds {what}; the demo fills only an empty one.")


def ean13(serial: int) -> str:
    """A valid EAN-13 (prefix 200, in-store numbers) for a serial number."""
    digits = f"200{serial:09d}"
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits))
    return digits + str((10 - total % 10) % 10)


@dataclass
class Depot:
    """What the demo has booked so far, to pick believable amounts and lots."""

    session: object
    caller: api_keys.Caller
    policy: Policy
    rng: random.Random
    today: date
    batch_number: int = 0
    order_number: int = 0
    lots: dict = field(default_factory=lambda: defaultdict(dict))  # (wh, code) -> {lot: (milli, exp)}
    products: dict = field(default_factory=dict)

    def on_hand(self, warehouse: int, code: str) -> int:
        return sum(amount for amount, _ in self.lots[(warehouse, code)].values())

    def post(self, warehouse: int, direction: str, day: date, items: list[dict], *, type_="R",
             document_number: str = "") -> None:
        self.batch_number += 1
        settings = {"batch_number": self.batch_number, "id_warehouse": warehouse,
                    "direction": direction, "type": type_, "date": day.isoformat(),
                    "app_version": "demo", "name": f"scanner {warehouse}"}
        if document_number:
            settings["document_number"] = document_number
        batch = batch_create_schema.load({"batch_settings": settings, "batch_items": items,
                                          "batch_extras": []})
        post_batch(self.session, self.caller, batch, self.policy)
        sign = 1 if direction == "I" else -1
        for item in batch["batch_items"]:
            if type_ == "V":
                continue
            info = self.products[item["product_code"]]
            per_unit = 1 if item["unit"] == info["unit"] else info["packaging"][item["unit"]]
            key = (warehouse, item["product_code"])
            lot = item.get("lot", "")
            amount, expires = self.lots[key].get(lot, (0, item.get("date_exp", "")))
            self.lots[key][lot] = (amount + sign * item["amount_milli"] * per_unit, expires)
            if not self.lots[key][lot][0]:
                del self.lots[key][lot]

    def take(self, warehouse: int, code: str, wanted: int) -> list[tuple[str, int]]:
        """(lot, whole base units) to ship, oldest lot first, at most what is on hand."""
        picked = []
        for lot, (milli, _) in sorted(self.lots[(warehouse, code)].items(), key=lambda kv: kv[1][1]):
            units = min(wanted, milli // 1000)
            if units > 0:
                picked.append((lot, units))
                wanted -= units
            if not wanted:
                break
        return picked


def build(session, today: date | None = None) -> dict:
    """Fill the depot; returns counts of what was made. Raises DemoRefused on a used database."""
    refuse_unless_empty(session)
    today = today or date.today()
    depot = Depot(session=session, caller=api_keys.Caller(0, "demo", "admin", None),
                  policy=Policy(), rng=random.Random(SEED), today=today)
    _warehouses(session)
    _locations(session)
    _customers(session)
    _products(depot)
    start = today - timedelta(days=DAYS)
    stocktaking_day = today - timedelta(days=10)
    for offset in range(DAYS + 1):
        day = start + timedelta(days=offset)
        if offset == 0 or day.weekday() in (0, 3):
            _goods_in(depot, day)
        if day == stocktaking_day:
            _stocktaking(depot, day)
        _customer_orders(depot, day, last=offset == DAYS)
    _quarantine(depot)
    return {"products": len(CATALOG), "customers": len(CUSTOMERS), "batches": depot.batch_number,
            "orders": depot.order_number}


def _warehouses(session) -> None:
    """1 is there in a new database as "Main"; the cold store is the demo's second."""
    if session.get(Warehouse, COLD) is None:
        warehouses.create_warehouse(session, audit.Actor("demo", audit.CLI_ADDRESS, "cli"),
                                    {"id_warehouse": COLD, "name": "Cold store", "address": ""})


def _locations(session) -> None:
    actor = audit.Actor("demo", audit.CLI_ADDRESS, "cli")
    racks = [(MAIN, DOCK, "Receiving dock", 0, 1), (COLD, HOLD_SHELF, "Quarantine: not to be picked", 1, 0)]
    racks += [(MAIN, code, f"Aisle {code[0]}, bay {int(code[2:])}", 0, 0) for code in MAIN_SHELVES]
    racks += [(COLD, code, f"Cold shelf {int(code[2:])}", 0, 0) for code in COLD_SHELVES]
    for warehouse, code, name, hold, receiving in racks:
        # The dock first, the hold shelf last, the shelves in the natural order of their codes between.
        sequence = 0 if code == DOCK else 900 if hold else 100
        locations.create_location(session, actor, None, {"id_warehouse": warehouse, "code": code, "name": name,
                                                         "sequence": sequence, "hold": hold, "receiving": receiving})


def _home(warehouse: int, index: int) -> str:
    """The shelf a product of the catalog lives on: its place in its warehouse's list of products."""
    shelves = MAIN_SHELVES if warehouse == MAIN else COLD_SHELVES
    return shelves[index % len(shelves)]


def _quarantine(depot: "Depot") -> None:
    """Lots of the cold store past their best-before go to the hold shelf, one move per shelf."""
    past: dict[str, list[dict]] = defaultdict(list)
    for code, info in sorted(depot.products.items()):
        if info["warehouse"] != COLD:
            continue
        for lot, (milli, expires) in sorted(depot.lots[(COLD, code)].items()):
            if lot and expires and expires < depot.today.isoformat() and milli > 0:
                past[info["home"]].append({"product_code": code, "lot": lot, "amount": str(from_milli(milli))})
    for shelf, items in sorted(past.items()):
        moves.post_move(depot.session, depot.caller, move_schema.load({
            "move_id": f"demo-quarantine-{shelf}", "from": {"id_warehouse": COLD, "location": shelf},
            "to": {"id_warehouse": COLD, "location": HOLD_SHELF}, "items": items,
            "note": "past its best-before"}), depot.policy)


def _customers(session) -> None:
    catalog.save_customers(session, [customer_row_schema.load({
        "id_customer": str(number), "name": name, "street": street, "city": city, "zip": zip_code,
        "country": "GB", "vat_number": f"GB{number:09d}"}) for number, name, street, city, zip_code in CUSTOMERS])


def _products(depot: Depot) -> None:
    serial = 0
    placed = defaultdict(int)
    for code, name, unit, lot_level, packaging, warehouse, _ in CATALOG:
        serial += 1
        home = _home(warehouse, placed[warehouse])
        placed[warehouse] += 1
        body = {"product_code": code, "name": name, "base_unit": unit, "lot_level": lot_level,
                "base_unit_barcode": ean13(serial * 10), "category": 1 if warehouse == COLD else 2,
                "packaging": [{"unit": pack, "amount_base_units": amount, "barcode": ean13(serial * 10 + i)}
                              for i, (pack, amount) in enumerate(packaging, start=1)]}
        catalog.create_product(depot.session, product_schema.load(body))
        depot.products[code] = {"unit": unit, "lot_level": lot_level, "packaging": dict(packaging),
                                "warehouse": warehouse, "home": home}


def _lot(code: str, day: date) -> tuple[str, str]:
    """A lot named after its delivery day, and a best-before some weeks on."""
    keeps = 21 if code.startswith(("YOG", "HAM", "CHICKEN", "BUTTER")) else 180
    return f"L{day:%y%m%d}", (day + timedelta(days=keeps)).isoformat()


def _goods_in(depot: Depot, day: date) -> None:
    """A supplier delivery per warehouse: the products running low, in their packaging."""
    for warehouse in (MAIN, COLD):
        items = []
        for code, _, unit, lot_level, packaging, home, usual in CATALOG:
            if home != warehouse or depot.on_hand(warehouse, code) > usual * 1000 // 2:
                continue
            item = {"product_code": code, "amount": str(usual), "unit": unit, "wplace": depot.products[code]["home"]}
            if packaging and usual % packaging[0][1] == 0 and depot.rng.random() < 0.7:
                item.update(amount=str(usual // packaging[0][1]), unit=packaging[0][0])
            if lot_level:
                item["lot"], item["date_exp"] = _lot(code, day)
            items.append(item)
        if items:
            depot.post(warehouse, "I", day, items)


def _customer_orders(depot: Depot, day: date, last: bool) -> None:
    """One or two customer orders a day, shipped the same day in full or in part.

    On the last day the orders are only imported (state 1); the day before, one
    is shipped in part (state 3); the rest were shipped in full (state 0).
    """
    for _ in range(depot.rng.choice((1, 1, 2))):
        warehouse = depot.rng.choice((MAIN, MAIN, COLD))
        customer, customer_name = depot.rng.choice(CUSTOMERS)[:2]
        candidates = [code for code, info in depot.products.items()
                      if info["warehouse"] == warehouse and depot.on_hand(warehouse, code) >= 10_000]
        if not candidates:
            continue
        lines = []
        for code in depot.rng.sample(candidates, min(len(candidates), depot.rng.randint(2, 5))):
            usual = next(row[6] for row in CATALOG if row[0] == code)
            wanted = max(1, depot.rng.randint(usual // 20, usual // 6))
            for lot, units in depot.take(warehouse, code, wanted):
                lines.append((code, lot, units))
        if not lines:
            continue
        depot.order_number += 1
        number = f"SO-{day:%Y%m%d}-{depot.order_number:04d}"
        create_order(depot.session, depot.caller, order_create_schema.load({
            "document_number": number, "description": f"Delivery to {customer_name}",
            "id_warehouse": warehouse, "id_customer": customer,
            "batch_settings": {"allowed_types": ["R"], "allowed_directions": ["O"]},
            "items": [{"item_number": i, "product_code": code, "lot": lot, "amount_ordered": str(units),
                       "direction": "O"} for i, (code, lot, units) in enumerate(lines, start=1)]}))
        if last:
            continue
        partial = day == depot.today - timedelta(days=1)
        shipped = lines[:-1] if partial and len(lines) > 1 else lines
        if partial and len(lines) == 1:
            shipped = [(lines[0][0], lines[0][1], max(1, lines[0][2] // 2))]
        depot.post(warehouse, "O", day, [{"product_code": code, "lot": lot, "amount": str(units),
                                          "unit": depot.products[code]["unit"]}
                                         for code, lot, units in shipped], document_number=number)


def _stocktaking(depot: Depot, day: date) -> None:
    """The main hall counts a dozen products: most agree with the books, some do not."""
    codes = sorted(code for code, info in depot.products.items()
                   if info["warehouse"] == MAIN and depot.on_hand(MAIN, code) > 0)
    items = []
    for code in depot.rng.sample(codes, min(12, len(codes))):
        for lot, (milli, expires) in sorted(depot.lots[(MAIN, code)].items()):
            # The first line counted is always short: the demo must show a difference.
            counted = milli // 1000 + (depot.rng.choice((0, 0, 0, -2, -1, 1, 3)) if items else -2)
            item = {"product_code": code, "amount": str(max(counted, 0)),
                    "unit": depot.products[code]["unit"]}
            if lot:
                item.update(lot=lot, date_exp=expires)
            items.append(item)
    depot.post(MAIN, "I", day, items, type_="V")
    # The count replaced the books of what was counted.
    for item in items:
        key = (MAIN, item["product_code"])
        lot = item.get("lot", "")
        amount = int(item["amount"]) * 1000
        if amount:
            depot.lots[key][lot] = (amount, depot.lots[key].get(lot, (0, ""))[1])
        else:
            depot.lots[key].pop(lot, None)


OFFICE_PERSON = "office"


def office_person(session) -> str:
    """A person of role read who signs in to the pages of the demo; their new password."""
    password = secrets.token_urlsafe(15)
    people.create_person(session, Actor("demo", CLI_ADDRESS, "cli"), OFFICE_PERSON, "read", password)
    return password


DEMO_PHONE = "demo-phone"


def phone_key(session) -> str:
    """A key of role scan for a phone, so that the demo's orders can be picked from /scan at once."""
    return api_keys.create_key(session, DEMO_PHONE, "scan", actor=Actor("demo", CLI_ADDRESS, "cli"))
