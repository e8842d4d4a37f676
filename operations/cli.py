"""Commands for the depot's administrator: `flask --app app keys|users|customers|products|check|demo ...`."""
import atexit
import csv
import io
import json
import os
import sys
from decimal import Decimal

import click
from flask import current_app
from flask.cli import AppGroup, FlaskGroup, with_appcontext
from marshmallow import ValidationError
from sqlalchemy.engine import make_url

from identity import api_keys, people
from language.choice import depot_language
from operations import backups, logs, serving, settings, upgrades
from schemas import ENCODINGS, customer_row_schema, product_schema
from stock import batch_numbers, catalog, placement, reports
from stock.audit import cli_actor
from stock.errors import ServiceError
from stock.quantities import from_milli
from storage.db import db, sqlite_file
from transfer import importing
from version import VERSION

keys = AppGroup("keys", help="Issue, list and revoke API keys.")
users = AppGroup("users", help="Add people who sign in to the pages; list them, set passwords, change their "
                                "role or warehouses, disable and enable them.")
customers = AppGroup("customers", help="Load customers from a CSV file.")
products = AppGroup("products", help="Load products from a JSON Lines file.")

CUSTOMER_COLUMNS = ["id_customer", "name", "registration_number", "tax_id", "vat_number",
                    "street", "city", "zip", "country"]


# The commands meant to make a database: every other one refuses a SQLite file that does not
# exist, rather than make an empty one wherever it was run (and then find no keys, no stock).
CREATING_COMMANDS = (("db", "upgrade"), ("demo",))
# Commands that never open the database: they run wherever they are asked.
DATABASELESS_COMMANDS = (("version",), ("settings",))
PENDING = "warehouse_database_pending"


def register(app) -> None:
    if in_flask_command(click.get_current_context(silent=True)):
        # The process ends with the command (outside one, the service and tests close their own).
        atexit.register(close_before_exit, app)
    app.cli = DatabaseCheckedGroup(app.cli)
    for group in (keys, users, customers, products):
        app.cli.add_command(group)
    app.cli.add_command(check)
    app.cli.add_command(import_file)
    app.cli.add_command(upgrades.db_commands())
    app.cli.add_command(backups.backup_command)
    app.cli.add_command(backups.restore_command)
    app.cli.add_command(demo)
    app.cli.add_command(version)
    app.cli.add_command(list_settings)


def in_flask_command(context) -> bool:
    return context is not None and isinstance(context.find_root().command, FlaskGroup)


def close_before_exit(app) -> None:
    """The database closed, so that a SQLite file takes back its WAL as after a stop of the
    service; then the process ends without its last garbage collections."""
    with app.app_context():
        db.engine.dispose()
    serving.skip_final_collections()


def open_database_unless_refused(app, open_database) -> None:
    """Open the database now, or refuse the flask command being run, or wait until it is named.

    Outside the flask command (the service, tests) it opens at once. The flask
    command loads the app before it knows an app command's name (keys, demo...):
    that decision waits for DatabaseCheckedGroup.
    """
    context = click.get_current_context(silent=True)
    path = sqlite_file(make_url(app.config["SQLALCHEMY_DATABASE_URI"]))
    if not in_flask_command(context) or path is None or os.path.exists(path):
        open_database()
        return
    words = command_words(context)
    if not words:
        app.extensions[PENDING] = (open_database, path)
    elif creates(words):
        open_database()
    else:
        refuse(path)


def command_words(context) -> tuple:
    """("db", "upgrade") for `flask --app app db upgrade`: the names below the flask command."""
    words = []
    while context.parent is not None:
        words.append(context.info_name)
        context = context.parent
    return tuple(reversed(words))


def creates(words: tuple) -> bool:
    return any(words[:len(command)] == command for command in CREATING_COMMANDS)


def refuse(path: str):
    fail(f"No database at {path}. Run this where the service runs, or set DATABASE_URL "
         "to the service's database.")


