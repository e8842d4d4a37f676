"""Serving with waitress until told to stop, and stopping so that the database file is whole.

waitress.serve() ends on Ctrl-C with its loop already stopped, so answers that
threads finish afterwards are never sent, and SIGTERM ends the process at once.
Here a stop signal (SIGTERM, Ctrl-C, Ctrl-Break on Windows) ends only the taking
of new connections: requests under way are finished and their answers sent
(within GRACE seconds), then `on_stop` runs (the WAL checkpoint) and serve returns.
The signals are caught from the start of start-up (catch_stop_signals): a stop
that comes while the service is still starting is kept until it serves, and
then it stops at once, the same way.

waitress also answers what it cannot parse itself (a raw non-ASCII byte in the
query, say), before the app sees anything, with a text/plain page. Clients read
every error as the JSON body of DESIGN 3, so its error task writes that body.
"""
import errno
import gc
import json
import logging
import math
import os
import signal
import socket
import threading
import time

import waitress
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import ErrorTask

log = logging.getLogger("warehouse")

CODES = {400: "bad_request", 413: "payload_too_large", 500: "internal_error"}


class JSONErrorTask(ErrorTask):
    def execute(self):
        error = self.request.error
        body = json.dumps({"error": {
            "status": error.code, "code": CODES.get(error.code, "bad_request"),
            "message": f"{error.reason}: {error.body}"}}).encode("utf-8")
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JSONErrorChannel(HTTPChannel):
    error_task_class = JSONErrorTask


GRACE = 30.0  # seconds for requests under way to finish once a stop is asked
LOOP_TIMEOUT = 0.5  # seconds; how soon the loop notices a stop that did not wake it


class _Wakeup(wasyncore.dispatcher):
    """The read end of signal.set_wakeup_fd in the loop's map. Python retries a select()
    that a signal interrupted with the time left, so without a byte to read the loop would
    notice a stop only after LOOP_TIMEOUT (a stop then took 0.3-0.8 s)."""

    def writable(self):
        return False

    def handle_read(self):
        self.recv(512)  # the signal numbers; the stop flag says what to do


class PortInUse(Exception):
    """The address to listen on is taken (or not ours to take); the message says which and how to change it."""


def bind(host: str, port: int) -> socket.socket:
    """The listening socket, taken before anything else happens at start-up: a service that
    cannot listen must fail before it writes anything (an upgrade copy, a backup)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        # create_server sets SO_REUSEADDR on POSIX only (on Windows it would let two
        # processes share the port).
        return socket.create_server((host, port), family=family, backlog=1024)
    except OSError as error:
        reason = "it is already in use (address already in use)" if error.errno in (
            errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)) else error.strerror or str(error)
        raise PortInUse(f"cannot listen on {host} port {port}: {reason}. Choose another port with "
                        f"WAREHOUSE_PORT or --port (or another address with WAREHOUSE_HOST or --host).") \
            from None


def connection_adjustments(idle_timeout: int, connection_limit: int) -> dict:
    """waitress's settings for connections that send nothing (DESIGN 22).

    A scanner that lost the Wi-Fi mid-request, or a port scan, leaves a connection open
    that holds no thread but counts against waitress's connection limit (100 by default):
    once it is reached waitress accepts nobody until its maintenance, every
    `cleanup_interval`, closes connections idle for `channel_timeout` (120 s by default),
    so 200 idle connections kept a new client waiting for minutes. Here the limit is high,
    idle connections go after `idle_timeout` (checked four times as often), and poll()
    replaces select(), which cannot watch a descriptor numbered above 1023.
    """
    return {"channel_timeout": idle_timeout, "connection_limit": connection_limit,
            "cleanup_interval": max(1, math.ceil(idle_timeout / 4)), "asyncore_use_poll": True,
            # X-Forwarded-For and -Proto reach the app, which believes them only from
            # WAREHOUSE_TRUSTED_PROXY (identity/client.py); waitress 3 would drop them before.
            "clear_untrusted_proxy_headers": False}


def allow_open_files(wanted: int) -> None:
    """Raise the process's soft limit of open files towards `wanted` (up to the hard limit):
    every connection is a descriptor, and many systems start processes at 1024."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


