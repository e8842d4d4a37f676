"""Products and customers: the master data every booking refers to."""
from contextlib import closing

from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError

from models import Balance, Customer, Packaging, Product
from stock import audit
from stock.audit import Actor
from stock.caller import SHARED
from stock.errors import Conflict, Invalid, NotFound, ServiceError, say, say_count
from stock.naming import product_names
from stock.quantities import from_milli
from stock.text_search import ascii_lower, folded_column
from storage.db import reading, writing

PRODUCT_COLUMNS = (
    Product.product_code, Product.name, Product.active, Product.base_unit,
    Product.base_unit_barcode, Product.category, Product.lot_level,
    Product.weight_brutto_milli, Product.weight_netto_milli, Product.weight_unit,
    Product.decimal_places,
)
PACKAGING_COLUMNS = (Packaging.product_code, Packaging.unit,
                     Packaging.amount_base_units_milli, Packaging.barcode)
PRODUCT_KEYS = [column.key for column in PRODUCT_COLUMNS]
PACKAGING_KEYS = ["unit", "amount_base_units_milli", "barcode"]
PRODUCT_WITH_PACKAGING = (
    f"SELECT {', '.join('p.' + key for key in PRODUCT_KEYS)}, "
    f"{', '.join('k.' + key for key in PACKAGING_KEYS)} "
    "FROM products p LEFT OUTER JOIN packaging k ON k.product_code = p.product_code "
    "WHERE p.product_code = ? ORDER BY k.position"
)


def list_products(session, product_code: str | None = None) -> list[dict]:
    """Products with their packaging as plain dicts, in two statements however many there are."""
    products = select(*PRODUCT_COLUMNS).order_by(Product.product_code)
    packaging = select(*PACKAGING_COLUMNS).order_by(Packaging.product_code, Packaging.position)
    if product_code is not None:
        products = products.where(Product.product_code == product_code)
        packaging = packaging.where(Packaging.product_code == product_code)
    result = {row.product_code: {**row._mapping, "packaging": []} for row in session.execute(products)}
    for row in session.execute(packaging):
        result[row.product_code]["packaging"].append(row._mapping)
    return list(result.values())


def every_product(session):
    """list_products' products and packaging, for the whole list written as it is read: one
    statement (the products joined with their packaging, in the order of list_products), read
    a thousand rows at a time (a server-side cursor on PostgreSQL). It runs when the first
    product is asked for (in the view), so that a database that fails is the caller's normal
    error; a list never started holds no cursor."""
    query = (select(*PRODUCT_COLUMNS, *(column.label(f"packaging_{column.key}") for column in PACKAGING_COLUMNS[1:]))
             .outerjoin(Packaging, Packaging.product_code == Product.product_code)
             .order_by(Product.product_code, Packaging.position)
             .execution_options(yield_per=1000))
    return _products_of(session, query)


def _products_of(session, query):
    """Products with their packaging from the joined rows, each product's rows one after another."""
    product = None
    # A list left unread closes its cursor (PostgreSQL's, on the server) too.
    with closing(session.connection().execute(query)) as rows:
        for row in rows:
            if product is None or row.product_code != product["product_code"]:
                if product is not None:
                    yield product
                product = {key: row[index] for index, key in enumerate(PRODUCT_KEYS)}
                product["packaging"] = []
            if row.packaging_unit is not None:
                product["packaging"].append({"unit": row.packaging_unit,
                                             "amount_base_units_milli": row.packaging_amount_base_units_milli,
                                             "barcode": row.packaging_barcode})
    if product is not None:
        yield product


def get_product(source, product_code: str) -> dict:
    """One product with its packaging, in one statement (scanners ask for it all day).

    `source` is a db.Reader, an engine or a session.
    """
    # No code holds a control character; PostgreSQL cannot even compare one with NUL.
    rows = []
    if product_code.isprintable():
        with reading(source) as reader:
            rows = reader.rows(PRODUCT_WITH_PACKAGING, (product_code,))
    if not rows:
        raise NotFound(say("No product %(code)r.", code=product_code))
    product = dict(zip(PRODUCT_KEYS, rows[0][:len(PRODUCT_KEYS)]))
    product["packaging"] = [dict(zip(PACKAGING_KEYS, row[len(PRODUCT_KEYS):]))
                            for row in rows if row[len(PRODUCT_KEYS)] is not None]
    return product


def require_product(session, product_code: str) -> None:
    if not product_code.isprintable() or session.get(Product, product_code) is None:
        raise NotFound(say("No product %(code)r.", code=product_code))