class DatabaseCheckedGroup(AppGroup):
    """The app's commands, each refusing a missing SQLite file unless it is meant to make one."""

    def __init__(self, original: AppGroup):
        super().__init__(name=original.name, commands=original.commands)

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        pending = current_app.extensions.pop(PENDING, None) if current_app else None
        if command is None or pending is None:
            return command
        return checked(command, (name,), pending)


def checked(command, words: tuple, pending: tuple):
    """The command as it may run while the SQLite file is missing: itself when it makes the
    database, a group whose own commands are checked in turn (`db`), else a refusal."""
    open_database, path = pending
    if creates(words):
        open_database()
        return command
    if words in DATABASELESS_COMMANDS:
        return command
    if isinstance(command, click.Group) and any(made[:len(words)] == words for made in CREATING_COMMANDS):
        return CheckedGroup(command, words, pending)
    current_app.extensions[PENDING] = pending  # `--help` asks for every command's name
    # A stand-in, so that a list of commands still shows this one's help.
    return click.Command(command.name, help=command.help, short_help=command.short_help,
                         callback=lambda **_: refuse(path),
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


class CheckedGroup(click.Group):
    """A group of commands of which some make the database (`db upgrade`) and the rest refuse."""

    def __init__(self, group: click.Group, words: tuple, pending: tuple):
        super().__init__(name=group.name, commands=group.commands, help=group.help,
                         params=group.params, callback=group.callback)
        self.words, self.pending = words, pending

    def get_command(self, ctx, name):
        command = super().get_command(ctx, name)
        return None if command is None else checked(command, (*self.words, name), self.pending)


@click.command("version")
def version():
    """Print the release this code is."""
    click.echo(f"warehouse service {VERSION}")


@click.command("settings")
def list_settings():
    """Every setting: its environment variable, its value here, its default and what it sets."""
    settings.check_all()
    for name, flag, default, meaning in settings.SETTINGS:
        value = os.environ.get(name, "").strip()
        shown = "(hidden)" if value and name == "WAREHOUSE_API_KEY" else value or "(default)"
        click.echo(f"{name}={shown}  default {default}{f', flag {flag}' if flag else ''}: {meaning}")


def fail(message: str):
    raise click.ClickException(message)


def audit(message: str, *args) -> None:
    """One audit line naming the command and the user that ran it (logs.py)."""
    config = settings.server_config()
    logs.configure_for_command(config["log_file"], config["log_max_mb"], config["log_keep"])
    logs.audit.info(message + " by %s", *args, logs.who(click.get_current_context().command_path))


@keys.command("create")
@click.option("--name", required=True)
@click.option("--role", required=True, type=click.Choice(api_keys.ROLES))
@click.option("--warehouses", default="", help="Comma-separated warehouse ids; all when left out.")
def create_key(name, role, warehouses):
    """Issue a key; it is printed once, alone on the last line."""
    ids = warehouse_ids(warehouses)
    try:
        key = api_keys.create_key(db.session, name, role, ids, actor=cli_actor())
    except ServiceError as error:
        fail(error.message)
    audit("key %r (%s, warehouses %s) created", name, role, ids or "all")
    click.echo(f"Key {name!r} ({role}) created. It is shown only this once:", err=True)
    click.echo(key)


@keys.command("list")
def list_keys():
    """Names, roles, warehouses and state of every key (never the key itself), and the batch numbers
    reserved for it (the browser scanner's blocks, DESIGN 25)."""
    blocks = batch_numbers.blocks_by_key(db.session)
    for key in api_keys.list_keys(db.session):
        state = f"revoked {key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "active"
        reserved = f"\tbatch numbers {numbers_text(blocks[key.id])}" if key.id in blocks else ""
        click.echo(f"{key.name}\t{key.role}\t{key.warehouses or 'all'}\t{state}{reserved}")


def numbers_text(blocks: list[tuple[int, int]], shown: int = 3) -> str:
    """`1-100, 201-300`; the newest blocks when there are many, with how many came before."""
    ranges = ", ".join(f"{first}-{last}" for first, last in blocks[-shown:])
    earlier = len(blocks) - shown
    return f"{ranges} (and {earlier} earlier block(s))" if earlier > 0 else ranges


@keys.command("revoke")
@click.argument("name")
def revoke_key(name):
    """Revoke a key by name; it stops working at the next request."""
    try:
        api_keys.revoke_key(db.session, name, actor=cli_actor())
    except ServiceError as error:
        fail(error.message)
    audit("key %r revoked", name)
    click.echo(f"Key {name!r} revoked.")


def warehouse_ids(text: str) -> list[int]:
    try:
        ids = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail("--warehouses takes warehouse numbers separated by commas, e.g. 1,2")
    if any(i < 0 for i in ids):
        fail("--warehouses takes warehouse numbers separated by commas, e.g. 1,2")
    return ids


def ask_password(name: str) -> str:
    """Twice on a terminal (hidden); one line from standard input when that is not a terminal."""
    stdin = sys.stdin
    if stdin.isatty():
        return click.prompt(f"Password for {name}", hide_input=True, confirmation_prompt=True)
    line = stdin.readline()
    if not line:
        fail("No password: give it on standard input, one line.")
    return line.rstrip("\r\n")


@users.command("create")
@click.argument("name")
@click.option("--role", required=True, type=click.Choice(api_keys.ROLES))
@click.option("--warehouses", default="", help="Comma-separated warehouse ids; all when left out.")
@click.option("--language", default="", type=click.Choice(("",) + people.LANGUAGES),
              help="The person's own language for the pages; the depot's when left out.")
def create_person(name, role, warehouses, language):
    """Add a person who signs in to the pages; the password is asked for (at least 10 characters)."""
    ids = warehouse_ids(warehouses)
    try:
        people.check_name(name)
        people.check_role(role)
        people.create_person(db.session, cli_actor(), name, role, ask_password(name), ids, language=language)
    except ServiceError as error:
        fail(error.message)  # names the rule (at least 10 characters), never the password
    click.echo(f"{name!r} ({role}, warehouses {','.join(map(str, ids)) or 'all'}) may sign in now.")


@users.command("list")
def list_people():
    """Names, roles, warehouses and state of every person (never a password)."""
    for person in people.list_people(db.session):
        state = f"disabled {person['disabled']}" if person["disabled"] else "active"
        click.echo(f"{person['name']}\t{person['role']}\t{','.join(map(str, person['warehouses'])) or 'all'}\t"
                   f"{state}\tcreated {person['created']}\tpassword changed {person['password_changed']}")


@users.command("password")
@click.argument("name")
def change_password(name):
    """Set a person's password; their sessions end."""
    try:
        if not any(person["name"] == name for person in people.list_people(db.session)):
            fail(f"No person named {name!r}.")
        people.change_password(db.session, cli_actor(), name, ask_password(name))
    except ServiceError as error:
        fail(error.message)  # names the rule (at least 10 characters), never the password
    click.echo(f"The password of {name!r} is changed; their sessions have ended.")


@users.command("disable")
@click.argument("name")
def disable_person(name):
    """Stop a person from signing in; their sessions end."""
    try:
        people.disable_person(db.session, cli_actor(), name)
    except ServiceError as error:
        fail(error.message)
    click.echo(f"{name!r} is disabled; their sessions have ended.")


@users.command("enable")
@click.argument("name")
def enable_person(name):
    """Let a disabled person sign in again, with the password they had."""
    try:
        people.enable_person(db.session, cli_actor(), name)
    except ServiceError as error:
        fail(error.message)
    click.echo(f"{name!r} may sign in again.")


@users.command("change")
@click.argument("name")
@click.option("--role", required=True, type=click.Choice(api_keys.ROLES))
@click.option("--warehouses", default="", help="Comma-separated warehouse ids; all when left out.")
def change_person(name, role, warehouses):
    """Give a person another role or other warehouses (the last admin for every warehouse stays one)."""
    ids = warehouse_ids(warehouses)
    try:
        people.change_access(db.session, cli_actor(), name, role, ids)
    except ServiceError as error:
        fail(error.message)
    click.echo(f"{name!r} now has role {role} for warehouses {','.join(map(str, ids)) or 'all'}.")


def read_text(path: str) -> str:
    with open(path, "rb") as file:
        raw = file.read()
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark, as spreadsheets write, is skipped
    except UnicodeDecodeError as error:
        fail(f"{path} is not UTF-8 (byte {error.start}).")


def report(problems: dict) -> None:
    """Print each bad line (keys: line numbers, or already-written places) and fail."""
    for where, messages in problems.items():
        where = f"line {where}" if isinstance(where, int) else where
        click.echo(f"{where}: {json.dumps(messages, ensure_ascii=False, default=str)}", err=True)
    fail(f"{len(problems)} bad line(s); nothing was imported.")


def repeats(seen: dict, key: str, loaded: dict, line: int, problems: dict) -> bool:
    """Note a record whose key an earlier line of the file had; else remember its line."""
    if loaded[key] in seen:
        problems[line] = [f"{key} repeats line {seen[loaded[key]]}."]
        return True
    seen[loaded[key]] = line
    return False


@customers.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def import_customers(path):
    """Insert or update customers from a CSV file with a header row; all or nothing."""
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    if reader.fieldnames is None or [f.strip() for f in reader.fieldnames] != CUSTOMER_COLUMNS:
        fail(f"The header row must be: {','.join(CUSTOMER_COLUMNS)}")
    rows, problems, seen = [], {}, {}
    for row in reader:
        line = reader.line_num
        if None in row or None in row.values():
            problems[line] = ["Wrong number of columns."]
            continue
        try:
            loaded = customer_row_schema.load({k.strip(): v for k, v in row.items()})
        except ValidationError as error:
            problems[line] = error.messages
            continue
        if repeats(seen, "id_customer", loaded, line, problems):
            continue
        rows.append(loaded)
    if problems:
        report(problems)
    catalog.save_customers(db.session, rows)
    audit("%d customer(s) imported from %s", len(rows), path)
    click.echo(f"{len(rows)} customer(s) imported.")


@products.command("import")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def import_products(path):
    """Create or update products from JSON Lines (one product object a line); all or nothing."""
    rows, problems, seen = [], {}, {}
    # split("\n"), not splitlines(): JSON strings may hold U+2028 and other line breaks raw.
    for line, text in enumerate(read_text(path).split("\n"), start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text, parse_float=Decimal)
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, RecursionError):
            problems[line] = ["Not a JSON object."]
            continue
        try:
            loaded = product_schema.load(data)
        except ValidationError as error:
            problems[line] = error.messages
            continue
        if repeats(seen, "product_code", loaded, line, problems):
            continue
        rows.append((line, loaded))
    try:
        # The valid rows are tried even when some lines are bad, so that every bad line is named.
        catalog.import_products(db.session, rows, refused=problems)
    except ServiceError as error:
        report(error.fields or {"file": [error.message]})
    audit("%d product(s) imported from %s", len(rows), path)
    click.echo(f"{len(rows)} product(s) imported.")