class StopAsked(threading.Event):
    """Set by a stop signal; `serving` tells the signal whether start-up is over."""

    serving = False


def catch_stop_signals() -> StopAsked:
    """From now on a stop signal only sets the event this returns; serve_until_stopped acts on it.

    Called before start-up writes anything. While the signals were caught only once
    waitress served, a SIGTERM during start-up ended the process where it stood (and
    Ctrl-C raised KeyboardInterrupt there): what start-up had written (its keys, this
    process's presence row, the lease) stayed in the -wal file, the threads that write
    were never joined, the WAL never emptied. Start-up is short, and a migration is
    better finished than cut; a second stop still ends the process at once, for the
    operator who will not wait (the WAL then stays beside the database, as before).
    """
    stop = StopAsked()

    def ask_to_stop(signum, _frame):
        if stop.is_set():
            log.warning("a second stop: ending at once, without emptying the WAL")
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        if not stop.serving:
            log.info("stop asked during start-up: the service stops once start-up is done "
                     "(a second stop ends it at once)")
        # Only a flag: serve_until_stopped's loop notices it within LOOP_TIMEOUT.
        stop.set()

    for name in ("SIGTERM", "SIGINT", "SIGBREAK"):  # SIGBREAK: Ctrl-Break in a Windows console
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), ask_to_stop)
    return stop


def serve_until_stopped(app, sock: socket.socket, threads: int, stop: StopAsked, on_stop=None,
                        **adjustments) -> None:
    """Serve on the bound socket until `stop` is set (catch_stop_signals); at once if it already
    is. `adjustments` are waitress's."""
    # waitress keeps its own (1 GB) body limit, so that Flask answers an oversized
    # body with the JSON 413 first.
    server = waitress.create_server(app, sockets=[sock], threads=threads, **adjustments)
    for listener in [server, *getattr(server, "map", {}).values()]:
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = JSONErrorChannel

    reader, writer = socket.socketpair()
    writer.setblocking(False)
    wakeup = _Wakeup(reader, map=server._map)
    previous_fd = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)

    use_poll = server.adj.asyncore_use_poll
    stop.serving = True
    while not stop.is_set():
        wasyncore.loop(timeout=LOOP_TIMEOUT, map=server._map, use_poll=use_poll, count=1)
    signal.set_wakeup_fd(previous_fd)
    wakeup.close()
    writer.close()

    log.info("stopping: no new connections; finishing the requests under way")
    server.del_channel()
    server.socket.close()
    deadline = time.monotonic() + GRACE
    while _close_idle(server) and time.monotonic() < deadline:
        wasyncore.loop(timeout=0.05, map=server._map, use_poll=use_poll, count=1)
    if _close_idle(server):
        log.warning("stopping with requests still under way after %ss", GRACE)
    server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)
    wasyncore.close_all(server._map)
    if on_stop is not None:
        on_stop()
    log.info("stopped")


def _close_idle(server) -> bool:
    """Close every connection with nothing under way; whether any has a request still.

    A kept-alive connection whose answer went out is closed here, before its client
    can send it another request.
    """
    under_way = False
    for channel in list(server._map.values()):
        if isinstance(channel, HTTPChannel):
            if channel.requests or channel.total_outbufs_len:
                under_way = True
            else:
                channel.handle_close()
    return under_way


def settle_start_up() -> None:
    """Just before serving: the objects start-up made (Flask's, SQLAlchemy's and marshmallow's
    tables, the app's schemas: about 125,000) are set aside from the garbage collector's walks.

    They live as long as the process, yet every full collection walked them all again: 80-90 ms
    on 2 cores, once every 30 or so 1000-item bookings, paid by whichever request set it off
    (docs/performance-growth.md, fourth pass). Set aside, a full collection walks only what the
    requests made. What start-up left as garbage is freed first, so nothing collectable is set
    aside; called before the background threads start, so that nothing of theirs is."""
    gc.collect()
    gc.freeze()


def skip_final_collections() -> None:
    """For a process about to end, its storage closed: the interpreter's last garbage
    collections would walk every object the libraries made (about 0.2 s on 2 cores) to free
    memory the exit frees anyway. Frozen, they are skipped."""
    gc.freeze()
