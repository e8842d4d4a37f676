"""Notes worth less than any booking: when a key was last used, when a session last saw a request.

Such a note is written outside db.writing, by one conditional UPDATE that never waits for the
write lock: when a booking holds it, the note is skipped and written at a later request. It
changes nothing the caches keep (storage/cache.py), so it does not make them read again.
"""
from storage.db import WRITE


def note_without_waiting(engine, statement) -> None:
    """Run one UPDATE at once or raise (sqlalchemy's error) when the database is busy."""
    with engine.connect().execution_options(**{WRITE: True}) as connection:
        sqlite = connection.dialect.name == "sqlite"
        # Never wait behind a long booking for a note: give up at once and try later.
        # The pragmas on the driver's connection, outside any transaction (it is in autocommit).
        driver = connection.connection.driver_connection
        if sqlite:
            kept = driver.execute("PRAGMA busy_timeout").fetchone()[0]
            driver.execute("PRAGMA busy_timeout=0")
        try:
            with connection.begin():
                if not sqlite:
                    connection.exec_driver_sql("SET LOCAL lock_timeout = '100ms'")
                connection.execute(statement)
        finally:
            if sqlite:
                driver.execute(f"PRAGMA busy_timeout={int(kept)}")
