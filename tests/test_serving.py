"""operations/serving.py: what waitress refuses before the app sees it is answered in the JSON error shape."""
import json
import socket

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
