"""Who a request came from: the names routes/ and pages/ leave for the access line and the audit trail.

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
