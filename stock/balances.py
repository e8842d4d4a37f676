"""Book stock and warehouse documents: the balances every booking changes, and document numbering.

Called inside a transaction the caller opened (storage.db.writing); nothing here commits.
"""
from datetime import date

from sqlalchemy import BigInteger, Date, String, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from models import (Balance, BatchItem, BestBefore, Counter, Product, Warehouse, WarehouseDocument,
                    WarehouseDocumentItem)
from stock import placement
from stock.errors import InsufficientStock, say, say_count
from stock.naming import lot_words, product_names, warehouse_words
from stock.policy import Policy
from stock.quantities import from_milli
from storage.db import before_commit, insert_rows, notes_of, upsert_tuples


def next_number(session, name: str) -> int:
    """The next value of a sequence, in one statement that locks its row.

    The row stays locked until the transaction ends: no two transactions get one
    number, and one that rolls back takes its number with it (no gap). Every other
    transaction that numbers waits meanwhile, in every warehouse: so only
    number_documents calls it, as the last step before the commit (db.writing,
    lock order 4). "doc_number" is always taken first, so only its holder ever
    waits for a ufid row: no deadlock.
    """
    connection = session.connection()
    return connection.execute(_NEXT_NUMBER[connection.dialect.name], {"name": name}).scalar_one()


_NEXT_NUMBER = {  # by dialect: the upsert is written in each one's own words
    dialect: insert_of(Counter).values(name=bindparam("name"), value=1)
    .on_conflict_do_update(index_elements=[Counter.name], set_={"value": Counter.value + 1})
    .returning(Counter.value)
    for dialect, insert_of in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
}

# The transaction's note (db.notes_of): the documents it opened and has not numbered yet, in order.
_UNNUMBERED = "warehouse_unnumbered_documents"
# {document id: doc_number} of the documents this transaction numbered (its events carry them).
NUMBERED = "warehouse_numbered_documents"


def new_document(session, id_warehouse: int, direction: str, day: date, created: date,
                 id_customer: int = 0, batch_number: int = -1) -> int:
    """Open a warehouse document; its internal id, which its lines refer to.

    It gets its doc_number and ufid only at the end of the booking (number_documents,
    which db.writing runs just before the commit), so a long booking holds up no other
    warehouse while it writes its lines. `day` is the business date; `created` the
    server's day, read once by the booking, so that a booking under way at midnight
    dates its document and every line alike."""
    document_id = session.connection().execute(_OPEN_DOCUMENT, dict(
        id_warehouse=id_warehouse, direction=direction, date=day, doc_created_date=created,
        id_customer=id_customer, batch_number=batch_number)).scalar_one()
    notes_of(session).setdefault(_UNNUMBERED, []).append((document_id, direction, day.year))
    before_commit(session, number_documents)
    return document_id


_OPEN_DOCUMENT = insert(WarehouseDocument).returning(WarehouseDocument.id)


def number_documents(session) -> None:
    """Give the documents this transaction opened their doc_number and ufid, in the order opened.

    The last step of a booking: the counters' rows stay locked from here to the commit
    (next_number), so the numbers follow the order of the commits and a booking that
    fails after this step takes its numbers back with it (no gap).
    """
    opened = notes_of(session).pop(_UNNUMBERED, None)
    if not opened:
        return
    session.flush()  # every other change first: from here to the commit every booking waits
    connection = session.connection()
    given = notes_of(session).setdefault(NUMBERED, {})
    for document_id, direction, year in opened:
        doc_number = next_number(session, "doc_number")
        given[document_id] = doc_number
        serial = next_number(session, f"ufid:{direction}:{year}")
        numbered = connection.execute(_NUMBER_DOCUMENT, {
            "document_id": document_id, "number": doc_number, "serial": f"{direction}-{year}-{serial:06d}"})
        if numbered.rowcount != 1:
            # A document opened and removed in one booking would leave a gap: never done.
            raise RuntimeError(f"Document {document_id} was removed before it was numbered.")


