"""Stocktakings (operations 15-16): as listed, and the query of a delete."""

from marshmallow import Schema, fields

from schemas.fields import Day, Quantity, QueryNumber, REQUIRED_DATE


class StocktakingItemOutSchema(Schema):
    id_warehouse = fields.Integer()
    date = Day()
    product_code = fields.String()
    lot = fields.String()
    date_exp = fields.String()
    name = fields.String()
    amount_real = Quantity(attribute="amount_real_milli")
    amount_snap = Quantity(attribute="amount_snap_milli")
    amount_diff = Quantity(attribute="amount_diff_milli")


class StocktakingOutSchema(Schema):
    id_warehouse = fields.Integer()
    date = Day()
    status = fields.Integer()
    in_doc = fields.Integer()
    out_doc = fields.Integer()
    in_ufid = fields.String()
    out_ufid = fields.String()
    stocktaking_items = fields.List(fields.Nested(StocktakingItemOutSchema))


stocktakings_schema = StocktakingOutSchema(many=True)


class StocktakingDeleteQuerySchema(Schema):
    """Query of DELETE /v1/stocktakings/: both parameters are required."""

    date = Day(required=True, metadata=REQUIRED_DATE)
    id_warehouse = QueryNumber(required=True)


stocktaking_delete_query_schema = StocktakingDeleteQuerySchema()
