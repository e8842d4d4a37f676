"""storage/db.py: writes go only through db.writing."""
import pytest
from sqlalchemy import select

from models import Customer
from storage.db import UnguardedWrite, writing


def test_a_commit_outside_writing_fails_and_keeps_nothing(session):
    session.add(Customer(id_customer=1, name="Outside"))
    with pytest.raises(UnguardedWrite):
        session.commit()
    session.rollback()
    assert session.get(Customer, 1) is None


def test_writing_refuses_changes_made_before_it_instead_of_dropping_them(session):
    session.add(Customer(id_customer=1, name="Pending"))
    with pytest.raises(UnguardedWrite):
        with writing(session):
            pass
    assert session.new  # still there for the caller to see, not silently rolled back
    session.rollback()


def test_writing_refuses_rows_flushed_before_it(session):
    session.add(Customer(id_customer=2, name="Flushed"))
    session.flush()
    with pytest.raises(UnguardedWrite):
        with writing(session):
            pass
    session.rollback()
    with writing(session):  # a clean session writes again
        session.add(Customer(id_customer=2, name="Written"))
    assert session.get(Customer, 2).name == "Written"


def test_writing_commits_its_block_and_rolls_back_on_error(session):
    with writing(session):
        session.add(Customer(id_customer=3, name="Kept"))
    with pytest.raises(ValueError):
        with writing(session):
            session.get(Customer, 3).name = "Changed"
            raise ValueError("changed my mind")
    assert session.scalar(select(Customer.name)) == "Kept"
