"""Tables of the warehouse.

Every quantity, weight and conversion factor is stored as an integer count of
thousandths (columns named *_milli): SQLite keeps Numeric as a binary float, and
a booking must never drift. stock/quantities.py converts at the edges.
"""
import datetime as dt
from typing import Optional

from sqlalchemy import BigInteger, ForeignKey, Index, String, Text, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from storage.db import UtcDateTime, db

# Text is compared and sorted by code point on both databases.
Code = String(200).with_variant(String(200, collation="C"), "postgresql")
LocationCode = String(30).with_variant(String(30, collation="C"), "postgresql")


class ApiKey(db.Model):
    __tablename__ = "api_keys"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(10))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # Comma-separated warehouse ids; empty means every warehouse.
    warehouses: Mapped[str] = mapped_column(String(500), default="")
    created_at: Mapped[dt.datetime]
    revoked_at: Mapped[Optional[dt.datetime]]
    expires_at: Mapped[Optional[dt.datetime]] = mapped_column(UtcDateTime)  # aware, UTC; None: never
    # When the key was last used and from where, to the minute (identity/api_keys.py UseNotes).
    last_used_at: Mapped[Optional[dt.datetime]] = mapped_column(UtcDateTime)
    last_used_from: Mapped[str] = mapped_column(String(100), default="", server_default="")


class Person(db.Model):
    """Office staff who sign in to the pages with a name and a password (DESIGN section 16)."""

    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    role: Mapped[str] = mapped_column(String(10))
    # Comma-separated warehouse ids; empty means every warehouse (as for keys).
    warehouses: Mapped[str] = mapped_column(String(500), default="")
    # werkzeug's "scrypt:n:r:p$salt$hash"; never the password.
    password_hash: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    password_changed_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    disabled_at: Mapped[Optional[dt.datetime]] = mapped_column(UtcDateTime)
    # The person's own language for the pages (DESIGN 29); "" follows the depot's.
    language: Mapped[str] = mapped_column(String(5), default="", server_default="")


class PageSession(db.Model):
    """A person signed in to the pages (DESIGN 26): the session cookie names one of these.

    Signing out, a password change and disabling the person delete the rows, so a copy of the
    cookie opens nothing afterwards. Only the hash of the cookie's token is kept.
    """

    __tablename__ = "page_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    started_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    # The last request, to the minute (identity/sessions.py): 12 hours without one end the session.
    seen_at: Mapped[dt.datetime] = mapped_column(UtcDateTime, index=True)
    address: Mapped[str] = mapped_column(String(100), default="")


