"""A lot's story over HTTP (GET /v1/lots/trace, DESIGN 28): the query and the story's events."""
from marshmallow import Schema, fields, validate

from schemas.fields import Day, Quantity, printable
from stock.quantities import from_milli

CODE = [validate.Length(min=1, max=200), printable]


class TraceQuerySchema(Schema):
    """GET /v1/lots/trace: which lot of which product."""

    product_code = fields.String(required=True, validate=CODE, metadata={"description": "The product's code."})
    lot = fields.String(required=True, validate=CODE, metadata={"description": "The lot."})


class CustomerNamedSchema(Schema):
    """Who a delivery went to (or a return came from); id 0 and empty names where nobody is known."""

    id_customer = fields.Integer()
    name = fields.String()
    city = fields.String()


class LotEventSchema(Schema):
    """One warehouse document's lines of the lot: when, where, how much, which document."""

    date = Day()
    id_warehouse = fields.Integer()
    amount = Quantity(attribute="amount_milli", metadata={"description": "In the product's base unit."})
    doc_number = fields.Integer()
    ufid = fields.String()


class ReceivedSchema(LotEventSchema):
    """A goods-in of the lot, with the order its batch named ("" none)."""

    document_number = fields.String(metadata={"description": "The order document; empty for none."})
    batch_number = fields.Integer()
    date_exp = fields.String(metadata={"description": "The best-before the goods-in gave; empty for none."})


class DeliveredSchema(LotEventSchema):
    """A goods-out of the lot (a delivery), with its order and customer."""

    document_number = fields.String(metadata={"description": "The order document; empty for none."})
    batch_number = fields.Integer()
    customer = fields.Nested(CustomerNamedSchema)


class MovePlaceSchema(Schema):
    """One end of a move: the warehouse and the location ("" unplaced)."""

    id_warehouse = fields.Integer()
    location = fields.String()


class MovedSchema(Schema):
    """A move of the lot (DESIGN 27), within a warehouse or between two."""

    date = Day()
    move_id = fields.String()
    from_ = fields.Nested(MovePlaceSchema, data_key="from", attribute="from")
    to = fields.Nested(MovePlaceSchema)
    amount = Quantity(attribute="amount_milli", metadata={"description": "What moved, in the product's base unit."})
    change = Quantity(attribute="change_milli", metadata={
        "description": "What the move changed in the stock of the warehouses the key sees: what came into one "
                       "of them from elsewhere, less what left one of them for elsewhere; 0 within them."})
    out_doc = fields.Integer(metadata={"description": "The goods-out document's number; 0 within a warehouse."})
    in_doc = fields.Integer(metadata={"description": "The goods-in document's number; 0 within a warehouse."})
    note = fields.String()
    posted_by = fields.String()


class CountedSchema(LotEventSchema):
    """A stocktaking's adjustment: positive where the count found more, negative where less."""


class WrittenOffSchema(LotEventSchema):
    write_off_id = fields.String()
    reason = fields.String()


class ReturnedSchema(LotEventSchema):
    return_id = fields.String()
    reason = fields.String()
    document_number = fields.String(metadata={"description": "The order the goods came back against."})
    customer = fields.Nested(CustomerNamedSchema)


class InStockSchema(Schema):
    id_warehouse = fields.Integer()
    location = fields.String(metadata={"description": "The location (DESIGN 27); empty: unplaced."})
    amount = Quantity(attribute="amount_milli")


class TraceSchema(Schema):
    """A lot's story: where it came from, where it went, and what is left where.

    received + returned + counted + moved (their `change`) = delivered + written_off + in_stock."""

    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String(metadata={"description": "The lot's best-before; empty for none."})
    received = fields.List(fields.Nested(ReceivedSchema))
    delivered = fields.List(fields.Nested(DeliveredSchema))
    moved = fields.List(fields.Nested(MovedSchema))
    counted = fields.List(fields.Nested(CountedSchema))
    written_off = fields.List(fields.Nested(WrittenOffSchema))
    returned = fields.List(fields.Nested(ReturnedSchema))
    in_stock = fields.List(fields.Nested(InStockSchema))


trace_query_schema = TraceQuerySchema()
trace_schema = TraceSchema()


def trace_out(story: dict) -> dict:
    """trace_schema.dump(story), written out by hand: a lot delivered to thousands of customers is
    thousands of events, and marshmallow's dump of each cost more than reading them
    (tests/api/test_lots.py holds the two alike)."""
    def base(event):
        return {"date": event["date"].isoformat(), "id_warehouse": event["id_warehouse"],
                "amount": from_milli(event["amount_milli"]), "doc_number": event["doc_number"], "ufid": event["ufid"]}

    def customer(event):
        named = event["customer"]
        return {"id_customer": named["id_customer"], "name": named["name"], "city": named["city"]}

    return {
        "product_code": story["product_code"], "lot": story["lot"], "date_exp": story["date_exp"],
        "received": [{**base(e), "document_number": e["document_number"], "batch_number": e["batch_number"],
                      "date_exp": e["date_exp"]} for e in story["received"]],
        "delivered": [{**base(e), "document_number": e["document_number"], "batch_number": e["batch_number"],
                       "customer": customer(e)} for e in story["delivered"]],
        "moved": [{"date": e["date"].isoformat(), "move_id": e["move_id"],
                   "from": {"id_warehouse": e["from"]["id_warehouse"], "location": e["from"]["location"]},
                   "to": {"id_warehouse": e["to"]["id_warehouse"], "location": e["to"]["location"]},
                   "amount": from_milli(e["amount_milli"]), "change": from_milli(e["change_milli"]),
                   "out_doc": e["out_doc"], "in_doc": e["in_doc"], "note": e["note"], "posted_by": e["posted_by"]}
                  for e in story["moved"]],
        "counted": [base(e) for e in story["counted"]],
        "written_off": [{**base(e), "write_off_id": e["write_off_id"], "reason": e["reason"]}
                        for e in story["written_off"]],
        "returned": [{**base(e), "return_id": e["return_id"], "reason": e["reason"],
                      "document_number": e["document_number"], "customer": customer(e)} for e in story["returned"]],
        "in_stock": [{"id_warehouse": row["id_warehouse"], "location": row["location"],
                      "amount": from_milli(row["amount_milli"])} for row in story["in_stock"]],
    }
