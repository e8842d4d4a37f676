"""How the rules' messages name things: as a person in the depot knows them (issue 38).

"Not enough stock of 'BUTTER' lot '' in warehouse 1" told the office a code, an empty quote and
a number; a depot reads "Butter 250 g, without a lot, in Cold store". A product is named by its
name, a lot by its code or as "without a lot", a warehouse by its name. The names are read only
on the way to an error: a booking that succeeds never pays for them. The fields of an error
(its paths, `data.batch_items.3.amount`) stay as they are: they are for the scanner's software.
"""
from sqlalchemy import select

from models import Product, Warehouse
from stock.errors import Said, say


def lot_words(lot: str) -> Said:
    """A lot as a message names it; a Said, so that a page says it in the message's language."""
    return say("lot %(lot)s", lot=lot) if lot else say("without a lot")


def product_words(name: str, code: str) -> str:
    """A product as a message names it: its name, or its code where it has none."""
    return name or code


def product_names(session, codes) -> dict[str, str]:
    """{code: how a message names it} for each code; an unknown code stands for itself."""
    codes = sorted(set(codes))
    named = dict(session.execute(select(Product.product_code, Product.name)
                                 .where(Product.product_code.in_(codes))).all()) if codes else {}
    return {code: product_words(named.get(code, ""), code) for code in codes}


def warehouse_words(session, id_warehouse: int) -> str:
    """A warehouse as a message names it: its name, or "warehouse N" for one that does not exist."""
    name = session.scalar(select(Warehouse.name).where(Warehouse.id_warehouse == id_warehouse))
    return name or say("warehouse %(number)s", number=id_warehouse)