class SigninFailure(db.Model):
    """A failed sign-in, kept in the database so that every process serving it counts alike."""

    __tablename__ = "signin_failures"
    __table_args__ = (Index("ix_signin_failures_address_at", "address", "at"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(100))
    at: Mapped[dt.datetime] = mapped_column(UtcDateTime, index=True)


class Warehouse(db.Model):
    """A warehouse of the depot (DESIGN 17): batches, orders and keys may name only these."""

    __tablename__ = "warehouses"
    id_warehouse: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(Code, unique=True)
    address: Mapped[str] = mapped_column(Text, default="")
    active: Mapped[int] = mapped_column(default=1)
    # The location goods-in without one go to (DESIGN 27); "" none: they stay unplaced.
    receiving_location: Mapped[str] = mapped_column(LocationCode, default="", server_default="")


class Product(db.Model):
    __tablename__ = "products"
    product_code: Mapped[str] = mapped_column(Code, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    active: Mapped[int] = mapped_column(default=1)
    base_unit: Mapped[str] = mapped_column(Code)
    base_unit_barcode: Mapped[str] = mapped_column(Code, default="", index=True)
    category: Mapped[int] = mapped_column(default=0)
    lot_level: Mapped[int] = mapped_column(default=0)
    weight_brutto_milli: Mapped[int] = mapped_column(BigInteger, default=0)
    weight_netto_milli: Mapped[int] = mapped_column(BigInteger, default=0)
    weight_unit: Mapped[str] = mapped_column(String(20), default="kg")
    # How many decimal places an amount in the base unit may have (0: whole pieces).
    decimal_places: Mapped[int] = mapped_column(default=3)
    packaging: Mapped[list["Packaging"]] = relationship(
        order_by="Packaging.position", cascade="all, delete-orphan", lazy="selectin"
    )


class Packaging(db.Model):
    __tablename__ = "packaging"
    __table_args__ = (UniqueConstraint("product_code", "unit"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"))
    position: Mapped[int]
    unit: Mapped[str] = mapped_column(Code)
    amount_base_units_milli: Mapped[int] = mapped_column(BigInteger)
    barcode: Mapped[str] = mapped_column(Code, default="", index=True)


class Customer(db.Model):
    __tablename__ = "customers"
    id_customer: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(Text, default="")
    registration_number: Mapped[str] = mapped_column(Text, default="")
    tax_id: Mapped[str] = mapped_column(Text, default="")
    vat_number: Mapped[str] = mapped_column(Text, default="")
    street: Mapped[str] = mapped_column(Text, default="")
    city: Mapped[str] = mapped_column(Text, default="")
    zip: Mapped[str] = mapped_column(Text, default="")
    country: Mapped[str] = mapped_column(Text, default="")


class OrderDocument(db.Model):
    """An order imported by the office: what should be received or shipped."""

    __tablename__ = "order_documents"
    document_number: Mapped[str] = mapped_column(Code, primary_key=True)
    description: Mapped[str] = mapped_column(Text, default="")
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    id_customer: Mapped[int] = mapped_column(BigInteger, default=0)
    expiration_limit: Mapped[int] = mapped_column(default=0)
    allowed_types: Mapped[str] = mapped_column(String(10))  # e.g. "R,V"
    allowed_directions: Mapped[str] = mapped_column(String(10))  # e.g. "I,O"
    # 0 closed, 1 imported, 2 being processed, 3 batch exists.
    state: Mapped[int] = mapped_column(default=1, index=True)
    locked_by: Mapped[Optional[int]] = mapped_column(ForeignKey("api_keys.id"))
    locked_at: Mapped[Optional[dt.datetime]] = mapped_column(UtcDateTime)  # aware, UTC
    items: Mapped[list["OrderItem"]] = relationship(
        order_by="OrderItem.item_number", cascade="all, delete-orphan", lazy="selectin"
    )


class OrderItem(db.Model):
    __tablename__ = "order_items"
    __table_args__ = (UniqueConstraint("document_number", "item_number"),)
    document_item_id: Mapped[int] = mapped_column(primary_key=True)
    document_number: Mapped[str] = mapped_column(ForeignKey("order_documents.document_number"))
    item_number: Mapped[int] = mapped_column(BigInteger)
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"))
    lot: Mapped[str] = mapped_column(Code, default="")
    amount_ordered_milli: Mapped[int] = mapped_column(BigInteger)
    amount_delivered_milli: Mapped[int] = mapped_column(BigInteger, default=0)
    direction: Mapped[str] = mapped_column(String(1))
    wplace: Mapped[str] = mapped_column(Text, default="[]")  # JSON array of strings
    note: Mapped[str] = mapped_column(Text, default="")


class Batch(db.Model):
    """What a scanner reported: a movement (type R) or a count (type V)."""

    __tablename__ = "batches"
    __table_args__ = (Index("ix_batches_warehouse_date", "id_warehouse", "date"),)
    batch_number: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    direction: Mapped[str] = mapped_column(String(1))
    type: Mapped[str] = mapped_column(String(1))
    date: Mapped[dt.date]
    created_date: Mapped[dt.date]
    app_version: Mapped[str] = mapped_column(Text, default="")
    name: Mapped[str] = mapped_column(Text, default="")
    truck: Mapped[int] = mapped_column(BigInteger, default=0)
    document_number: Mapped[str] = mapped_column(Code, default="", index=True)
    # Digest of the parsed request: a retry with the same digest books nothing.
    content_digest: Mapped[str] = mapped_column(String(64))
    # The key that posted it and the client address it came from ("" for batches from before).
    posted_by: Mapped[str] = mapped_column(String(100), default="", server_default="")
    posted_from: Mapped[str] = mapped_column(String(100), default="", server_default="")


class BatchNumberBlock(db.Model):
    """Batch numbers reserved for one key (DESIGN 25): a scanner that books offline numbers its
    batches from its own blocks, so no other scanner can take a waiting batch's number."""

    __tablename__ = "batch_number_blocks"
    id: Mapped[int] = mapped_column(primary_key=True)
    key_id: Mapped[int] = mapped_column(ForeignKey("api_keys.id"), index=True)
    # The block's numbers, both ends included; blocks never overlap, and each lies above every
    # batch number used when it was reserved. Looked up by `first` (the block a number falls in).
    first: Mapped[int] = mapped_column(BigInteger, unique=True)
    last: Mapped[int] = mapped_column(BigInteger)
    reserved_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)


class BatchItem(db.Model):
    __tablename__ = "batch_items"
    __table_args__ = (Index("ix_batch_items_batch", "batch_number", "position"),)
    id_batch_item: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    batch_number: Mapped[int] = mapped_column(ForeignKey("batches.batch_number"))
    position: Mapped[int]  # user_visible_batch_item_id
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"))
    unit: Mapped[str] = mapped_column(Code)
    amount_milli: Mapped[int] = mapped_column(BigInteger)
    amount_base_milli: Mapped[int] = mapped_column(BigInteger)
    barcode: Mapped[str] = mapped_column(Text, default="")
    date_exp: Mapped[str] = mapped_column(String(10), default="")
    lot: Mapped[str] = mapped_column(Code, default="")
    name: Mapped[str] = mapped_column(Text, default="")
    palette: Mapped[int] = mapped_column(BigInteger, default=0)
    status: Mapped[int] = mapped_column(BigInteger, default=0)
    timestamp_client: Mapped[str] = mapped_column(String(40), default="")
    wplace: Mapped[str] = mapped_column(Text, default="")
    # The line of its warehouse document (position on a type R batch, 0 on a count); the
    # document's doc_number is read through the document of the batch (records.py).
    doc_item_number: Mapped[int] = mapped_column(default=0)


class BatchExtra(db.Model):
    __tablename__ = "batch_extras"
    id: Mapped[int] = mapped_column(primary_key=True)
    batch_number: Mapped[int] = mapped_column(ForeignKey("batches.batch_number"), index=True)
    position: Mapped[int]
    key: Mapped[str] = mapped_column(Text)
    value: Mapped[str] = mapped_column(Text)


class WarehouseDocument(db.Model):
    """A goods-in (I) or goods-out (O) document: the booking itself.

    `id` is internal: the document's lines and its stocktaking refer to it. The numbers
    people see, doc_number and ufid, are given as the last step of the booking, just before
    its commit (stock/balances.py number_documents); they are NULL only inside that booking.
    """

    __tablename__ = "warehouse_documents"
    __table_args__ = (
        Index("ix_documents_warehouse_date", "id_warehouse", "date"),
        # The latest document of a warehouse and direction, one step down (the overview).
        Index("ix_documents_latest", "id_warehouse", "direction", "date", "doc_number"),
        # Documents by business date; with the direction in it the monthly overview reads
        # nothing but this index.
        Index("ix_documents_date_direction", "date", "direction"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    doc_number: Mapped[Optional[int]] = mapped_column(BigInteger, unique=True)
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    direction: Mapped[str] = mapped_column(String(1))
    date: Mapped[dt.date]
    doc_created_date: Mapped[dt.date]
    id_customer: Mapped[int] = mapped_column(BigInteger, default=0)
    batch_number: Mapped[int] = mapped_column(BigInteger, default=-1, index=True)
    ufid: Mapped[Optional[str]] = mapped_column(String(20), unique=True)


class WarehouseDocumentItem(db.Model):
    """One line of a warehouse document; also the movement history.

    Warehouse, direction and date are copied from the document so that the
    movements filter is one index range scan, however long the history.
    """

    __tablename__ = "warehouse_document_items"
    __table_args__ = (
        UniqueConstraint("document_id", "item_number"),
        Index("ix_movements_warehouse_date", "id_warehouse", "date", "document_id", "item_number"),
        Index("ix_movements_date", "date", "document_id", "item_number"),
        # One product's history, newest first (the product's page), however long the depot's.
        Index("ix_movements_product", "product_code", "document_id", "item_number"),
        # One lot's story (stock/lot_story.py): every line of a lot, however long the product's history.
        Index("ix_movements_lot", "product_code", "lot", "document_id"),
    )
    id: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("warehouse_documents.id"))
    item_number: Mapped[int]
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    direction: Mapped[str] = mapped_column(String(1))
    date: Mapped[dt.date]
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"))
    name: Mapped[str] = mapped_column(Text, default="")
    lot: Mapped[str] = mapped_column(Code, default="")
    date_exp: Mapped[str] = mapped_column(String(10), default="")
    amount_base_milli: Mapped[int] = mapped_column(BigInteger)  # positive; direction gives the sign
    doc_created_date: Mapped[dt.date]
    timestamp_from_client: Mapped[str] = mapped_column(String(40), default="")


class Balance(db.Model):
    """Book stock of one (warehouse, product, lot), kept in step with every posting."""

    __tablename__ = "balances"
    # What is in stock (or below zero), without the rows of every lot ever held that went to
    # zero: the alerts (stock/alerts.py) read these few, however long the depot's history.
    # The lots in stock that have a best-before, in the order the alerts list them: the count of
    # lots past their best-before is a range of this index alone, however many there are
    # (a depot that never wrote its old lots off holds a hundred thousand and more).
    __table_args__ = (Index("ix_balances_held", "id_warehouse", "product_code", "lot",
                            sqlite_where=text("amount_milli != 0"), postgresql_where=text("amount_milli != 0")),
                      Index("ix_balances_best_before", "best_before", "id_warehouse", "product_code", "lot", "amount_milli",
                            sqlite_where=text("amount_milli > 0 AND best_before != ''"),
                            postgresql_where=text("amount_milli > 0 AND best_before != ''")))
    id_warehouse: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"), primary_key=True)
    lot: Mapped[str] = mapped_column(Code, primary_key=True)
    amount_milli: Mapped[int] = mapped_column(BigInteger, default=0)
    # The lot's best-before (BestBefore.date_exp; "" none), kept beside its stock by every booking
    # (stock/balances.py) so that the alerts need no join to find lots past it.
    best_before: Mapped[str] = mapped_column(String(10), default="", server_default="")


class Location(db.Model):
    """A place inside a warehouse (a shelf, a bin, a quarantine corner: DESIGN 27).

    `code_key` is the code in capitals: codes are unique in a warehouse whatever their case, and a
    scanner that sends "a-2" means "A-2". `sort_key` is the code's natural order ("A-2" before
    "A-10"), written once here so that the walking order is an ORDER BY of the database.
    """

    __tablename__ = "locations"
    __table_args__ = (UniqueConstraint("id_warehouse", "code_key", name="uq_locations_code_key"),)
    id_warehouse: Mapped[int] = mapped_column(ForeignKey("warehouses.id_warehouse"), primary_key=True,
                                              autoincrement=False)
    code: Mapped[str] = mapped_column(LocationCode, primary_key=True)
    code_key: Mapped[str] = mapped_column(LocationCode)
    sort_key: Mapped[str] = mapped_column(String(100).with_variant(String(100, collation="C"), "postgresql"))
    name: Mapped[str] = mapped_column(Text, default="")
    sequence: Mapped[int] = mapped_column(BigInteger, default=0)  # the walking order; ties go by sort_key
    hold: Mapped[int] = mapped_column(default=0)  # 1: not available to pick
    active: Mapped[int] = mapped_column(default=1)


class LocationBalance(db.Model):
    """Book stock of one (warehouse, product, lot) at one location; location "" is unplaced.

    Written by the same function as the balance (stock/balances.py change_balances through
    stock/placement.py), in the same transaction: the rows of a (warehouse, product, lot) always
    add up to its balance (`flask check`).
    """

    __tablename__ = "location_balances"
    __table_args__ = (Index("ix_location_balances_place", "id_warehouse", "location", "product_code", "lot"),)
    id_warehouse: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"), primary_key=True)
    lot: Mapped[str] = mapped_column(Code, primary_key=True)
    location: Mapped[str] = mapped_column(LocationCode, primary_key=True)
    amount_milli: Mapped[int] = mapped_column(BigInteger, default=0)


class Move(db.Model):
    """A move of stock between locations or warehouses (DESIGN 27), kept for retries and the list.

    `content_digest` makes a retry of the same `move_id` safe, as a batch's does. A move between
    warehouses names its two documents (internal ids; 0 within a warehouse).
    """

    __tablename__ = "moves"
    move_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    from_warehouse: Mapped[int] = mapped_column(BigInteger, index=True)
    from_location: Mapped[str] = mapped_column(LocationCode, default="")
    to_warehouse: Mapped[int] = mapped_column(BigInteger, index=True)
    to_location: Mapped[str] = mapped_column(LocationCode, default="")
    note: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    posted_by: Mapped[str] = mapped_column(String(100), default="")
    content_digest: Mapped[str] = mapped_column(String(64))
    out_document_id: Mapped[int] = mapped_column(BigInteger, default=0)
    in_document_id: Mapped[int] = mapped_column(BigInteger, default=0)
    items: Mapped[str] = mapped_column(Text)  # JSON: [{product_code, lot, amount_milli}]


class MoveItem(db.Model):
    """A line of a move (its `items`), one row each, written with the move: a lot's moves are
    found through the (product, lot) index (stock/lot_story.py) instead of by reading the lines
    of every move ever made."""

    __tablename__ = "move_items"
    __table_args__ = (Index("ix_move_items_lot", "product_code", "lot"),)
    move_id: Mapped[str] = mapped_column(ForeignKey("moves.move_id"), primary_key=True)
    line: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)  # its place in `items`, from 1
    product_code: Mapped[str] = mapped_column(Code)
    lot: Mapped[str] = mapped_column(Code)
    amount_milli: Mapped[int] = mapped_column(BigInteger)


class WriteOff(db.Model):
    """Stock that left for a reason, not to a customer (DESIGN 28): the goods-out document it was
    booked as, and why. The document is an ordinary one (the seed's figures read it as goods-out);
    this row is what marks it as a write-off."""

    __tablename__ = "write_offs"
    __table_args__ = (Index("ix_write_offs_warehouse_date", "id_warehouse", "date"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    # The client's id (a UUID): a retry with the same content books nothing more.
    write_off_id: Mapped[str] = mapped_column(String(100), unique=True)
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(20))
    note: Mapped[str] = mapped_column(Text, default="")
    date: Mapped[dt.date]
    document_id: Mapped[int] = mapped_column(ForeignKey("warehouse_documents.id"), unique=True)
    content_digest: Mapped[str] = mapped_column(String(64))
    posted_by: Mapped[str] = mapped_column(String(100), default="")
    posted_from: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)


class CustomerReturn(db.Model):
    """Goods a customer sent back against a delivered order (DESIGN 28): the goods-in document of
    the order's warehouse it was booked as, the order it names, and why. The order's delivered
    amounts stay as delivered."""

    __tablename__ = "returns"
    id: Mapped[int] = mapped_column(primary_key=True)
    return_id: Mapped[str] = mapped_column(String(100), unique=True)  # the client's id, as write_off_id
    document_number: Mapped[str] = mapped_column(ForeignKey("order_documents.document_number"), index=True)
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text)
    # Where it was put (DESIGN 27); "" unplaced, the only place until the warehouse has locations.
    location: Mapped[str] = mapped_column(String(30), default="")
    date: Mapped[dt.date]
    document_id: Mapped[int] = mapped_column(ForeignKey("warehouse_documents.id"), unique=True)
    content_digest: Mapped[str] = mapped_column(String(64))
    posted_by: Mapped[str] = mapped_column(String(100), default="")
    posted_from: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)


class Stocktaking(db.Model):
    __tablename__ = "stocktakings"
    id_warehouse: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    date: Mapped[dt.date] = mapped_column(primary_key=True)
    status: Mapped[int] = mapped_column(default=1)
    # The internal ids (WarehouseDocument.id) of its adjustment documents; 0 while there is none.
    in_document_id: Mapped[int] = mapped_column(BigInteger, default=0)
    out_document_id: Mapped[int] = mapped_column(BigInteger, default=0)


class StocktakingItem(db.Model):
    __tablename__ = "stocktaking_items"
    __table_args__ = (
        UniqueConstraint("id_warehouse", "date", "product_code", "lot"),
        db.ForeignKeyConstraint(
            ["id_warehouse", "date"], ["stocktakings.id_warehouse", "stocktakings.date"]
        ),
    )
    id: Mapped[int] = mapped_column(primary_key=True)
    id_warehouse: Mapped[int] = mapped_column(BigInteger)
    date: Mapped[dt.date]
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"))
    lot: Mapped[str] = mapped_column(Code, default="")
    date_exp: Mapped[str] = mapped_column(String(10), default="")
    name: Mapped[str] = mapped_column(Text, default="")
    amount_real_milli: Mapped[int] = mapped_column(BigInteger)
    amount_snap_milli: Mapped[int] = mapped_column(BigInteger)


class Counter(db.Model):
    """Sequences that must never hand out a number twice (doc numbers, ufids)."""

    __tablename__ = "counters"
    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)


