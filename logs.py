"""How the service logs: one access line per request, and the console set-up of `python app.py`."""
import logging
import time

access_log = logging.getLogger("warehouse.access")

# Where the key check leaves the key's name for the access line (never the key itself).
KEY_NAME = "warehouse.key_name"


class AccessLog:
    """WSGI middleware: `METHOD path status 1.2ms keyname` once the app has answered.

    A middleware rather than Flask hooks: it times the whole of Flask's work, and
    costs one call a request instead of two hooks that each look up the request.
    """

    def __init__(self, wsgi_app):
        self.wsgi_app = wsgi_app

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
                access_log.info("%s %s %s %.1fms %s", environ["REQUEST_METHOD"],
                                readable_path(environ.get("PATH_INFO", "")),
                                status[-1] if status else "-",
                                (time.perf_counter() - started) * 1000, environ.get(KEY_NAME, "-"))


def readable_path(path_info: str) -> str:
    """The path as the client wrote it (WSGI hands it over as Latin-1), one line whatever it holds."""
    path = path_info.encode("latin-1").decode("utf-8", "replace")
    return path if path.isprintable() else path.encode("unicode_escape").decode("ascii")


def configure() -> None:
    """Console logging for `python app.py`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
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
