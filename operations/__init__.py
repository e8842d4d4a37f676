"""What the depot's operator runs beside the service: upgrades, backups, the demo depot.

Commands here work on the storage (storage/db.py) and call the stock rules; nothing
here answers HTTP. Their click commands live beside them; cli.register adds them to
`flask --app app`.
"""