@click.command("import")
@click.argument("kind", type=click.Choice(list(importing.KINDS)))
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--dry-run", is_flag=True, help="Check and count everything; change nothing.")
@click.option("--encoding", type=click.Choice(list(ENCODINGS)),
              help="A CSV's encoding; left out, it is found from the file's bytes.")
@click.option("--map", "mapping", multiple=True, metavar="COLUMN=FIELD",
              help="The file's column COLUMN holds the kind's FIELD (COLUMN= ignores it); repeat for each.")
@with_appcontext
def import_file(kind, path, dry_run, encoding, mapping):
    """Import a CSV, XLSX or ODS file of products, packaging, customers, orders or reorder levels; all or nothing."""
    if os.path.getsize(path) > importing.MAX_FILE_BYTES:
        fail(f"{path} is larger than {importing.MAX_FILE_BYTES // 2**20} MB.")
    columns = {}
    for pair in mapping:
        # Split at the last "=": a field's name never holds one, a file's column name may.
        header, sign, field = pair.rpartition("=")
        if not sign or not header.strip():
            fail(f"--map {pair!r}: write it as COLUMN=FIELD, or COLUMN= to ignore the column.")
        columns[header] = field.strip()
    bars = []

    def on_rows(count):
        # A bar on a terminal; elsewhere (a script, a log) click writes the label alone.
        bars.append(click.progressbar(length=count, label=f"Importing {kind}", file=sys.stderr))
        bars[0].__enter__()

    try:
        with open(path, "rb") as file:
            report = importing.run(db.session, kind, file, os.path.basename(path), actor=cli_actor(),
                                   dry_run=dry_run, on_rows=on_rows, encoding=encoding, mapping=columns,
                                   language=depot_language(),
                                   progress=lambda done: bars[0].update(done) if bars else None)
    finally:
        if bars:
            bars[0].__exit__(None, None, None)
    answer = report.answer()
    for error in report.sorted_errors():
        click.echo(error_line(error), err=True)
    kept = "Would be" if dry_run or answer["errors"] else "Imported"
    click.echo(f"{kept}: {answer['created']} created, {answer['updated']} updated, "
               f"{answer['unchanged']} unchanged.")
    if answer["errors"]:
        fail(f"{len(answer['errors'])} error(s); nothing was imported.")
    if dry_run:
        click.echo("Dry run: nothing was changed.")
    else:
        audit("%s imported from %s (%d created, %d updated)", kind, path, answer["created"], answer["updated"])