def create_product(session, fields: dict, actor: Actor | None = None) -> None:
    """Add one product (fields as schemas.product_schema loads them); the trail names `actor`."""
    with writing(session):
        _create(session, fields)
        if actor is not None:
            audit.record(session, actor, "product.create", fields["product_code"],
                         {key: [None, value] for key, value in _as_shown(fields).items()}, reach=SHARED)


def update_product(session, product_code: str, fields: dict, actor: Actor | None = None) -> None:
    """Replace the fields given; a packaging list given replaces the whole list.

    The trail gets {field: [before, after]} of what really changed (deactivating is
    an update of `active`).
    """
    if fields.get("product_code", product_code) != product_code:
        raise Invalid(say("product_code in the body differs from the one in the path."),
                      {"data": {"product_code": [say("Must equal the product code in the path.")]}})
    with writing(session):
        # Read on the session: a separate reader would not see this transaction's change.
        before = _as_shown(_one_product(session, product_code)) if actor is not None else None
        _update(session, product_code, fields)
        if actor is not None:
            after = _as_shown(_one_product(session, product_code))
            changes = audit.changed_fields(before, {key: after[key] for key in _as_shown(fields)})
            if changes:
                audit.record(session, actor, "product.update", product_code, changes, reach=SHARED)


def _one_product(session, product_code: str) -> dict:
    found = list_products(session, product_code)
    if not found:
        raise NotFound(say("No product %(code)r.", code=product_code))
    return found[0]


def _as_shown(fields: dict) -> dict:
    """Product fields as the API shows them (amounts in units), for the audit trail."""
    shown = {}
    for key, value in fields.items():
        if key.endswith("_milli"):
            shown[key.removesuffix("_milli")] = str(from_milli(value))
        elif key == "packaging":
            shown[key] = [{"unit": p["unit"], "amount_base_units": str(from_milli(p["amount_base_units_milli"])),
                           "barcode": p["barcode"]} for p in value]
        else:
            shown[key] = value
    return shown


def find_barcode(session, barcode: str) -> dict:
    """The product and unit a scanned barcode names: its base unit (factor 1) or a packaging.

    Raises NotFound when no product carries it. Non-empty barcodes are unique
    across products (the rules below refuse a clash), so at most one matches.
    """
    if barcode and barcode.isprintable():
        row = session.execute(
            select(Product.product_code, Product.name, Product.base_unit, Product.active)
            .where(Product.base_unit_barcode == barcode).limit(1)).first()
        if row is not None:
            return {"product_code": row.product_code, "name": row.name, "unit": row.base_unit,
                    "amount_base_units_milli": 1000, "active": row.active}
        row = session.execute(
            select(Product.product_code, Product.name, Packaging.unit, Packaging.amount_base_units_milli,
                   Product.active)
            .join(Packaging, Packaging.product_code == Product.product_code)
            .where(Packaging.barcode == barcode).limit(1)).first()
        if row is not None:
            return dict(row._mapping)
    raise NotFound(say("No product has the barcode %(barcode)r.", barcode=barcode))


def search_products(session, text: str = "", after: str | None = None, limit: int | None = None) -> list[dict]:
    """Products (with packaging) whose code or name holds `text` (ASCII letters in any case), or
    whose base-unit or packaging barcode is exactly `text`; by product_code, `after` the code of
    the last one of the page before (keyset)."""
    query = _searched_products(session, select(Product.product_code), text).order_by(Product.product_code)
    if after is not None:
        query = query.where(Product.product_code > after)
    codes = list(session.scalars(query.limit(limit)))
    if not codes:
        return []
    products = {row.product_code: {**row._mapping, "packaging": []}
                for row in session.execute(select(*PRODUCT_COLUMNS).where(Product.product_code.in_(codes)))}
    for row in session.execute(select(*PACKAGING_COLUMNS).where(Packaging.product_code.in_(codes))
                               .order_by(Packaging.product_code, Packaging.position)):
        products[row.product_code]["packaging"].append(row._mapping)
    return [products[code] for code in codes]


def count_products(session, text: str = "") -> int:
    """How many products search_products finds in all its pages."""
    return session.scalar(_searched_products(session, select(func.count()).select_from(Product), text))


def _searched_products(session, query, text: str):
    if not text:
        return query
    folded = ascii_lower(text)
    by_packaging = select(Packaging.product_code).where(Packaging.barcode == text)
    return query.where(or_(folded_column(session, Product.product_code).contains(folded, autoescape=True),
                           folded_column(session, Product.name).contains(folded, autoescape=True),
                           Product.base_unit_barcode == text,
                           Product.product_code.in_(by_packaging)))


