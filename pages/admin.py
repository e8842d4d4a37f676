"""The pages under /admin/ (role admin; DESIGN 16, 26): people, keys and pairing a scanner, the audit trail.

As thin as the other pages: read the form, call the same rules as the API and the CLI
(identity.people, identity.api_keys, stock.audit), render. Every change is a form post with the form token,
and each leaves its row in the audit trail with the person's name and address. An admin limited
to warehouses sees and changes only the people and keys within them (stock.caller.may_manage,
asked by the rules themselves).
"""
import json
from flask import current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from identity import api_keys, people
from identity.client import came_over_https
from pages import bp
from pages.clock import start_of_day
from pages.params import access_form, audit_query, load_args, pairing_form, password_form, person_form
from pages.signin import actor, admin_only, check_form_post
from stock import audit
from stock.errors import Invalid, NotFound, ServiceError, say
from storage.db import db


def load_form(schema) -> dict:
    """The posted form; Invalid names each bad field. Warehouses are ticked one box each."""
    posted = {name: values if name == "warehouses" else values[0] for name, values in request.form.lists()}
    try:
        return schema.load({name: value for name, value in posted.items() if value not in ("", [])})
    except ValidationError as error:
        raise Invalid(say("The form has invalid fields."), error.messages) from None


# --- people -----------------------------------------------------------------------------------

def _people_page(error=None, form=None, status=200):
    """The people page: those the admin may manage, the add form (what was typed, or the admin's
    own warehouses for one limited to them), and a refusal at the top."""
    return render_template("admin_people.html", people=people.list_people(db.session, g.caller),
                           form=form if form is not None else {"warehouses": own_warehouses()},
                           error=error), status


def own_warehouses() -> list[str]:
    """The admin's warehouses as the forms' pickers tick them (none ticked: every warehouse)."""
    return [str(number) for number in sorted(g.caller.warehouses or ())]


@bp.get("/admin/people")
@admin_only
def admin_people():
    """Everyone who signs in to the pages; add a person, change one, reset a password, disable, enable."""
    return _people_page()


@bp.post("/admin/people")
@admin_only
def admin_people_add():
    """Add a person."""
    check_form_post()
    try:
        form = load_form(person_form)
        people.create_person(db.session, actor(), form["name"], form["role"], form["password"], form["warehouses"],
                             caller=g.caller, language=form["language"])
    except ServiceError as error:
        # The form again with what was typed, except the password.
        typed = {name: request.form.get(name, "") for name in ("name", "role", "language")}
        typed["warehouses"] = request.form.getlist("warehouses")
        return _people_page(error, typed, error.status)
    flash(_("%(name)s may sign in now.", name=form["name"]))
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/password")
@admin_only
def admin_people_password(name):
    """Set a person's password; their sessions end (the admin's own too, when it is theirs)."""
    check_form_post()
    try:
        people.change_password(db.session, actor(), name, load_form(password_form)["password"], caller=g.caller)
    except ServiceError as error:
        return _people_page(error, status=error.status)
    flash(_("The password of %(name)s is changed; their sessions have ended.", name=name))
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/access")
@admin_only
def admin_people_access(name):
    """Give a person another role or other warehouses (empty: every warehouse)."""
    check_form_post()
    try:
        form = load_form(access_form)
        people.change_access(db.session, actor(), name, form["role"], form["warehouses"], caller=g.caller)
    except ServiceError as error:
        return _people_page(error, status=error.status)
    flash(_("%(name)s now has role %(role)s for %(warehouses)s warehouse(s).", name=name, role=form["role"],
            warehouses=", ".join(map(str, form["warehouses"])) or _("every")))
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/language")
@admin_only
def admin_people_language(name):
    """Set a person's own language ("" for the depot's)."""
    check_form_post()
    try:
        people.set_language(db.session, actor(), name, request.form.get("language", ""), caller=g.caller)
    except ServiceError as error:
        return _people_page(error, status=error.status)
    flash(_("The language of %(name)s is saved.", name=name))
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/disable")
@admin_only
def admin_people_disable(name):
    """Disable a person, once confirmed: they can no longer sign in, and their sessions end."""
    check_form_post()
    try:
        if request.form.get("confirm") != "yes":
            # Asked first on a page of its own: one click on the list never locks anyone out.
            found = next((p for p in people.list_people(db.session, g.caller) if p["name"] == name), None)
            if found is None:
                raise NotFound(say("No person named %(name)r.", name=name))
            return render_template("admin_people_disable.html", person=found,
                                   yourself=name == g.caller.name)
        people.disable_person(db.session, actor(), name, caller=g.caller)
    except ServiceError as error:
        return _people_page(error, status=error.status)
    flash(_("%(name)s is disabled; their sessions have ended.", name=name))
    return redirect(url_for("pages.admin_people"))


