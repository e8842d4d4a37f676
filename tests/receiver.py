"""A webhook receiver for the tests: http.server on 127.0.0.1 in a thread, recording what comes."""
import hashlib
import hmac
import http.server
import json
import threading
import time

WAIT = 20.0  # seconds any wait of these tests may take at most


def wait_for(check, timeout=WAIT):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("not within the time allowed")


class Receiver:
    """A webhook receiver: records each request; answers the statuses of `plan` first, then 200.

    `answer`, when set, is the body of every answer; `location` the Location header of a 3xx.
    """

    def __init__(self, port: int = 0):
        self.received = []
        self.plan = []
        self.answer = None
        self.location = None
        self.hang = threading.Event()  # while set, requests wait (at most WAIT) for `released`
        self.released = threading.Event()
        self.hanging = threading.Event()  # set once a request waits
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.received.append((dict(self.headers), body))
                if receiver.hang.is_set():
                    receiver.hanging.set()
                    receiver.released.wait(WAIT)
                status = receiver.plan.pop(0) if receiver.plan else 200
                self.send_response(status)
                if receiver.location and 300 <= status < 400:
                    self.send_header("Location", receiver.location)
                self.end_headers()
                self.wfile.write(receiver.answer or (b"thanks" if status == 200 else b"try later"))

            do_GET = do_POST  # a followed redirect comes as a GET: recorded, so a test sees it

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def events(self):
        return [json.loads(body) for _, body in self.received]

    def stop(self):
        self.released.set()
        self.server.shutdown()
        self.server.server_close()


def verify(secret: str, header: str, body: bytes) -> bool:
    parts = dict(part.split("=", 1) for part in header.split(","))
    expected = hmac.new(secret.encode(), f"{parts['t']}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"]) and abs(time.time() - int(parts["t"])) < 300
