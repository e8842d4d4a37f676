"""How the service logs: one access line per request, audit lines, and where lines go."""
import getpass
import logging
import logging.handlers
import sys
import time

from identity.client import KEY_NAME, client_address
from storage import outage

access_log = logging.getLogger("warehouse.access")
# Changes an operator may have to account for later: keys, imports, restores, upgrades.
audit = logging.getLogger("warehouse.audit")

FORMAT = "%(asctime)s %(name)s %(message)s"



class AccessLog:
    """WSGI middleware: `client METHOD path status 1.2ms keyname` once the app has answered.

    A middleware rather than Flask hooks: it times the whole of Flask's work, and
    costs one call a request instead of two hooks that each look up the request.
    """

    def __init__(self, wsgi_app, config: dict | None = None):
        self.wsgi_app = wsgi_app
        # The app's config, read at each request: behind the trusted proxy the line names the
        # scanner, not the proxy.
        self.config = config if config is not None else {}

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        status = []

        def note_status(status_line, headers, exc_info=None):
            status.append(status_line[:3])
            return start_response(status_line, headers, exc_info)

        try:
            return self.wsgi_app(environ, note_status)
        finally:
            if access_log.isEnabledFor(logging.INFO):
                access_log.info("%s %s %s %s %.1fms %s",
                                client_address(environ, self.config.get("TRUSTED_PROXY")) or "-",
                                environ["REQUEST_METHOD"],
                                readable_path(environ.get("PATH_INFO", "")),
                                status[-1] if status else "-",
                                (time.perf_counter() - started) * 1000, environ.get(KEY_NAME, "-"))


def readable_path(path_info: str) -> str:
    """The path as the client wrote it (WSGI hands it over as Latin-1), one line whatever it holds."""
    path = path_info.encode("latin-1").decode("utf-8", "replace")
    return path if path.isprintable() else path.encode("unicode_escape").decode("ascii")


# Libraries whose INFO lines say nothing an operator acts on (Alembic's "Context impl
# SQLiteImpl", "Will assume transactional DDL", each migration's name: the service logs one
# line of its own for an upgrade). At WAREHOUSE_LOG_LEVEL=debug they speak again.
CHATTY = ("alembic",)
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def configure(log_file: str | None = None, max_mb: float = 10, keep: int = 5, level: str = "info") -> None:
    """Logging for `python app.py`: the console, and a file that rotates when one is set."""
    handlers = [logging.StreamHandler()]
    if log_file:
        handlers.append(rotating_file(log_file, max_mb, keep))
    logging.basicConfig(level=LEVELS[level], format=FORMAT, handlers=handlers)
    for name in CHATTY:
        logging.getLogger(name).setLevel(logging.DEBUG if level == "debug" else logging.WARNING)
    if level != "debug":
        outage.quiet_pool_log()
    # The logging HOWTO's optimisations: no log line of ours names a thread, a
    # process or a source line, and finding them costs more than the line.
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logging._srcfile = None
    # waitress's "Task queue depth" warnings stay on, as waitress has them: they
    # say requests are waiting for a thread. Observed, not explained (GIL
    # scheduling, most likely): with them silenced, the product GET fell from
    # about 0.8 to 0.3-0.5 of bare Flask in make bench's row a. The bare
    # baseline, like any waitress app, logs them too.


def rotating_file(path: str, max_mb: float, keep: int) -> logging.Handler:
    """At most `keep` old files of `max_mb` each beside the current one: the disk of a depot
    PC that runs for years never fills with logs."""
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=int(max_mb * 1024 * 1024),
                                                   backupCount=keep, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    return handler


def configure_for_command(log_file: str | None, max_mb: float, keep: int) -> None:
    """A `flask --app app` command's audit lines: to standard error and the service's log file.

    Nothing when logging is set up already (the service's process, pytest).
    """
    root = logging.getLogger()
    if root.handlers:
        return
    console = logging.StreamHandler(sys.stderr)
    console.setFormatter(logging.Formatter(FORMAT))
    root.addHandler(console)
    if log_file:
        root.addHandler(rotating_file(log_file, max_mb, keep))
    audit.setLevel(logging.INFO)


def who(command: str) -> str:
    """The command and the system user that ran it, for an audit line."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no user name to be found (a bare container)
        user = "unknown user"
    return f"{command!r} run by {user}"