_NUMBER_DOCUMENT = (update(WarehouseDocument).where(WarehouseDocument.id == bindparam("document_id"))
                    .values(doc_number=bindparam("number"), ufid=bindparam("serial")))


def add_document_items(session, document_id: int, id_warehouse: int, direction: str, day: date,
                       created: date, lines: list[dict]) -> None:
    """Write a document's lines (product_code, name, lot, date_exp, amount_base_milli, ...)."""
    if direction == "I":
        keep_best_before(session, lines)
    insert_rows(session, WarehouseDocumentItem.__table__, [{
        "document_id": document_id, "item_number": number, "id_warehouse": id_warehouse,
        "direction": direction, "date": day, "doc_created_date": created,
        "timestamp_from_client": "", "date_exp": "", **line,
    } for number, line in enumerate(lines, start=1)])


def add_document_lines_of_batch(session, document_id: int, id_warehouse: int, direction: str, day: date,
                                created: date, batch_number: int) -> None:
    """Write a goods document's lines from the batch items just written, line n from item n.

    One statement in the database: a scanner's thousand lines never pass through Python twice.
    """
    session.connection().execute(_LINES_OF_BATCH, {
        "document_id": document_id, "id_warehouse": id_warehouse, "direction": direction, "day": day,
        "created": created, "batch_number": batch_number})


_LINES_OF_BATCH = insert(WarehouseDocumentItem.__table__).from_select(
    ["document_id", "item_number", "id_warehouse", "direction", "date", "doc_created_date",
     "product_code", "name", "lot", "date_exp", "amount_base_milli", "timestamp_from_client"],
    select(bindparam("document_id", type_=BigInteger), BatchItem.position,
           bindparam("id_warehouse", type_=BigInteger), bindparam("direction", type_=String),
           bindparam("day", type_=Date), bindparam("created", type_=Date),
           BatchItem.product_code, Product.name, BatchItem.lot, BatchItem.date_exp,
           BatchItem.amount_base_milli, BatchItem.timestamp_client)
    .join(Product, Product.product_code == BatchItem.product_code)
    .where(BatchItem.batch_number == bindparam("batch_number"))
    .order_by(BatchItem.position))


def balances_of(session, id_warehouse: int, keys) -> dict[tuple[str, str], int]:
    rows = session.connection().execute(_BALANCES_OF, {
        "id_warehouse": id_warehouse, "codes": list({code for code, _ in keys})}).all()  # one fetch, not one a row
    return {(code, lot): amount for code, lot, amount in rows}


_BALANCES_OF = (select(Balance.product_code, Balance.lot, Balance.amount_milli)
                .where(Balance.id_warehouse == bindparam("id_warehouse"),
                       Balance.product_code.in_(bindparam("codes", expanding=True))))


def change_balances(session, id_warehouse: int, deltas: dict[tuple[str, str], int],
                    policy: Policy, items: list[dict] | None = None,
                    received: dict[tuple[str, str], str] | None = None,
                    placed: dict[tuple[str, str, str], int] | None = None,
                    gains_to: str | None = placement.UNPLACED,
                    item_places: list[str | None] | None = None) -> None:
    """Add the signed deltas to the book stock; refuse to go below zero unless allowed.

    The check sums every line of one booking per (product, lot), so two lines
    of one batch cannot each pass against the same stock. `received`: the best-before this
    booking receives per (product, lot), where it receives one (keep_best_before keeps it next).
    The stock per location changes with it (stock/placement.py place): `placed` the part booked
    at named locations, `gains_to` where the rest of a gain goes, `item_places` each item's location.
    """
    deltas = {key: delta for key, delta in deltas.items() if delta}
    if not deltas and not placed:
        return
    current = balances_of(session, id_warehouse, deltas) if deltas else {}
    new = {key: current.get(key, 0) + delta for key, delta in sorted(deltas.items())}
    short = {key: amount for key, amount in new.items() if amount < 0 and deltas[key] < 0}
    if short and not policy.allow_negative_stock:
        raise _short_error(session, id_warehouse, short, current, items)
    if new:
        _write_balances(session, id_warehouse, new, received or {})
    placement.place(session, id_warehouse, deltas, new, policy, placed, gains_to, items, item_places)