def import_products(session, rows: list[tuple[int, dict]], refused: dict | None = None) -> None:
    """Create or update each product (by code) in one transaction; any bad line stops them all.

    `refused` holds lines the caller already refused ({line number: messages}); the
    rows are still tried so that the answer names every bad line, then nothing is kept.
    Raises Invalid naming the line of every refused row ("line N"), in file order.
    """
    refused = dict(refused or {})
    with writing(session):
        for line, fields in rows:
            try:
                with session.begin_nested():
                    if session.get(Product, fields["product_code"]) is None:
                        _create(session, fields)
                    else:
                        _update(session, fields["product_code"], fields)
            except ServiceError as error:
                refused[line] = [error.message]
        if refused:
            raise Invalid(say_count("%(count)s line refused; nothing was imported.",
                                    "%(count)s lines refused; nothing was imported.", len(refused),
                                    text="%(count)s line(s) refused; nothing was imported."),
                          {f"line {line}": refused[line] for line in sorted(refused)})


def create_in(session, fields: dict, flush: bool = True) -> None:
    """create_product's rules inside the caller's write transaction (an import of many).

    flush=False leaves the new rows to the caller's next flush (an import flushes them a few
    hundred at a time, and checks its own file for repeated codes and barcodes).
    """
    _create(session, fields, flush)


def update_in(session, product_code: str, fields: dict) -> None:
    """update_product's rules inside the caller's write transaction (an import of many)."""
    _update(session, product_code, fields)


def _create(session, fields: dict, flush: bool = True) -> None:
    # The body alone decides it here: answered before whether the product exists.
    _refuse_packaging_named_like_base(fields["base_unit"], [p["unit"] for p in fields["packaging"]])
    if session.get(Product, fields["product_code"]) is not None:
        message = say("Product %(code)r exists already.", code=fields["product_code"])
        raise Conflict(message, {"data": {"product_code": [message]}})
    product = Product(product_code=fields["product_code"])
    _apply(session, product, fields)
    session.add(product)
    if flush:
        _flush_or_conflict(session, fields["product_code"])


def _update(session, product_code: str, fields: dict) -> None:
    product = session.get(Product, product_code)
    if product is None:
        raise NotFound(say("No product %(code)r.", code=product_code))
    _apply(session, product, fields)
    _flush_or_conflict(session, product_code)


def _apply(session, product: Product, fields: dict) -> None:
    base_unit = fields.get("base_unit", product.base_unit)
    units = [p["unit"] for p in fields["packaging"]] if "packaging" in fields \
        else [p.unit for p in product.packaging]
    _refuse_packaging_named_like_base(base_unit, units)
    changes_stock_meaning = any(
        key in fields and fields[key] != getattr(product, key) for key in ("base_unit", "lot_level")
    )
    _check_barcodes(session, product.product_code, fields, product)
    if product.base_unit is not None and changes_stock_meaning and _has_stock(session, product.product_code):
        message = say("base_unit and lot_level cannot change while the product has stock.")
        raise Conflict(message, {"data": {key: [message] for key in ("base_unit", "lot_level")
                                          if key in fields and fields[key] != getattr(product, key)}})

    for key, value in fields.items():
        if key != "packaging":
            setattr(product, key, value)
    if "packaging" in fields:
        if product.packaging:
            product.packaging.clear()
            session.flush()  # the old rows go before the new ones claim their unit names
        product.packaging.extend(
            Packaging(position=i, unit=p["unit"], amount_base_units_milli=p["amount_base_units_milli"],
                      barcode=p["barcode"])
            for i, p in enumerate(fields["packaging"], start=1)
        )


def _refuse_packaging_named_like_base(base_unit: str, units: list[str]) -> None:
    """A scanned unit must name one conversion: the base unit, or one packaging."""
    if base_unit in units:
        message = say("A packaging unit may not be named like the base unit.")
        raise Invalid(message, {"data": {"packaging": [message]}})


def _has_stock(session, product_code: str) -> bool:
    return session.scalar(
        select(func.count()).select_from(Balance)
        .where(Balance.product_code == product_code, Balance.amount_milli != 0)
    ) > 0


def _check_barcodes(session, product_code: str, fields: dict, product: Product) -> None:
    """Non-empty barcodes name one unit of one product."""
    base = fields.get("base_unit_barcode", product.base_unit_barcode or "")
    packaging = [p["barcode"] for p in fields["packaging"]] if "packaging" in fields \
        else [p.barcode for p in product.packaging]
    barcodes = [b for b in [base, *packaging] if b]
    if len(set(barcodes)) != len(barcodes):
        raise Invalid(say("Two units of this product share a barcode."),
                      {"data": {"packaging": [say("Barcodes must differ between units.")]}})
    if not barcodes:
        return
    # Two lookups, each on its barcode index: one OR across the join read every packaging row,
    # which an import of thousands of products paid once per product.
    clash = session.execute(
        select(Product.product_code, Product.base_unit_barcode.label("barcode"))
        .where(Product.product_code != product_code, Product.base_unit_barcode.in_(barcodes))
        .union_all(select(Packaging.product_code, Packaging.barcode)
                   .where(Packaging.product_code != product_code, Packaging.barcode.in_(barcodes)))
        .limit(1)
    ).first()
    if clash is not None:
        message = say("A barcode is already used by %(product)s (%(code)s).",
                      product=product_names(session, [clash.product_code])[clash.product_code], code=clash.product_code)
        # Named for the office's form: the field holding the barcode taken.
        field = "base_unit_barcode" if base and base == clash.barcode else "packaging"
        raise Conflict(message, {"data": {field: [message]}})


