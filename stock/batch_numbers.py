"""Blocks of batch numbers reserved for one key (DESIGN 25).

A scanner that books while the network is away must fix each batch's number before it first
sends it (so that sending it again is a retry, DESIGN 7), and no other scanner may take that
number meanwhile. So a key reserves a block of numbers while it is online: above every batch
number used so far and every block reserved before, never overlapping another. A batch of
another key whose number lies in the block is refused (409).

The reservation takes the service-wide write lock (storage.db.writing with no warehouses): on
PostgreSQL it waits for the bookings under way, whose numbers it must see, and holds new ones
up for the few statements it takes. Reservations are rare (a scanner takes a block of a hundred
or so at a time), so this is the cheapest way to make "above every number used" exact.

Not in the audit trail: a block is part of booking, as a batch is, and the keys listing
(`flask keys list`) shows each key's blocks.

Plain functions on a session; may import models, storage/, stock.errors, stock.caller.
"""
from sqlalchemy import bindparam, func, insert, select

from models import ApiKey, Batch, BatchNumberBlock
from stock.caller import Caller
from stock.errors import Conflict, Forbidden, say
from storage.db import utc_now, writing

MOST = 1000  # numbers in one block
# Numbers stay exact in JavaScript (the browser scanner keeps them as Numbers): 2**53 - 1.
HIGHEST = 2**53 - 1

_BLOCK_OF_NUMBER = (select(BatchNumberBlock.key_id, BatchNumberBlock.first, BatchNumberBlock.last)
                    .where(BatchNumberBlock.first <= bindparam("number"))
                    .order_by(BatchNumberBlock.first.desc()).limit(1))


def reserve_block(session, caller: Caller, count: int) -> dict:
    """A new block of `count` numbers for the calling key: {first, last}."""
    if caller.key_id is None:
        raise Forbidden(say("Batch numbers are reserved for a key (a scanner), not for a person."))
    with writing(session):
        highest_batch = session.scalar(select(func.max(Batch.batch_number))) or 0
        highest_block = session.scalar(select(BatchNumberBlock.last).order_by(BatchNumberBlock.first.desc())
                                       .limit(1)) or 0
        first = max(highest_batch, highest_block) + 1
        last = first + count - 1
        if last > HIGHEST:
            raise Conflict(say("No block of %(count)s batch numbers is left below %(highest)s: batch numbers "
                               "this high were used by another scanner app.", count=count, highest=HIGHEST))
        session.execute(insert(BatchNumberBlock).values(key_id=caller.key_id, first=first, last=last,
                                                        reserved_at=utc_now()))
    return {"first": first, "last": last}


def refuse_number_of_another(session, caller: Caller, number: int) -> None:
    """Conflict when `number` lies in a block reserved for another key than the caller's.

    Inside the booking's transaction: a block is reserved under the service-wide lock, which
    waits for this booking, so no block can appear around the number before it commits.
    """
    block = session.connection().execute(_BLOCK_OF_NUMBER, {"number": number}).first()
    if block is None or block.last < number or block.key_id == caller.key_id:
        return
    holder = session.scalar(select(ApiKey.name).where(ApiKey.id == block.key_id)) or "another key"
    raise Conflict(say("Batch number %(number)s is reserved for the scanner %(holder)r (numbers %(first)s-%(last)s), "
                       "which may be holding a batch of that number to send: take a number outside its blocks.",
                       number=number, holder=holder, first=block.first, last=block.last))


def blocks_by_key(session) -> dict[int, list[tuple[int, int]]]:
    """{key id: [(first, last), ...]} of every reserved block, lowest first."""
    found: dict[int, list[tuple[int, int]]] = {}
    for key_id, first, last in session.execute(select(BatchNumberBlock.key_id, BatchNumberBlock.first,
                                                      BatchNumberBlock.last).order_by(BatchNumberBlock.first)):
        found.setdefault(key_id, []).append((first, last))
    return found
