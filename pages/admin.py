"""The pages under /admin/ (role admin; DESIGN section 16): people, keys and pairing a scanner, the audit trail.

As thin as the other pages: read the form, call the same rules as the API and the CLI
(stock.people, stock.api_keys, stock.audit), render. Every change is a form post with the form token,
and each leaves its row in the audit trail with the person's name and address.
"""
import json
from flask import current_app, flash, g, redirect, render_template, request, url_for
from marshmallow import ValidationError

from identity import came_over_https
from pages import bp
from pages.clock import start_of_day
from pages.params import audit_query, load_args, pairing_form, password_form, person_form
from pages.signin import actor, admin_only, check_form_post
from stock import api_keys, audit, people
from stock.errors import Invalid, ServiceError
from storage.db import db


def load_form(schema) -> dict:
    """The posted form; Invalid names each bad field."""
    try:
        return schema.load({name: value for name, value in request.form.items() if value != ""})
    except ValidationError as error:
        raise Invalid("The form has invalid fields.", error.messages) from None


# --- people -----------------------------------------------------------------------------------

@bp.get("/admin/people")
@admin_only
def admin_people():
    """Everyone who signs in to the pages; add a person, reset a password, disable."""
    return render_template("admin_people.html", people=people.list_people(db.session), form={})


@bp.post("/admin/people")
@admin_only
def admin_people_add():
    """Add a person."""
    check_form_post()
    try:
        form = load_form(person_form)
        people.create_person(db.session, actor(), form["name"], form["role"], form["password"], form["warehouses"])
    except ServiceError as error:
        # The form again with what was typed, except the password.
        typed = {name: request.form.get(name, "") for name in ("name", "role", "warehouses")}
        return render_template("admin_people.html", people=people.list_people(db.session), form=typed,
                               error=error), error.status
    flash(f"{form['name']} may sign in now.")
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/password")
@admin_only
def admin_people_password(name):
    """Set a person's password; their sessions end (the admin's own too, when it is theirs)."""
    check_form_post()
    try:
        people.change_password(db.session, actor(), name, load_form(password_form)["password"])
    except ServiceError as error:
        return render_template("admin_people.html", people=people.list_people(db.session), form={},
                               error=error), error.status
    flash(f"The password of {name} is changed; their sessions have ended.")
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/disable")
@admin_only
def admin_people_disable(name):
    """Disable a person: they can no longer sign in, and their sessions end."""
    check_form_post()
    people.disable_person(db.session, actor(), name)
    flash(f"{name} is disabled.")
    return redirect(url_for("pages.admin_people"))


# --- keys and pairing ---------------------------------------------------------------------------

@bp.get("/admin/keys")
@admin_only
def admin_keys():
    """Every device's key with its last use, expiry and state; revoke one; pair a new scanner."""
    return render_template("admin_keys.html", keys=[api_keys.key_view(k) for k in api_keys.list_keys(db.session)],
                           form={})


@bp.post("/admin/keys")
@admin_only
def admin_keys_pair():
    """Make a key for a device and show it this once, as text and as a QR code the scanner reads."""
    check_form_post()
    try:
        form = load_form(pairing_form)
        key = api_keys.create_key(db.session, form["name"], form["role"], form["warehouses"],
                                  form["expires_in_days"], actor=actor())
    except ServiceError as error:
        typed = {name: request.form.get(name, "") for name in ("name", "role", "warehouses", "expires_in_days")}
        return render_template("admin_keys.html", form=typed, error=error,
                               keys=[api_keys.key_view(k) for k in api_keys.list_keys(db.session)]), error.status
    made = next(api_keys.key_view(k) for k in api_keys.list_keys(db.session) if k.name == form["name"])
    url = service_address()
    payload = pairing_payload(url, key)
    response = current_app.make_response(render_template(
        "admin_pairing.html", key=key, made=made, url=url, qr=pairing_svg(payload)))
    # The key is in this page alone: no cache, no back button, no proxy may keep it.
    response.headers["Cache-Control"] = "no-store"
    return response


def service_address() -> str:
    """The address this page was reached at, as the scanner will reach the service."""
    scheme = "https" if came_over_https(request.environ, current_app.config.get("TRUSTED_PROXY")) else "http"
    return f"{scheme}://{request.host}{request.script_root}/"


def pairing_payload(url: str, key: str) -> str:
    return json.dumps({"url": url, "key": key})


def pairing_svg(payload: str) -> str:
    """The QR code (error correction M: a scratched screen or a printout still reads) as inline SVG."""
    import segno  # imported by the first pairing, not with the service: a scanner is paired rarely
    return segno.make(payload, error="m", boost_error=False).svg_inline(
        scale=5, border=4, title="Pairing code", svgclass="qr", dark="#000", light="#fff", omitsize=True)


@bp.post("/admin/keys/<path:name>/revoke")
@admin_only
def admin_keys_revoke(name):
    """Revoke a key: the device is refused from its next request on."""
    check_form_post()
    api_keys.revoke_key(db.session, name, actor=actor())
    flash(f"The key {name} is revoked.")
    return redirect(url_for("pages.admin_keys"))


# --- the audit trail ----------------------------------------------------------------------------

@bp.get("/admin/audit")
@admin_only
def admin_audit():
    """The audit trail newest first, by day, kind and name; older entries a page at a time."""
    query = load_args(audit_query, request.args)
    # A day typed on the page is the depot's day, from its midnight.
    since = None if query["since"] is None else start_of_day(query["since"])
    entries = audit.list_entries(db.session, since=since, kind=query["kind"] or None, who=query["who"] or None,
                                 limit=query["limit"] + 1, before_id=query["before_id"])
    more = len(entries) > query["limit"]
    entries = entries[:query["limit"]]
    older = None
    if more:
        args = {**request.args.to_dict(), "before_id": entries[-1]["id"]}
        older = url_for("pages.admin_audit", **args)
    return render_template("admin_audit.html", query=query, entries=entries, older=older,
                           newest=url_for("pages.admin_audit", **{k: v for k, v in request.args.items()
                                                                  if k != "before_id"}))


@bp.app_template_filter("changes")
def changes_text(changes: dict) -> str:
    def change(value):
        if isinstance(value, list) and len(value) == 2:
            return f"{json.dumps(value[0], ensure_ascii=False)} → {json.dumps(value[1], ensure_ascii=False)}"
        return json.dumps(value, ensure_ascii=False)

    return "; ".join(f"{field}: {change(value)}" for field, value in (changes or {}).items())


def is_admin() -> bool:
    return bool(getattr(g, "caller", None)) and g.caller.has_role("admin")


@bp.app_context_processor
def admin_globals():
    return {"is_admin": is_admin}
