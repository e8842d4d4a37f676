"""The client of a request: its address, whether it came over HTTPS, and the name it is logged under.

The lowest floor of the web layers: routes/, pages/ and operations/logs.py import it; it
imports nothing of the project.
"""

# Where the key check or the session leaves the caller's name for the access line (never the key itself).
KEY_NAME = "warehouse.key_name"


def client_address(environ: dict, trusted_proxy: str | None) -> str:
    """The client's address: the connection's, or behind the trusted proxy the one it forwarded.

    Only the proxy named by WAREHOUSE_TRUSTED_PROXY is believed: anyone else could write any
    X-Forwarded-For. The proxy appends the address it saw last, so the last entry is the one
    it vouches for.
    """
    remote = environ.get("REMOTE_ADDR") or ""
    if trusted_proxy and remote == trusted_proxy:
        forwarded = [hop.strip() for hop in environ.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
        if forwarded:
            return forwarded[-1]
    return remote


def came_over_https(environ: dict, trusted_proxy: str | None) -> bool:
    """Whether the client's request came over HTTPS: to us, or to the trusted proxy (X-Forwarded-Proto)."""
    if environ.get("wsgi.url_scheme") == "https":
        return True
    if trusted_proxy and environ.get("REMOTE_ADDR") == trusted_proxy:
        return environ.get("HTTP_X_FORWARDED_PROTO", "").split(",")[-1].strip().lower() == "https"
    return False
