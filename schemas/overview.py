"""The overviews (operations 19-20): documents and stocktakings by warehouse, movements by month."""

from marshmallow import Schema, fields

from schemas.fields import Day, OptionalDay, QueryNumber


class DocsAndStocktakingQuerySchema(Schema):
    id_warehouse = QueryNumber()


docs_and_stocktaking_query_schema = DocsAndStocktakingQuerySchema()


class DocsAndStocktakingRowSchema(Schema):
    id_warehouse = fields.Integer()
    ufid_in = fields.String()
    in_date = Day()
    ufid_out = fields.String()
    out_date = Day()
    stocktaking_date = Day()


docs_and_stocktaking_rows_schema = DocsAndStocktakingRowSchema(many=True)


class MonthlyMovementQuerySchema(Schema):
    date_from = OptionalDay()


monthly_movement_query_schema = MonthlyMovementQuerySchema()


class MonthlyMovementRowSchema(Schema):
    year = fields.Integer()
    month = fields.Integer()
    direction = fields.String()
    count = fields.Integer()


monthly_movement_rows_schema = MonthlyMovementRowSchema(many=True)