class ServiceSetting(db.Model):
    """Values the service makes for itself once and keeps, such as the page sessions' secret."""

    __tablename__ = "service_settings"
    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class AuditEntry(db.Model):
    """One change that is not a booking: when, who, from where, what and how (DESIGN section 16).

    Written in the transaction of the change it records; the service never updates or deletes one.
    """

    __tablename__ = "audit_trail"
    __table_args__ = (Index("ix_audit_trail_kind_id", "kind", "id"), Index("ix_audit_trail_who_id", "who", "id"))
    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    who: Mapped[str] = mapped_column(String(200))
    # "person", "key" or "cli" (stock/audit.py Actor); "" where it is not known.
    who_kind: Mapped[str] = mapped_column(String(10), default="", server_default="")
    # "from" in the API: the client address, or "cli" for a command on the depot's PC.
    address: Mapped[str] = mapped_column(String(100))
    kind: Mapped[str] = mapped_column(String(50))
    record: Mapped[str] = mapped_column(Text, default="")
    # JSON: {field: [before, after]}
    changes: Mapped[str] = mapped_column(Text, default="{}")
    # The warehouses the change concerns (stock/audit.py reach_text): "*" every one, "" none in
    # particular, "1,2" those. An admin limited to warehouses reads the rows within its own.
    warehouses: Mapped[str] = mapped_column(String(500), default="*", server_default="*")


