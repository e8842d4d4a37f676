"""The URL converters of /v1 paths: record numbers and product codes."""
from werkzeug.routing import BaseConverter, IntegerConverter


class NumberConverter(IntegerConverter):
    """A batch or document number: beyond the 64-bit column none can exist, so 404 from routing."""

    def __init__(self, url_map):
        super().__init__(url_map, max=2 ** 63 - 1)


class CodeConverter(BaseConverter):
    """A code as the rest of the path: any characters, slashes included, even a leading one.

    Werkzeug's `path` converter refuses a leading slash (and the router then
    redirects `//` to `/`), so a product code "/A" could not be reached.
    """

    regex = ".+"
    part_isolating = False
