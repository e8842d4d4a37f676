"""Signing in to the pages as a person (name and password): the session cookie, its secret, the form.

The session itself is kept on the server (identity/sessions.py): the cookie holds only the
token naming it, and a form token, signed with a secret the service makes at its first start
and keeps in the database (service_settings), so that sessions survive a restart and every
process serving one database signs alike. Each page finds the session and its person afresh:
after sign-out, a password change, disabling, or 12 hours without a request, the cookie (or any
copy of it) opens nothing; the person is sent to the login form.
"""
import hmac
import secrets
import threading
from functools import wraps
from urllib.parse import urlsplit

from flask import abort, after_this_request, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import select

from identity import people, sessions
from identity.client import KEY_NAME, came_over_https, client_address
from models import ServiceSetting
from pages import bp
from stock.audit import Actor
from stock.errors import Forbidden, say
from storage.db import db, writing

SECRET_NAME = "page_session_secret"
_secret_lock = threading.Lock()


def configure(app) -> None:
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    # The browser forgets the cookie after the idle time too; the server ends the session itself.
    app.config["PERMANENT_SESSION_LIFETIME"] = sessions.IDLE
    app.session_interface = PageSessions()


def is_page(path: str) -> bool:
    """API calls, the health check and the browser scanner (its key is on the device) carry no
    session (and pay nothing for one)."""
    return not (path.startswith("/v1/") or path == "/v1" or path == "/health"
                or path == "/scan" or path.startswith("/scan/"))


class PageSessions(SecureCookieSessionInterface):
    """Flask's signed cookie, opened only for the pages, with the secret read when first needed."""

    def open_session(self, app, request):
        if not is_page(request.path):
            return self.make_null_session(app)
        return super().open_session(app, request)

    def get_cookie_secure(self, app):
        # Secure when the page came over HTTPS (through Caddy, docs/https.md): the browser
        # then never sends the cookie over plain http.
        return super().get_cookie_secure(app) or came_over_https(request.environ, app.config.get("TRUSTED_PROXY"))

    def get_signing_serializer(self, app):
        if not app.secret_key:
            with _secret_lock:
                if not app.secret_key:
                    app.secret_key = kept_secret(db.session)
        return super().get_signing_serializer(app)


def kept_secret(session) -> str:
    """The session secret from the database, made and stored on the first call ever."""
    value = session.scalar(select(ServiceSetting.value).where(ServiceSetting.name == SECRET_NAME))
    if value is not None:
        return value
    # Under the write lock, so that two processes starting at once keep one secret.
    with writing(session):
        setting = session.get(ServiceSetting, SECRET_NAME)
        if setting is None:
            setting = ServiceSetting(name=SECRET_NAME, value=secrets.token_urlsafe(48))
            session.add(setting)
        value = setting.value
    return value


def signed_in_caller():
    """The signed-in person as a caller (stock.caller.Caller), or None when the session has ended."""
    found = sessions.find(db.session, session.get("sid"))
    if found is None:
        return None
    if found.note_due:
        engine, session_id = db.engine, found.session_id

        @after_this_request
        def note_after_answer(response):
            response.call_on_close(lambda: sessions.note_seen(engine, session_id))
            return response
    return people.caller_of(found.person)


def signed_in(view):
    """Run the page for a signed-in person (g.caller); else sign out and go to the login form."""

    @wraps(view)
    def guarded(*args, **kwargs):
        caller = signed_in_caller()
        if caller is None:
            session.clear()
            return redirect(url_for("pages.login", next=request.full_path.rstrip("?")))
        g.caller = caller
        request.environ[KEY_NAME] = caller.name
        return view(*args, **kwargs)

    return guarded


def admin_only(view):
    """A page of /admin/: a signed-in person of role admin; anyone else gets the 403 page."""

    @wraps(view)
    def checked(*args, **kwargs):
        if not g.caller.has_role("admin"):
            raise Forbidden(say("This page is for people of role admin."))
        return view(*args, **kwargs)

    return signed_in(checked)


def actor():
    """Who changes something through a page, for the audit trail: the person and their address."""
    return Actor.of(g.caller, address())


def address() -> str:
    return client_address(request.environ, current_app.config.get("TRUSTED_PROXY"))


def form_token() -> str:
    """The session's token that every form posts back (made when first needed)."""
    if "token" not in session:
        session["token"] = secrets.token_urlsafe(24)
    return session["token"]


def check_form_post() -> None:
    """Refuse a form posted from another site: the session's token must come back, from our origin.

    The cookie is SameSite=Lax, so a cross-site post arrives without the
    session and so without the token; the Origin check is a second fence.
    """
    origin = request.headers.get("Origin")
    if origin and urlsplit(origin).netloc != request.host:
        abort(403, "The form was posted from another site.")
    sent, kept = request.form.get("token", ""), session.get("token", "")
    if not kept or not hmac.compare_digest(sent.encode(), kept.encode()):
        abort(403, "The form has expired or was posted from another site; reload it and try again.")


def safe_next(target: str | None) -> str:
    """Where to go after signing in: a path of this service, else the stock page.

    Browsers drop tabs and line breaks from an address and read a backslash as a slash, so
    "/%09/evil.example" (a tab) or "/\\evil.example" would lead off the service: anything but printable
    characters without a backslash, in a path that begins with one slash alone, is ignored. A
    line break never reaches the Location header either.
    """
    if (isinstance(target, str) and 0 < len(target) <= 2000 and target.isprintable()
            and "\\" not in target and target.startswith("/") and not target.startswith("//")):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("pages.stock")


@bp.get("/login")
def login():
    """The sign-in form: name and password."""
    return render_template("login.html", token=form_token(), next=_kept_next(request.args.get("next")))


@bp.post("/login")
def login_post():
    """Sign in as a person; the same answer for a wrong name and a wrong password."""
    check_form_post()
    form = {"token": form_token(), "next": _kept_next(request.form.get("next")),
            "username": request.form.get("username", "")[:100]}
    try:
        person = people.sign_in(db.session, request.form.get("username", ""), request.form.get("password", ""),
                                address())
    except people.Throttled as throttled:
        minutes = (throttled.retry_after + 59) // 60
        return render_template("login.html", **form, error=(
            f"Too many failed sign-ins from this computer. Try again in {minutes} minute(s).")), \
            429, {"Retry-After": str(throttled.retry_after)}
    except people.SignInRefused:
        return render_template("login.html", **form, error=_("The name or the password is wrong.")), 401
    # A fresh session at sign-in: nothing from before it (a planted token) carries over.
    token = sessions.start(db.session, person, address())
    session.clear()
    session.permanent = True
    session["sid"] = token
    form_token()
    return redirect(safe_next(request.form.get("next")))


def _kept_next(target: str | None) -> str:
    """The `next` the login form carries on: a path of this service, or nothing."""
    return target if target and safe_next(target) == target else ""


@bp.get("/logout")
@signed_in
def logout():
    """The sign-out button, for a typed-in address (signing out is a form post)."""
    return render_template("logout.html", token=form_token())


@bp.post("/logout")
def logout_post():
    """End the session, on the server: the cookie, or a copy of it, opens nothing afterwards."""
    check_form_post()
    sessions.end(db.session, session.get("sid"))
    session.clear()
    return redirect(url_for("pages.login"))