def _flush_or_conflict(session, product_code: str) -> None:
    try:
        session.flush()
    except IntegrityError:
        raise Conflict(say("Product %(code)r clashes with an existing record.", code=product_code)) from None


def list_customers(session) -> list[Customer]:
    return list(session.scalars(select(Customer).order_by(Customer.id_customer)))


CUSTOMER_FIELDS = ("name", "registration_number", "tax_id", "vat_number", "street", "city", "zip", "country")


def get_customer(session, id_customer: int) -> Customer:
    customer = session.get(Customer, id_customer) if 0 < id_customer < 2**63 else None
    if customer is None:
        raise NotFound(say("No customer %(number)s.", number=id_customer))
    return customer


def search_customers(session, text: str = "", after: int | None = None,
                     limit: int | None = None) -> list[Customer]:
    """Customers whose number is `text`, or whose name, tax or VAT number or city holds it; by id,
    `after` the id of the last one of the page before (keyset)."""
    query = _searched_customers(session, select(Customer), text).order_by(Customer.id_customer)
    if after is not None:
        query = query.where(Customer.id_customer > after)
    return list(session.scalars(query.limit(limit)))


def count_customers(session, text: str = "") -> int:
    """How many customers search_customers finds in all its pages."""
    return session.scalar(_searched_customers(session, select(func.count()).select_from(Customer), text))


def _searched_customers(session, query, text: str):
    if not text:
        return query
    folded = ascii_lower(text)
    matches = [folded_column(session, column).contains(folded, autoescape=True)
               for column in (Customer.name, Customer.tax_id, Customer.vat_number, Customer.city,
                              Customer.registration_number)]
    if text.isdigit() and len(text) < 19:
        matches.append(Customer.id_customer == int(text))
    return query.where(or_(*matches))


def create_customer(session, fields: dict, actor: Actor | None = None) -> None:
    """Add one customer (fields as schemas.customer_in_schema loads them); a taken id is 409."""
    with writing(session):
        if session.get(Customer, fields["id_customer"]) is not None:
            message = say("Customer %(number)s exists already.", number=fields["id_customer"])
            raise Conflict(message, {"data": {"id_customer": [message]}})
        session.add(Customer(**{key: fields.get(key, "") for key in CUSTOMER_FIELDS},
                             id_customer=fields["id_customer"]))
        try:
            session.flush()
        except IntegrityError:
            raise Conflict(say("Customer %(number)s exists already.", number=fields["id_customer"])) from None
        if actor is not None:
            audit.record(session, actor, "customer.create", fields["id_customer"],
                         {key: [None, fields.get(key, "")] for key in CUSTOMER_FIELDS}, reach=SHARED)


def update_customer(session, id_customer: int, fields: dict, actor: Actor | None = None) -> None:
    """Replace the fields given of one customer; the trail gets what really changed."""
    if fields.get("id_customer", id_customer) != id_customer:
        raise Invalid(say("id_customer in the body differs from the one in the path."),
                      {"data": {"id_customer": [say("Must equal the customer number in the path.")]}})
    with writing(session):
        customer = get_customer(session, id_customer)
        before = {key: getattr(customer, key) for key in CUSTOMER_FIELDS}
        after = {key: fields[key] for key in CUSTOMER_FIELDS if key in fields}
        for key, value in after.items():
            setattr(customer, key, value)
        changes = audit.changed_fields(before, after)
        if actor is not None and changes:
            audit.record(session, actor, "customer.update", id_customer, changes, reach=SHARED)


def save_customers(session, rows: list[dict]) -> None:
    """Insert or update customers by id_customer, all in one transaction."""
    with writing(session):
        for row in rows:
            put_customer(session, row)


def put_customer(session, row: dict) -> None:
    """Insert or update one customer by id_customer, in the caller's write transaction."""
    customer = session.get(Customer, row["id_customer"]) or Customer(id_customer=row["id_customer"])
    for key, value in row.items():
        setattr(customer, key, value)
    session.add(customer)
