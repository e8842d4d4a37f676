"""How `python app.py` serves: waitress, with the requests it refuses itself answered in JSON.

waitress parses the request line and headers before the app sees anything, and
answers what it cannot parse (a raw non-ASCII byte in the query, say) with a
text/plain page. Clients read every error as the JSON body of DESIGN 3, so its
error task writes that body instead.
"""
import json

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import ErrorTask

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


def serve(app, **adjustments) -> None:
    """waitress.serve, but every listening socket's connections answer their errors in JSON."""
    server = create_server(app, **adjustments)
    for listener in [server, *getattr(server, "map", {}).values()]:
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = JSONErrorChannel
    server.print_listen("Serving on http://{}:{}")
    server.run()
