"""Text answers compressed for the clients that accept it (DESIGN 30), by Flask-Compress.

HTML, JSON, CSS, JavaScript, CSV and SVG, of 500 bytes and more, in the first encoding of the
lists below that the client's Accept-Encoding names (chromium asks for all four, with equal
weight: the order here decides). An answer under way as it is read (a whole /v1 list, a CSV
download: routes/streaming.py, pages/common.py `csv_response`) stays so: the library compresses
it piece by piece as it is written. Brotli is left out of those: at the levels that are cheap
enough to run per request it holds back everything until it has read megabytes, so a long list
would arrive in one go at its end; zstd sends its first bytes after about 200 KB of rows, gzip
after its first 32 KB. Answers whose status is not 2xx (every JSON error) are left as they are.
"""
from flask_compress import Compress

MIMETYPES = ["text/html", "application/json", "text/css", "text/javascript", "application/javascript",
             "text/csv", "image/svg+xml"]
SETTINGS = {
    "COMPRESS_MIMETYPES": MIMETYPES,
    "COMPRESS_ALGORITHM": ["br", "zstd", "gzip"],
    "COMPRESS_ALGORITHM_STREAMING": ["zstd", "gzip"],
    "COMPRESS_MIN_SIZE": 500,  # a smaller answer fits its packet as it is
    # A streamed answer's ETag would need the whole answer first.
    "COMPRESS_STREAMING_ENDPOINT_CONDITIONAL": [],
}


class Compression(Compress):
    """Flask-Compress, closing what a streamed answer reads from however the answer ends.

    The library puts its compressing generator in the answer's place; closing the answer then
    closes that generator, which may never have started on the original pieces (a client gone
    before the first byte), and so never closes them. The original pieces (storage/db.py
    `HandedOver`: the request's session, its snapshot and its cursor) are closed with the answer.
    """

    def after_request(self, response):
        pieces = response.response
        response = super().after_request(response)
        if response.response is not pieces and hasattr(pieces, "close"):
            response.call_on_close(pieces.close)
        return response


def register(app) -> None:
    for name, value in SETTINGS.items():
        app.config.setdefault(name, value)
    Compression(app)
