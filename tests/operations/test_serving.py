"""operations/serving.py: what waitress refuses before the app sees it is answered in the JSON error shape."""
import json
import socket
import time

import pytest


def raw_request(server, request_line: bytes) -> tuple[bytes, dict]:
    """Send bytes as they are (no client would let us put a raw 0xFF in a URL) and read the answer."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request_line + b"\r\nHost: 127.0.0.1\r\nTS-Apikey: "
                     + server.api_key.encode() + b"\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, json.loads(body)


@pytest.mark.parametrize("target", [b"/v1/documents/?state=\xff", b"/v1/products/\xc3\x28"])
def test_a_raw_non_ascii_byte_in_the_target_is_a_json_400(live_server, target):
    server = live_server(threads=1)
    head, body = raw_request(server, b"GET " + target + b" HTTP/1.1")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert b"Content-Type: application/json" in head
    assert body["error"]["status"] == 400 and body["error"]["code"] == "bad_request"
    # The same query percent-encoded reaches the service, which names the parameter.
    head, body = raw_request(server, b"GET /v1/documents/?state=%FF HTTP/1.1")
    assert head.startswith(b"HTTP/1.1 422 ") and "state" in body["error"]["fields"]


# --- connections that send nothing (DESIGN 22) ------------------------------------------------

def idle_connections(port: int, count: int, partial_every: int = 3) -> list[socket.socket]:
    """`count` connections from this address that send nothing more: every `partial_every`-th
    sent half a request line first (a scanner cut off mid-request)."""
    opened = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if n % partial_every == 0:
            sock.sendall(b"POST /v1/batches/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        opened.append(sock)
    return opened


def closed_by_the_server(sock: socket.socket, budget: float) -> bool:
    sock.settimeout(budget)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_400_idle_connections_do_not_keep_a_new_client_waiting(live_server, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_IDLE_TIMEOUT", "3")
    server = live_server(threads=2)
    opened = idle_connections(server.port, 400)
    try:
        started = time.monotonic()
        status, health = server.request("GET", "/health", timeout=2.0)  # a 2 s bound, or OSError
        assert status == 200, health
        assert time.monotonic() - started < 2.0
        status, _ = server.request("GET", "/v1/products/", timeout=2.0)
        assert status == 200
        # Idle and half-sent connections are closed after the idle timeout (and the
        # maintenance that finds them, a quarter of it later).
        deadline = time.monotonic() + 15
        assert all(closed_by_the_server(sock, max(deadline - time.monotonic(), 0.01)) for sock in opened)
    finally:
        for sock in opened:
            sock.close()


def test_beyond_the_connection_limit_new_clients_wait_for_the_idle_to_be_closed(live_server, monkeypatch):
    monkeypatch.setenv("WAREHOUSE_IDLE_TIMEOUT", "2")
    monkeypatch.setenv("WAREHOUSE_CONNECTION_LIMIT", "30")
    server = live_server(threads=2)
    opened = idle_connections(server.port, 40)
    try:
        with pytest.raises(OSError):  # not accepted while the limit is reached: no answer
            server.request("GET", "/health", timeout=1.0)
        deadline = time.monotonic() + 15
        answered = False
        while not answered and time.monotonic() < deadline:
            try:
                answered = server.request("GET", "/health", timeout=1.0)[0] == 200
            except OSError:
                pass
        assert answered  # the idle ones were closed, and new clients are taken again
        assert "connection limit" in server.log()
    finally:
        for sock in opened:
            sock.close()
