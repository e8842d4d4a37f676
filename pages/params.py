"""The query parameters of the pages: one schema per page, as schemas/ has one per API shape.

An empty form field counts as not given. Every page takes `format` (html, csv or xlsx); the
list pages `after` (where the page begins: pages/common.py Pager) and `page` (the number shown,
1 and up).
"""
import base64
import binascii
import json
from datetime import date

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from schemas.fields import printable
from stock.errors import Invalid, say
from stock.write_offs import REASONS

Page = lambda: fields.Integer(load_default=1, validate=validate.Range(min=1, max=10**6))  # noqa: E731
# csv: as the page's language writes a CSV (`;` and decimal commas in sl and de); csv-comma and
# csv-semicolon: the other form, one choice away (pages/common.py download_format).
Format = lambda: fields.String(load_default="html", validate=validate.OneOf(  # noqa: E731
    ["html", "csv", "csv-comma", "csv-semicolon", "xlsx"]))


class Keyset(fields.Field):
    """A row's place in a list (pages/common.py encode_key): a tuple of values of the given
    types, in one of the given lengths; None when not given."""

    def __init__(self, *types, lengths=None, **kwargs):
        super().__init__(load_default=None, **kwargs)
        self.types, self.lengths = types, lengths or (len(types),)

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
            values = json.loads(text)
            if not isinstance(values, list) or len(values) not in self.lengths:
                raise ValueError
            return tuple(_typed(kind, given) for kind, given in zip(self.types, values))
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError, RecursionError):
            raise ValidationError("Not a place in this list: follow the page's links.") from None


def _typed(kind, value):
    if kind is int and value.__class__ is int and abs(value) < 2**63:
        return value
    if kind is str and isinstance(value, str) and len(value) <= 200:
        return value
    if kind is date and isinstance(value, str):
        return date.fromisoformat(value)
    raise ValueError


Warehouse = lambda: fields.Integer(load_default=None, validate=validate.Range(min=0, max=2**63 - 1))  # noqa: E731
# One product by its exact code ("": every product).
ProductCode = lambda: fields.String(load_default="", validate=[validate.Length(max=200), printable])  # noqa: E731


class StockQuery(Schema):
    warehouse = Warehouse()
    q = fields.String(load_default="", validate=validate.Length(max=200))
    # A location's code in any case (DESIGN 27); "-" the unplaced stock. None: every location.
    location = fields.String(load_default=None, validate=[validate.Length(max=30), printable])
    level = fields.Integer(load_default=-1, validate=validate.OneOf([-1, 0, 1]))
    # (warehouse, product[, lot]) and, where the page shows locations, the location after them.
    after = Keyset(int, str, str, str, lengths=(2, 3, 4))
    page = Page()
    format = Format()


class DateRange(Schema):
    """date_from and date_to, both optional and inclusive, in order."""

    date_from = fields.Date(load_default=None)
    date_to = fields.Date(load_default=None)

    @validates_schema
    def range_in_order(self, data, **kwargs):
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            raise ValidationError("Must not be after date_to.", "date_from")


class DocumentsQuery(DateRange):
    warehouse = Warehouse()
    direction = fields.String(load_default="", validate=validate.OneOf(["", "I", "O"]))
    after = Keyset(int)
    page = Page()
    format = Format()


class OrdersQuery(Schema):
    # None: the open orders (1, 2 and 3).
    state = fields.Integer(load_default=None, validate=validate.OneOf([0, 1, 2, 3]))
    warehouse = Warehouse()
    customer = fields.Integer(load_default=None, validate=validate.Range(min=0, max=2**63 - 1))
    q = fields.String(load_default="", validate=validate.Length(max=200))
    after = Keyset(int)  # the newest line of the last order shown (stock/orders.py search_orders)
    page = Page()
    format = Format()


class ProductsQuery(Schema):
    q = fields.String(load_default="", validate=validate.Length(max=200))
    after = Keyset(str)  # the code of the last product shown
    page = Page()
    format = Format()


class CustomersQuery(Schema):
    q = fields.String(load_default="", validate=validate.Length(max=200))
    after = Keyset(int)  # the number of the last customer shown
    page = Page()
    format = Format()


