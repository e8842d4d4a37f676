"""Customers: one row per customer, the columns of the customers CSV (id_customer required).

A row creates the customer or changes the fields its file has columns for.
"""
from marshmallow import ValidationError
from sqlalchemy import select

from models import Customer
from schemas import customer_row_schema
from schemas.customers import CustomerRowSchema
from stock import catalog
from stock.errors import say
from transfer.columns import TEXT, WHOLE, Column, Kind

COLUMNS = tuple(Column(name, WHOLE if name == "id_customer" else TEXT, required=name == "id_customer")
                for name in customer_row_schema.fields)
customer_update_schema = CustomerRowSchema(partial=tuple(name for name in customer_row_schema.fields
                                                         if name != "id_customer"))


def apply(context, rows) -> None:
    session = context.session
    existing = {c.id_customer: c for c in session.scalars(select(Customer))}
    seen = {}
    for number, cells in rows:
        context.progress()
        ident = cells.get("id_customer")
        if ident is not None and ident in seen:
            context.error(number, "id_customer", say("The customer repeats row %(row)s.", row=seen[ident]))
            continue
        if ident is not None:
            seen[ident] = number
        customer = existing.get(ident)
        try:
            loaded = (customer_update_schema if customer is not None else customer_row_schema).load(cells)
        except ValidationError as error:
            context.schema_errors(number, error.messages)
            continue
        if customer is not None and all(getattr(customer, k) == v for k, v in loaded.items()):
            context.outcome(number, str(ident), "unchanged")
            continue
        catalog.put_customer(session, loaded)
        context.outcome(number, str(ident), "created" if customer is None else "updated")
    session.flush()


def export(session, caller=None):
    header = [column.name for column in COLUMNS]
    return header, ([getattr(customer, name) for name in header]
                    for customer in catalog.list_customers(session))


KIND = Kind("customers", COLUMNS, apply, export, record=("id_customer",), label="name")
