"""Whole lists written as they are read: {"list": [...]} sent in pieces (issue 33, point 3).

The answer is byte for byte what Flask's JSON writes for the whole list (the same keys in the
same order, the same numbers, compact, a newline at the end; an empty list is still `[]`), but
the rows are read a thousand at a time from the database and written out as they come, so the
server's memory stays flat however long the list is (docs/performance.md, row t).

Before the first byte: the statement has run and the first thousand rows are read and dumped
in the view, so a database that fails, or a row that cannot be written, is the normal JSON
error with its status. After it: the status (200) and the first rows are already on their way.
A fault then (the database gone mid-list) is logged, and the connection is closed without the
answer's end (waitress sends no last chunk): the client sees a cut answer, never a shorter
list that parses, and asks again.

The read stays in the request's one transaction (one snapshot of the database) until the last
row is written: the answer takes the request's session over (storage/db.py `HandedOver`) and
closes it once written, or when the client goes away (the server closes the answer).
Nothing written after the view needs the request's context: each row's `out` is plain.
"""
import logging
from itertools import islice

from flask import Response, current_app, request

from storage.db import HandedOver

CHUNK = 1000  # rows dumped at a time: one json.dumps call each, and one piece sent

log = logging.getLogger("warehouse")


def whole_list(rows, out) -> Response:
    """The answer {"list": [out(row) for row in rows]}, written as `rows` are read."""
    rows = iter(rows)
    try:
        first = [out(row) for row in islice(rows, CHUNK)]
    except BaseException:
        if hasattr(rows, "close"):
            rows.close()  # its cursor now, on its connection, not when collected
        raise
    provider = current_app.json
    if provider.compact is False or (provider.compact is None and current_app.debug):
        # Indented for a person reading it (debug): written whole, as Flask would.
        return provider.response({"list": first + [out(row) for row in rows]})
    text = provider.dumps(first, separators=(",", ":"))
    if len(first) < CHUNK:
        return Response('{"list":' + text + "}\n", mimetype=provider.mimetype)
    path = request.path

    def pieces():
        written = len(first)
        try:
            yield '{"list":' + text[:-1]
            while chunk := [out(row) for row in islice(rows, CHUNK)]:
                yield "," + provider.dumps(chunk, separators=(",", ":"))[1:-1]
                written += len(chunk)
            yield "]}\n"
        except Exception:
            log.exception("%s broke off after %d rows: the client gets a cut answer", path, written)
            raise
        finally:
            # Rows left unread (an error, the client gone) close their cursor before the session.
            if hasattr(rows, "close"):
                rows.close()

    return Response(HandedOver(pieces(), rows), mimetype=provider.mimetype)
