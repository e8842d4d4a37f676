"""Who a request came from: the names routes/ and pages/ leave for the access line and the audit trail.

The lowest floor of the web layers: routes/, pages/ and operations/logs.py import it; it
imports nothing of the project.
"""

# Where the key check or the session leaves the caller's name for the access line (never the key itself).
KEY_NAME = "warehouse.key_name"