class ImportColumn(db.Model):
    """A column of the office's own files and the column of a kind it holds ("" ignored), kept
    from the import page's mapping step for the next file of that kind (DESIGN section 19)."""

    __tablename__ = "import_columns"
    kind: Mapped[str] = mapped_column(String(30), primary_key=True)
    header: Mapped[str] = mapped_column(Code, primary_key=True)  # as in the file, trimmed, lower case
    field: Mapped[str] = mapped_column(String(100))


class ReorderLevel(db.Model):
    """When to reorder a product in a warehouse: below `min`, up to `target` (DESIGN section 20)."""

    __tablename__ = "reorder_levels"
    id_warehouse: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"), primary_key=True)
    min_amount_milli: Mapped[int] = mapped_column(BigInteger)
    target_amount_milli: Mapped[int] = mapped_column(BigInteger)
    # 1 while the stock is below min and its stock.low event was written: one event per fall.
    low_notified: Mapped[int] = mapped_column(default=0)


class BestBefore(db.Model):
    """The earliest non-empty date_exp booked for a (product, lot) on a goods-in, kept by every booking."""

    __tablename__ = "best_before"
    product_code: Mapped[str] = mapped_column(ForeignKey("products.product_code"), primary_key=True)
    lot: Mapped[str] = mapped_column(Code, primary_key=True)
    date_exp: Mapped[str] = mapped_column(String(10), index=True)
    # The date_exp whose lot.expiring event was written ("" none yet): one event per entry to the window.
    expiring_notified: Mapped[str] = mapped_column(String(10), default="")


