"""Keys and products kept in memory between requests, until the database changes.

Every /v1 request proves its key, and scanners ask for one product after another
all day. Read from SQLite, those two lookups cost about thirty releases of the GIL
a request (the sqlite3 module releases it around each step and each column), and
under waitress's threads each release hands the GIL to another thread: the
product GET ran at a third of a bare Flask route (docs/performance.md, row a).

A change mark says when to forget: 8 bytes in a file beside the SQLite database
(`warehouse.db-changes`), opened by every process that opens the database
through create_app (the service and the CLI alike). Every write transaction puts
fresh random bytes there once it has committed or failed (db.writing). A reader
reads the mark before it reads the database, and keeps what it read under that
mark; a different mark means everything kept is forgotten. Reading the mark is
one pread of 8 bytes from the page cache.

What is kept is also forgotten after MAX_AGE seconds, so that a change made by
other means (the sqlite3 shell, a writer killed between its commit and its
mark) shows within that time.

The file may be truncated or deleted under running processes (by hand, by a
clean-up script). A truncated mark reads short, which is just another mark, and
the next write makes it whole. A deleted one lives on for the processes that
have it open, while a new process makes a new file: every write, and every
reader once per MAX_AGE, checks that the path still names the file it has open
and opens it again if not. (The mark was once mapped into memory: a truncation
then killed every process with SIGBUS.)

On PostgreSQL nothing is kept: several machines may serve one database, and they
share no memory to put a mark in.
"""
import mmap
import os
import secrets
import time
from typing import Callable, NamedTuple
from weakref import WeakKeyDictionary

MAX_AGE = 1.0  # seconds

# The mark of each engine that has one (SQLite files), for db.writing to move.
marks: WeakKeyDictionary = WeakKeyDictionary()


class ChangeMark:
    """8 bytes in a file, shared through the page cache by every process that opens it."""

    SIZE = 8

    def __init__(self, path: str, mode: int = 0o644):
        self.path, self.mode = path, mode
        self._fd: int | None = None
        self._map = None
        self._identity = None
        self._retired: list[int] = []
        self._open()

    def _open(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), self.mode)
        status = os.fstat(fd)
        if not hasattr(os, "pread"):
            # Windows has no pread, and refuses to truncate or delete a mapped file.
            if status.st_size < self.SIZE:
                os.ftruncate(fd, self.SIZE)
            self._map = mmap.mmap(fd, self.SIZE)
        elif status.st_size < self.SIZE:
            os.pwrite(fd, secrets.token_bytes(self.SIZE), 0)
        if self._fd is not None:
            # Another thread may be reading the old descriptor right now: closing it
            # could hand its number to an unrelated file. Kept until the mark goes.
            self._retired.append(self._fd)
        self._identity = (status.st_dev, status.st_ino)
        self._fd = fd

    def read(self) -> bytes:
        if self._map is not None:
            return self._map[:self.SIZE]
        return os.pread(self._fd, self.SIZE, 0)

    def move(self) -> None:
        self.follow()
        if self._map is not None:
            self._map[:self.SIZE] = secrets.token_bytes(self.SIZE)
        else:
            os.pwrite(self._fd, secrets.token_bytes(self.SIZE), 0)  # also mends a truncation

    def follow(self) -> None:
        """Open the file again if the path no longer names the one open (deleted, replaced)."""
        try:
            status = os.stat(self.path)
            if (status.st_dev, status.st_ino) == self._identity:
                return
        except FileNotFoundError:
            pass
        self._open()

    def __del__(self, _close=os.close):  # os may be gone when the interpreter exits
        for fd in [self._fd, *self._retired]:
            if fd is not None:
                _close(fd)


def database_changed(engine) -> None:
    """Tell every process's cache that what it keeps may be old (after a commit)."""
    mark = marks.get(engine)
    if mark is not None:
        mark.move()


class _Kept(NamedTuple):
    mark: bytes
    until: float
    entries: dict


class Cache:
    """What load() gave for a key, until the mark moves or MAX_AGE passes.

    Safe between threads without a lock: a lookup works on the _Kept it read,
    and a new mark replaces the whole _Kept at once; a value loaded under an
    old mark lands in a dict nobody reads any more. What it returns is shared
    by every request that asks: never change it.
    """

    def __init__(self, mark: ChangeMark | None, clock: Callable[[], float] = time.monotonic):
        self.mark = mark
        self.clock = clock
        self._kept = _Kept(b"", 0.0, {})

    def get(self, key, load: Callable):
        if self.mark is None:
            return load()
        mark = self.mark.read()  # before the database is read, never after
        kept = self._kept
        now = self.clock()
        if now >= kept.until:
            self.mark.follow()  # a deleted file is left for the new one within MAX_AGE
            mark = self.mark.read()
            kept = self._kept = _Kept(mark, now + MAX_AGE, {})
        elif kept.mark != mark:
            kept = self._kept = _Kept(mark, now + MAX_AGE, {})
        try:
            return kept.entries[key]
        except KeyError:
            value = kept.entries[key] = load()
            return value


def for_engine(engine, database_file: str | None) -> Cache:
    """A cache for an app on this engine: with a change mark beside its SQLite file, if it has one."""
    if database_file is None:
        return Cache(None)
    if engine not in marks:
        database = os.path.realpath(database_file)  # one mark, however the path is spelled
        # Whoever may write the database must be able to move the mark.
        mode = os.stat(database).st_mode & 0o666 if os.path.exists(database) else 0o644
        marks[engine] = ChangeMark(database + "-changes", mode)
    return Cache(marks[engine])
