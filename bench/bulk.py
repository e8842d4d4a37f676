"""What the benches that build a big depot share: rows written straight into the SQLite file the
service made (its migrations), and the built file kept for the next run.

Straight in, not over HTTP: a million movement lines booked through the service would take an
hour; the service reads the file afterwards exactly as it reads its own.
"""
import sqlite3
import time
from pathlib import Path


def bulk_writer(path: Path):
    """(connection, insert(table, columns, rows)) on the file, in one transaction with no journal
    and no fsync: a build that is cut short is thrown away, never used."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("PRAGMA journal_mode=DELETE")
    con.execute("PRAGMA synchronous=OFF")
    con.execute("BEGIN")

    def insert(table, columns, rows):
        con.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                        rows)

    return con, insert


def keep_built(ctx, row: str, what: str, building: Path, path: Path, started: float) -> Path:
    """The built file kept under its cache name, without the change mark the service left beside
    it (storage/cache.py), and a note of what the build cost."""
    building.rename(path)
    for beside in path.parent.glob(f"{building.name}-*"):
        beside.unlink()
    ctx.note(f"{row}: built {what} in {time.monotonic() - started:.0f} s "
             f"({path.stat().st_size / 2**20:,.0f} MiB), cached in {path}")
    return path


def flush_movements(insert, batch_rows, item_rows, doc_rows, line_rows):
    """The batches, their items, the goods documents and their lines gathered so far, written and
    emptied: a big depot is written in parts, so that its rows never all sit in memory."""
    insert("batches", ["batch_number", "id_warehouse", "direction", "type", "date", "created_date",
                       "app_version", "name", "truck", "document_number", "content_digest"], batch_rows)
    insert("batch_items", ["batch_number", "position", "product_code", "unit", "amount_milli", "amount_base_milli",
                           "barcode", "date_exp", "lot", "name", "palette", "status", "timestamp_client", "wplace",
                           "doc_item_number"], item_rows)
    insert("warehouse_documents", ["id", "doc_number", "id_warehouse", "direction", "date", "doc_created_date",
                                   "id_customer", "batch_number", "ufid"], doc_rows)
    insert("warehouse_document_items", ["document_id", "item_number", "id_warehouse", "direction", "date",
                                        "product_code", "name", "lot", "date_exp", "amount_base_milli",
                                        "doc_created_date", "timestamp_from_client"], line_rows)
    for rows in (batch_rows, item_rows, doc_rows, line_rows):
        rows.clear()