def _short_error(session, id_warehouse, short, current, items) -> InsufficientStock:
    products = product_names(session, {code for code, _ in short})
    where = warehouse_words(session, id_warehouse)

    def text(key):
        return say("Not enough stock of %(product)s, %(lot)s, in %(warehouse)s: %(amount)s in stock, short by "
                   "%(short)s.", product=products[key[0]], lot=lot_words(key[1]), warehouse=where,
                   amount=from_milli(current.get(key, 0)), short=from_milli(-short[key]))

    fields = {}
    if items is not None:
        fields = {"data": {"batch_items": {
            index: {"amount": [text(key)]} for index, item in enumerate(items)
            if (key := (item["product_code"], item.get("lot", ""))) in short}}}
    first = text(next(iter(short)))
    return InsufficientStock(say_count("%(count)s product/lot short. %(first)s", "%(count)s products/lots short. %(first)s",
                                       len(short), text="%(count)s product/lot(s) short. %(first)s", first=first),
                             fields)


def _write_balances(session, id_warehouse: int, amounts: dict[tuple[str, str], int],
                    received: dict[tuple[str, str], str]) -> None:
    # Each balance carries its lot's best-before (the alerts' index); a lot received here for the
    # first time gets it from keep_best_before, which runs after this in the same booking.
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    table = quote(BestBefore.__tablename__)
    dated = _kept_best_before(connection, table, mark, sorted(amounts))
    new = [key for key in sorted(amounts) if key not in dated]
    if new and connection.dialect.name == "postgresql":
        _wait_for_first_best_before(connection, new, received)
        dated.update(_kept_best_before(connection, table, mark, new))
    upsert_tuples(session, Balance.__table__, ["id_warehouse", "product_code", "lot", "amount_milli", "best_before"],
                  ["id_warehouse", "product_code", "lot"],
                  [(id_warehouse, code, lot, amount, dated.get((code, lot), ""))
                   for (code, lot), amount in amounts.items()])


def _wait_for_first_best_before(connection, new: list[tuple[str, str]], received: dict) -> None:
    """PostgreSQL: wait for a booking in another warehouse that is giving one of these lots its
    first best-before, and make such a booking wait for this one.

    A lot's best-before is copied into its balance in every warehouse: from the lot's row when
    the balance is written, and by keep_best_before into the balances already there when the row
    is first written. Two warehouses booking a new lot at once, one with its date and one without,
    would each miss the other's uncommitted work: the second balance kept no date until its next
    booking. Each such pair (product, lot) without a row is locked for the transaction before its
    balance is written: exclusively by a booking that receives its date, shared by any other, so
    that bookings of dateless goods never wait for each other. Then the row is read again. The
    locks are taken in one order (the statement's ORDER BY, which PostgreSQL applies before it
    evaluates volatile output such as a lock), in a space of their own beside the writers' locks
    (storage/db.py), and after them: no two bookings wait for each other in a circle. SQLite has
    one writer at a time: there is nothing to wait for.
    """
    space = "hashtext(current_schema() || ':best_before')"
    rows = ", ".join(["(%s, %s, %s)"] * len(new))
    connection.exec_driver_sql(
        f"SELECT CASE WHEN first THEN pg_advisory_xact_lock({space}, k) "
        f"ELSE pg_advisory_xact_lock_shared({space}, k) END FROM ("
        f"SELECT hashtext(product_code || chr(31) || lot) AS k, bool_or(first) AS first "
        f"FROM (VALUES {rows}) AS pairs (product_code, lot, first) GROUP BY 1) AS wanted ORDER BY k",
        tuple(value for code, lot in new for value in (code, lot, bool(received.get((code, lot)))))).all()