class StocktakingsQuery(Schema):
    after = Keyset(date, int)
    page = Page()
    format = Format()


class MovementsQuery(Schema):
    date_from = fields.Date(load_default=None)
    format = Format()


class MovementLinesQuery(DateRange):
    warehouse = Warehouse()
    product = ProductCode()
    after = Keyset(date, int, int)  # the (date, document, line) of the last line shown
    page = Page()
    format = Format()


class ReorderLevelsQuery(Schema):
    warehouse = Warehouse()
    product = ProductCode()
    after = Keyset(int, str)  # the (warehouse, product) of the last level shown
    page = Page()


class WarehouseList(fields.Field):
    """The warehouses ticked in a form, one number each (none: every warehouse); a typed "1, 2" too."""

    def _deserialize(self, value, attr, data, **kwargs):
        given = value if isinstance(value, list) else [value]
        parts = [part.strip() for text in given for part in str(text).replace(";", ",").split(",") if part.strip()]
        if not all(part.isascii() and part.isdigit() and len(part) <= 18 for part in parts):
            raise ValidationError("Tick the warehouses in the list (none ticked: every warehouse).")
        return sorted({int(part) for part in parts})


Role = lambda **kw: fields.String(validate=validate.OneOf(["read", "scan", "admin"]), **kw)  # noqa: E731


class AuditQuery(Schema):
    since = fields.Date(load_default=None)
    kind = fields.String(load_default="", validate=validate.Length(max=50))
    who = fields.String(load_default="", validate=validate.Length(max=200))
    who_kind = fields.String(load_default="", validate=validate.OneOf(["", "person", "key", "cli"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=1000))
    before_id = fields.Integer(load_default=None, validate=validate.Range(min=1, max=2**63 - 1))


class PersonForm(Schema):
    """The form that adds a person on /admin/people (the password is checked by the rules)."""

    token = fields.String()
    name = fields.String(required=True, validate=validate.Length(min=1, max=100),
                         error_messages={"required": "Give the name the person signs in with, e.g. anna."})
    role = Role(required=True)
    warehouses = WarehouseList(load_default=list)
    password = fields.String(required=True)
    language = fields.String(load_default="", validate=validate.OneOf(("", "en", "sl", "de")))


class AccessForm(Schema):
    """The form that changes a person's role and warehouses on /admin/people."""

    token = fields.String()
    role = Role(required=True)
    warehouses = WarehouseList(load_default=list)


class PasswordForm(Schema):
    token = fields.String()
    password = fields.String(required=True)


class PairingForm(Schema):
    """The form that makes a key for a device on /admin/keys."""

    token = fields.String()
    name = fields.String(required=True, validate=validate.Length(min=1, max=100),
                         error_messages={"required": "Give the device a name, e.g. scanner-gate-2."})
    role = Role(load_default="scan")
    warehouses = WarehouseList(load_default=list)
    expires_in_days = fields.Integer(load_default=None, validate=validate.Range(min=1, max=36500))


class DepotForm(Schema):
    """The depot's profile on /admin/depot (the texts' rules, and the logo's, are stock/depot.py's)."""

    name = fields.String(required=True)
    address = fields.String(load_default="")
    vat_number = fields.String(load_default="")
    remove_logo = fields.Boolean(load_default=False, truthy={"1", "on"}, falsy={"", "0"})
    language = fields.String(load_default="", validate=validate.OneOf(("", "en", "sl", "de")))


class AlertPlace(Keyset):
    """The place of the last alert shown: (warehouse, product) of a low product, or
    (best-before, warehouse, product, lot) of a lot; the types follow the length."""

    TYPES = {2: (int, str), 4: (str, int, str, str)}

    def __init__(self, **kwargs):
        super().__init__(lengths=tuple(self.TYPES), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            values = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode())
            if not isinstance(values, list) or len(values) not in self.TYPES:
                raise ValueError
            return tuple(_typed(kind, given) for kind, given in zip(self.TYPES[len(values)], values))
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError, RecursionError):
            raise ValidationError("Not a place in this list: follow the page's links.") from None