def error_line(error: dict) -> str:
    """`row 7 (MILK), column name = '': Length must be...`: the record and the cell refused."""
    where = f"row {error['row']}" + (f" ({error['record']})" if error.get("record") else "")
    if error["column"]:
        where += f", column {error['column']}" + (f" = {error['value']!r}" if "value" in error else "")
    return f"{where}: {error['message']}"


@click.command("check")
@with_appcontext
def check():
    """Recompute every balance from the warehouse documents and from its stock per location;
    fail on any difference."""
    differences = reports.balance_differences(db.session)
    for d in differences:
        click.echo(f"warehouse {d['id_warehouse']} product {d['product_code']!r} lot {d['lot']!r}: "
                   f"balance {from_milli(d['balance_milli'])}, documents say {from_milli(d['documents_milli'])} "
                   f"(off by {from_milli(d['balance_milli'] - d['documents_milli'])})")
    placed = placement.location_differences(db.session)
    for d in placed:
        click.echo(f"warehouse {d['id_warehouse']} product {d['product_code']!r} lot {d['lot']!r}: "
                   f"balance {from_milli(d['balance_milli'])}, its locations hold {from_milli(d['locations_milli'])} "
                   f"(off by {from_milli(d['balance_milli'] - d['locations_milli'])})")
    if differences:
        fail(f"{len(differences)} balance(s) differ from the warehouse documents.")
    if placed:
        fail(f"{len(placed)} balance(s) differ from the sum of their locations.")
    click.echo("OK: every balance equals the sum of its warehouse documents, and of its locations.")


