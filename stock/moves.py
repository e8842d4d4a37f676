"""Moves of stock (DESIGN 27): from one location to another in a warehouse, or between warehouses.

A move is one transaction, whole or absent. Within a warehouse only the stock per location
changes (no warehouse document, the warehouse's figures unchanged). Between warehouses it is a
goods-out document in `from` and a goods-in document in `to`, both or neither, which the move
names; a lot keeps its best-before (it is the lot's, whatever the warehouse). The client's
`move_id` makes a retry safe as a batch number does: the same id with the same content moves
nothing more, with other content it is a conflict.
"""
import hashlib
import json
from collections import defaultdict
from datetime import date, datetime, timezone

from sqlalchemy import insert, or_, select
from sqlalchemy.exc import IntegrityError

from models import BestBefore, Move, MoveItem, Product, WarehouseDocument
from stock import placement
from stock.balances import add_document_items, change_balances, new_document
from stock.caller import Caller, utc_text
from stock.errors import Conflict, InsufficientStock, Invalid, say, say_count
from stock.naming import lot_words, product_words, warehouse_words
from stock.policy import Policy
from stock.quantities import from_milli, within_places
from stock.warehouses import require_warehouse
from storage.db import writing


def move_digest(move: dict) -> str:
    """A fingerprint of the move as parsed: a retry must carry exactly the same content."""
    text = json.dumps(move, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def post_move(session, caller: Caller, move: dict, policy: Policy) -> bool:
    """Move stock; False when it was a retry that moved nothing.

    In this order: the caller may act in both warehouses (403); under their locks, a stored
    move of the same id is a retry or a conflict (409); the warehouses, locations, products,
    lots and amounts (422); the stock at the source (409).
    """
    source, target = move["source"], move["target"]
    caller.require_warehouse(source["id_warehouse"])
    caller.require_warehouse(target["id_warehouse"])
    digest = move_digest(move)
    try:
        with writing(session, sorted({source["id_warehouse"], target["id_warehouse"]})):
            if _is_retry(session, move, digest):
                return False
            _book_move(session, caller, move, digest, policy)
    except IntegrityError:
        # A copy of the same move committed first (its id is the key): a retry after all.
        if session.get(Move, move["move_id"]) is None:
            raise
        return not _is_retry(session, move, digest)
    return True


def _is_retry(session, move: dict, digest: str) -> bool:
    stored = session.scalar(select(Move.content_digest).where(Move.move_id == move["move_id"]))
    if stored is None:
        return False
    if stored != digest:
        message = say("Move %(move_id)s exists already with other content.", move_id=move["move_id"])
        raise Conflict(message, {"data": {"move_id": [message]}})
    return True


def _book_move(session, caller: Caller, move: dict, digest: str, policy: Policy) -> None:
    source, target = move["source"], move["target"]
    within = source["id_warehouse"] == target["id_warehouse"]
    require_warehouse(session, source["id_warehouse"], ("data", "from", "id_warehouse"))
    if not within:
        require_warehouse(session, target["id_warehouse"], ("data", "to", "id_warehouse"))
    from_location = placement.resolve(session, source["id_warehouse"], source["location"], ("data", "from", "location"))
    to_location = placement.resolve(session, target["id_warehouse"], target["location"], ("data", "to", "location"))
    if within and from_location == to_location:
        message = say("A move within a warehouse goes from one location to another.")
        raise Invalid(message, {"data": {"to": {"location": [message]}}})
    products = _check_items(session, move["items"])
    move_lines = [{"product_code": i["product_code"], "lot": i.get("lot", ""), "amount_milli": i["amount_milli"]}
                  for i in move["items"]]
    # First written, so that a copy racing this one waits on its key and then finds it.
    session.execute(insert(Move).values(
        move_id=move["move_id"], from_warehouse=source["id_warehouse"], from_location=from_location,
        to_warehouse=target["id_warehouse"], to_location=to_location, note=move.get("note", ""),
        created_at=datetime.now(timezone.utc), posted_by=caller.name[:100], content_digest=digest,
        out_document_id=0, in_document_id=0, items=json.dumps(move_lines)))
    # The same lines a row each: a lot's story finds its moves through their index.
    session.execute(insert(MoveItem), [{"move_id": move["move_id"], "line": number, **line}
                                       for number, line in enumerate(move_lines, start=1)])
    amounts: dict[tuple[str, str], int] = defaultdict(int)
    for item in move["items"]:
        amounts[(item["product_code"], item.get("lot", ""))] += item["amount_milli"]
    if not policy.allow_negative_stock:
        _refuse_short(session, move["items"], source["id_warehouse"], from_location, amounts, products)
    taken = {(code, lot, from_location): -amount for (code, lot), amount in amounts.items()}
    put = {(code, lot, to_location): amount for (code, lot), amount in amounts.items()}
    if within:
        placement.place(session, source["id_warehouse"], {}, {}, policy, {**taken, **put})
        return
    today = date.today()
    kept = dict(((row.product_code, row.lot), row.date_exp) for row in session.execute(
        select(BestBefore.product_code, BestBefore.lot, BestBefore.date_exp)
        .where(BestBefore.product_code.in_(sorted({code for code, _ in amounts})))))
    lines = [{"product_code": code, "name": products[code]["name"], "lot": lot,
              "date_exp": kept.get((code, lot), ""), "amount_base_milli": amount}
             for (code, lot), amount in amounts.items()]
    change_balances(session, source["id_warehouse"], {key: -amount for key, amount in amounts.items()}, policy,
                    placed=taken)
    change_balances(session, target["id_warehouse"], dict(amounts), policy, placed=put)
    out_id = new_document(session, source["id_warehouse"], "O", today, today)
    add_document_items(session, out_id, source["id_warehouse"], "O", today, today, lines)
    in_id = new_document(session, target["id_warehouse"], "I", today, today)
    add_document_items(session, in_id, target["id_warehouse"], "I", today, today, lines)
    session.execute(Move.__table__.update().where(Move.move_id == move["move_id"])
                    .values(out_document_id=out_id, in_document_id=in_id))


def _check_items(session, items: list[dict]) -> dict[str, dict]:
    """Each item's product exists, its lot suits the product, its amount its decimal places (422)."""
    codes = sorted({item["product_code"] for item in items})
    products = {row.product_code: {"name": row.name, "lot_level": row.lot_level, "places": row.decimal_places}
                for row in session.execute(select(Product.product_code, Product.name, Product.lot_level,
                                                  Product.decimal_places).where(Product.product_code.in_(codes)))}
    problems = {}
    for index, item in enumerate(items):
        product = products.get(item["product_code"])
        lot = item.get("lot", "")
        if product is None:
            problems[str(index)] = {"product_code": [say("No product %(code)r.", code=item["product_code"])]}
        elif product["lot_level"] == 1 and not lot:
            problems[str(index)] = {"lot": [say("The product is kept by lot: a lot is required.")]}
        elif product["lot_level"] == 0 and lot:
            problems[str(index)] = {"lot": [say("The product is not kept by lot: the lot must be empty.")]}
        elif not within_places(item["amount_milli"], product["places"]):
            problems[str(index)] = {"amount": [say_count(
                "More than %(count)s decimal place, as %(product)s is counted.",
                "More than %(count)s decimal places, as %(product)s is counted.", product["places"],
                text="More than %(count)s decimal place(s), as %(product)s is counted.",
                product=product_words(product["name"], item["product_code"]))]}
    if problems:
        first = next(iter(problems.values()))
        raise Invalid(say_count("%(count)s item refused, e.g.: %(message)s", "%(count)s items refused, e.g.: %(message)s",
                                len(problems), text="%(count)s item(s) refused, e.g.: %(message)s",
                                message=next(iter(first.values()))[0]),
                      {"data": {"items": problems}})
    return products


def _refuse_short(session, items, id_warehouse: int, location: str, amounts: dict, products: dict) -> None:
    """409 naming the items whose (product, lot) the source location holds less of than the move takes."""
    there = placement.amounts_at(session, id_warehouse, {code for code, _ in amounts}, {location})
    short = {key for key, amount in amounts.items() if there.get((*key, location), 0) < amount}
    if not short:
        return
    warehouse = warehouse_words(session, id_warehouse)

    def text(key):
        code, lot = key
        values = {"product": product_words(products[code]["name"], code), "lot": lot_words(lot), "warehouse": warehouse,
                  "location": location, "amount": from_milli(max(there.get((*key, location), 0), 0)),
                  "wanted": from_milli(amounts[key])}
        if location:
            return say("Not enough stock of %(product)s, %(lot)s, in location %(location)s of %(warehouse)s: "
                       "%(amount)s there, %(wanted)s to move.", **values)
        return say("Not enough stock of %(product)s, %(lot)s, in the unplaced stock of %(warehouse)s: "
                   "%(amount)s there, %(wanted)s to move.", **values)

    fields = {str(index): {"amount": [text(key)]} for index, item in enumerate(items)
              if (key := (item["product_code"], item.get("lot", ""))) in short}
    raise InsufficientStock(say_count("%(count)s product/lot short. %(first)s", "%(count)s products/lots short. %(first)s",
                                      len(short), text="%(count)s product/lot(s) short. %(first)s",
                                      first=text(sorted(short)[0])), {"data": {"items": fields}})


def list_moves(session, caller: Caller, id_warehouse: int | None = None, since: date | None = None) -> list[dict]:
    """Moves oldest first, of a warehouse (from or to it) if given, since a day (UTC) if given;
    a caller limited to warehouses sees the moves that touch them."""
    query = select(Move).order_by(Move.created_at, Move.move_id)
    if id_warehouse is not None:
        query = query.where(or_(Move.from_warehouse == id_warehouse, Move.to_warehouse == id_warehouse))
    if caller.warehouses is not None:
        seen = sorted(caller.warehouses)
        query = query.where(or_(Move.from_warehouse.in_(seen), Move.to_warehouse.in_(seen)))
    if since is not None:
        query = query.where(Move.created_at >= datetime(since.year, since.month, since.day, tzinfo=timezone.utc))
    moves = list(session.scalars(query))
    ids = {m.out_document_id for m in moves} | {m.in_document_id for m in moves}
    numbers = dict(session.execute(select(WarehouseDocument.id, WarehouseDocument.doc_number)
                                   .where(WarehouseDocument.id.in_(sorted(ids - {0})))).all()) if ids - {0} else {}
    return [{"move_id": m.move_id, "source": {"id_warehouse": m.from_warehouse, "location": m.from_location},
             "target": {"id_warehouse": m.to_warehouse, "location": m.to_location}, "note": m.note,
             "items": json.loads(m.items), "created": utc_text(m.created_at), "posted_by": m.posted_by,
             "out_doc": numbers.get(m.out_document_id, 0), "in_doc": numbers.get(m.in_document_id, 0)}
            for m in moves]
