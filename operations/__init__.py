"""What runs beside the service, and how it runs: the operator's commands, settings, logs, serving.

cli.py holds the `flask --app app` commands (keys, customers, products, check,
demo) and registers those that live beside their work: upgrades.py (migrations,
`db upgrade`), backups.py (automatic backups, rotation, backup and restore),
demo.py (a believable depot). Taking and checking a copy, and the depot's identity,
live in safekeeping/, below, where the backups page takes one too: backups uses
upgrades, both use safekeeping, never back. settings.py reads every setting,
logs.py sets up logging and the access line, serving.py runs waitress and stops
it cleanly, compression.py compresses text answers for the clients that accept it
(Flask-Compress).

May import: safekeeping/, stock/, storage/, models and schemas (a command loads its
input as the API does). Nothing here answers HTTP. Only app.py imports this package.
"""