class AlertsQuery(Schema):
    warehouse = Warehouse()
    product = ProductCode()
    kind = fields.String(load_default=None, validate=validate.OneOf(["low_stock", "expiring", "expired"]))
    after = AlertPlace()
    page = Page()
    format = Format()

    @validates_schema
    def place_of_its_kind(self, data, **kwargs):
        after = data.get("after")
        if after is not None and len(after) != (2 if data.get("kind") == "low_stock" else 4 if data.get("kind") else 0):
            raise ValidationError("Not a place in this list: follow the page's links.", "after")


class PaperLanguage(fields.String):
    """?language= of a paper or a label: another language than the depot's (DESIGN 29)."""

    def __init__(self):
        super().__init__(load_default="", validate=validate.OneOf(("", "en", "sl", "de")))


class PickListQuery(Schema):
    language = PaperLanguage()


class WebhooksQuery(Schema):
    webhook = fields.Integer(load_default=None, validate=validate.Range(min=1, max=2**63 - 1))


stock_query = StockQuery()
documents_query = DocumentsQuery()
orders_query = OrdersQuery()
products_query = ProductsQuery()
customers_query = CustomersQuery()
stocktakings_query = StocktakingsQuery()
movements_query = MovementsQuery()
movement_lines_query = MovementLinesQuery()
reorder_levels_query = ReorderLevelsQuery()
class LotQuery(Schema):
    """/lots/<product>/<lot>: the page, or its recall list as CSV or XLSX."""

    format = Format()


class WriteOffsQuery(Schema):
    """/write-offs: what was written off, by month and reason, in a warehouse and between days."""

    warehouse = Warehouse()
    since = fields.Date(load_default=None)
    until = fields.Date(load_default=None)
    format = Format()


class WriteOffAsked(Schema):
    """/write-offs/new: the lot the alerts, lot or stock page offers to write off, how much of it, from
    which location (empty: as any goods-out takes it), why ("" asks the person), and the page to go back to."""

    warehouse = fields.Integer(required=True, validate=validate.Range(min=1, max=2**63 - 1))
    product = fields.String(required=True, validate=[validate.Length(min=1, max=200), printable])
    lot = fields.String(load_default="", validate=[validate.Length(max=200), printable])
    amount = fields.String(load_default="", validate=validate.Length(max=40))
    reason = fields.String(load_default="", validate=validate.OneOf(("",) + REASONS))
    location = fields.String(load_default="", validate=[validate.Length(max=30), printable])
    back = fields.String(load_default="alerts", validate=validate.OneOf(("alerts", "stock", "lot")))


alerts_query = AlertsQuery()
lot_query = LotQuery()
write_offs_query = WriteOffsQuery()
write_off_asked = WriteOffAsked()
pick_list_query = PickListQuery()
webhooks_query = WebhooksQuery()


def load_args(schema, args) -> dict:
    """The page's parameters; Invalid names each bad one."""
    try:
        return schema.load({name: value for name, value in args.items() if value != ""})
    except ValidationError as error:
        raise Invalid(say("The page's address has invalid parameters."), error.messages) from None


# --- printing (pages/printing.py) ------------------------------------------------------------

Sheet = lambda: fields.String(load_default=None, validate=validate.OneOf(["a4"]))  # noqa: E731


class LabelQuery(Schema):
    unit = fields.String(load_default=None, validate=validate.Length(max=200))
    lot = fields.String(load_default="", validate=validate.Length(max=200))
    date_exp = fields.Date(load_default=None)
    copies = fields.Integer(load_default=1, validate=validate.Range(min=1, max=500))
    sheet = Sheet()
    language = PaperLanguage()


class DocumentLabelsQuery(Schema):
    sheet = Sheet()
    # One label per line, or one per package as each line was received (printing/labels.py).
    per = fields.String(load_default="line", validate=validate.OneOf(["line", "package"]))
    language = PaperLanguage()


class LocationLabelsQuery(Schema):
    code = fields.Raw(load_default=None)  # every one ticked, read by request.args.getlist
    sheet = Sheet()


label_query = LabelQuery()
location_labels_query = LocationLabelsQuery()
document_labels_query = DocumentLabelsQuery()


audit_query = AuditQuery()
person_form = PersonForm()
password_form = PasswordForm()
access_form = AccessForm()
pairing_form = PairingForm()
depot_form = DepotForm()