@click.command("demo")
@with_appcontext
def demo():
    """Fill an empty database with a demo depot and print the sign-in of a person of role read, and
    the address that opens the browser scanner on a phone, paired."""
    from operations import demo as depot
    from safekeeping import depot as identity

    depot.ensure_schema()
    try:
        made = depot.build(db.session)
        identity.identity(db.engine, current_app.config.get("DEPOT_NAME") or "Demo depot (make demo)")
    except depot.DemoRefused as refused:
        fail(str(refused))
    except ServiceError as error:
        fail(f"The demo depot could not be booked: {error.message} {error.fields or ''}")
    click.echo(f"Demo depot made: {made['products']} products, {made['customers']} customers, "
               f"{made['orders']} orders, {made['batches']} scanner batches.", err=True)
    phone = depot.phone_key(db.session)
    click.echo(f"Open the scanner on a phone, paired with the key {depot.DEMO_PHONE!r} (role scan): "
               f"<the service's address>/scan#pair={phone}  (on this PC: http://localhost:8000/scan#pair={phone})",
               err=True)
    password = depot.office_person(db.session)
    click.echo(f"Sign in to the pages (/login) as {depot.OFFICE_PERSON!r} (role read) with this password; "
               "it is shown only this once:", err=True)
    click.echo(password)