class Webhook(db.Model):
    """A receiver of events: its address, the events it wants, and the secret that signs them."""

    __tablename__ = "webhooks"
    id: Mapped[int] = mapped_column(primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    events: Mapped[str] = mapped_column(Text)  # comma-separated event names
    secret: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    # Comma-separated warehouse ids whose events it gets; empty means every warehouse (as for keys).
    warehouses: Mapped[str] = mapped_column(String(500), default="", server_default="")


class OutboxEvent(db.Model):
    """An event written in the transaction of what caused it; the sender fans it out after the commit."""

    __tablename__ = "outbox_events"
    id: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    event: Mapped[str] = mapped_column(String(50))
    created: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    data: Mapped[str] = mapped_column(Text)  # JSON
    # 0 until the sender has made a delivery of it for every webhook that wants it.
    fanned_out: Mapped[int] = mapped_column(default=0, index=True)


class WebhookDelivery(db.Model):
    """One event to one webhook: pending until answered 2xx (delivered) or given up (failed)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (Index("ix_webhook_deliveries_queue", "webhook_id", "state", "event_id"),)
    id: Mapped[int] = mapped_column(BigInteger().with_variant(db.Integer, "sqlite"), primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id"))
    event_id: Mapped[int] = mapped_column(ForeignKey("outbox_events.id"), index=True)
    state: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(default=0)
    next_at: Mapped[dt.datetime] = mapped_column(UtcDateTime)
    last_at: Mapped[Optional[dt.datetime]] = mapped_column(UtcDateTime)
    last_status: Mapped[int] = mapped_column(default=0)  # HTTP status; 0 none yet or no answer
    last_answer: Mapped[str] = mapped_column(Text, default="")


class Lease(db.Model):
    """Who runs the background work: one process at a time, until `expires` unless renewed."""

    __tablename__ = "leases"
    name: Mapped[str] = mapped_column(String(50), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires: Mapped[dt.datetime] = mapped_column(UtcDateTime)