def keep_best_before(session, lines) -> None:
    """Received lines (product_code, lot, date_exp): each (product, lot) keeps its earliest best-before.

    Kept here, in the booking's transaction, so that the alerts and the pick list read one row per
    lot instead of the goods-in history. Lines without a date change nothing.

    Only a lot that is new, or whose date comes earlier, is written: the rows are shared by every
    warehouse, and on PostgreSQL a row written stays locked until the commit, so writing each
    one again would make depots that receive the same products book one after another.
    A date read here can only move earlier meanwhile, so a row left alone stays right.
    """
    earliest: dict[tuple[str, str], str] = {}
    for line in lines:
        day = line.get("date_exp") or ""
        if day:
            key = (line["product_code"], line.get("lot", ""))
            if key not in earliest or day < earliest[key]:
                earliest[key] = day
    if not earliest:
        return
    connection = session.connection()
    quote = connection.dialect.identifier_preparer.quote
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    table = quote(BestBefore.__tablename__)
    kept = _kept_best_before(connection, table, mark, sorted(earliest))
    changed = sorted((key, day) for key, day in earliest.items() if key not in kept or day < kept[key])
    if not changed:
        return
    # CASE rather than MIN()/LEAST(): the one spelling both databases read alike.
    connection.exec_driver_sql(
        f"INSERT INTO {table} (product_code, lot, date_exp, expiring_notified) VALUES ({mark}, {mark}, {mark}, '') "
        f"ON CONFLICT (product_code, lot) DO UPDATE SET date_exp = CASE WHEN excluded.date_exp < {table}.date_exp "
        f"THEN excluded.date_exp ELSE {table}.date_exp END",
        [(code, lot, day) for (code, lot), day in changed])
    # The lot's stock in every warehouse carries the date too (Balance.best_before), as the row
    # holds it now: on PostgreSQL another booking may have given the lot an earlier date, which
    # the upsert above waited for and kept. The key of balances begins with the warehouse:
    # naming each warehouse makes every row one look-up of the key, where product and lot alone
    # would read the whole table. Bookings name only warehouses of that table, and the upgrade
    # that made it declared every warehouse the data used (migration b21a0de90001).
    balances, warehouses = quote(Balance.__tablename__), quote(Warehouse.__tablename__)
    kept_date = (f"(SELECT date_exp FROM {table} WHERE {table}.product_code = {balances}.product_code "
                 f"AND {table}.lot = {balances}.lot)")
    connection.exec_driver_sql(
        f"UPDATE {balances} SET best_before = {kept_date} WHERE id_warehouse IN (SELECT id_warehouse FROM {warehouses}) "
        f"AND product_code = {mark} AND lot = {mark} AND best_before != {kept_date}",
        [(code, lot) for (code, lot), _ in changed])


def _kept_best_before(connection, table: str, mark: str, received: list[tuple[str, str]]) -> dict:
    """{(product, lot): date_exp} of the received pairs that have a row.

    The pairs only, each one look-up of the key: a product received daily has a row for every
    lot it ever had, and reading all of them made each goods-in slower with every year of
    history. A join on VALUES because SQLite reads a row-value IN list by scanning the whole
    table; in parts, to stay under SQLite's parameter limit.
    """
    kept = {}
    for start in range(0, len(received), _PAIRS_A_READ):
        part = received[start:start + _PAIRS_A_READ]
        kept.update(((code, lot), day) for code, lot, day in connection.exec_driver_sql(
            f"WITH received (product_code, lot) AS (VALUES {', '.join([f'({mark}, {mark})'] * len(part))}) "
            f"SELECT b.product_code, b.lot, b.date_exp FROM received JOIN {table} b "
            f"ON b.product_code = received.product_code AND b.lot = received.lot",
            tuple(value for pair in part for value in pair)))
    return kept


_PAIRS_A_READ = 400  # two parameters a pair: under 999, the limit of SQLite before 3.32