@bp.post("/admin/people/<path:name>/enable")
@admin_only
def admin_people_enable(name):
    """Enable a disabled person again: they sign in with the password they had."""
    check_form_post()
    try:
        people.enable_person(db.session, actor(), name, caller=g.caller)
    except ServiceError as error:
        return _people_page(error, status=error.status)
    flash(_("%(name)s may sign in again.", name=name))
    return redirect(url_for("pages.admin_people"))


# --- keys and pairing ---------------------------------------------------------------------------

@bp.get("/admin/keys")
@admin_only
def admin_keys():
    """Every device's key with its last use, expiry and state; revoke one; pair a new scanner."""
    return _keys_page()


def _keys_page(error=None, form=None, status=200):
    """The keys page: those the admin may manage, the pairing form (what was typed, or the admin's
    own warehouses for one limited to them), and a refusal at the top."""
    keys = [api_keys.key_view(key) for key in api_keys.list_keys(db.session, g.caller)]
    return render_template("admin_keys.html", keys=keys, error=error,
                           form=form if form is not None else {"warehouses": own_warehouses()}), status


@bp.post("/admin/keys")
@admin_only
def admin_keys_pair():
    """Make a key for a device and show it this once, as text and as a QR code the scanner reads."""
    check_form_post()
    try:
        form = load_form(pairing_form)
        key = api_keys.create_key(db.session, form["name"], form["role"], form["warehouses"],
                                  form["expires_in_days"], actor=actor(), caller=g.caller)
    except ServiceError as error:
        typed = {name: request.form.get(name, "") for name in ("name", "role", "expires_in_days")}
        typed["warehouses"] = request.form.getlist("warehouses")
        return _keys_page(error, typed, error.status)
    made = next(api_keys.key_view(k) for k in api_keys.list_keys(db.session, g.caller) if k.name == form["name"])
    url = service_address()
    # By default the code opens the service's own scanner on a phone, paired (DESIGN 24); the JSON
    # of section 16, for other scanner apps, is one click away.
    scanner_url = scanner_address(url, key)
    response = current_app.make_response(render_template(
        "admin_pairing.html", key=key, made=made, url=url, scanner_url=scanner_url, qr=pairing_svg(scanner_url),
        json_qr=pairing_svg(pairing_payload(url, key))))
    # The key is in this page alone: no cache, no back button, no proxy may keep it.
    response.headers["Cache-Control"] = "no-store"
    return response


def service_address() -> str:
    """The address this page was reached at, as the scanner will reach the service."""
    scheme = "https" if came_over_https(request.environ, current_app.config.get("TRUSTED_PROXY")) else "http"
    return f"{scheme}://{request.host}{request.script_root}/"


def scanner_address(url: str, key: str) -> str:
    """`<base>/scan#pair=<key>`: the fragment never reaches a server or its log, and the page takes
    it out of the address and the history at once."""
    return f"{url}scan#pair={key}"


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
    try:
        api_keys.revoke_key(db.session, name, actor=actor(), caller=g.caller)
    except ServiceError as error:
        return _keys_page(error, status=error.status)
    flash(_("The key %(name)s is revoked.", name=name))
    return redirect(url_for("pages.admin_keys"))


# --- the audit trail ----------------------------------------------------------------------------

@bp.get("/admin/audit")
@admin_only
def admin_audit():
    """The audit trail newest first, by day, kind and name; older entries a page at a time. An admin
    limited to warehouses reads the changes within them."""
    query = load_args(audit_query, request.args)
    # A day typed on the page is the depot's day, from its midnight.
    since = None if query["since"] is None else start_of_day(query["since"])
    entries = audit.list_entries(db.session, since=since, kind=query["kind"] or None, who=query["who"] or None,
                                 who_kind=query["who_kind"] or None, limit=query["limit"] + 1,
                                 before_id=query["before_id"], caller=g.caller)
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
