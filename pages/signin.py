"""Signing in to the pages with an API key: the session cookie, its secret, the login form.

The cookie holds only the key's id and a form token, signed with a secret the
service makes at its first start and keeps in the database (service_settings),
so that sessions survive a restart and every process serving one database
signs alike. Each page reads the key afresh: a revoked key is signed out at
its next page.
"""
import hmac
import secrets
import threading
from functools import wraps
from urllib.parse import urlsplit

from flask import abort, g, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy import select

from models import ApiKey, ServiceSetting
from identity import KEY_NAME
from pages import bp
from stock import api_keys
from stock.errors import Unauthorized
from storage.db import db, writing

SECRET_NAME = "page_session_secret"
_secret_lock = threading.Lock()


def configure(app) -> None:
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.session_interface = PageSessions()


def is_page(path: str) -> bool:
    """API calls and the health check carry no session (and pay nothing for one)."""
    return not (path.startswith("/v1/") or path == "/v1" or path == "/health")


class PageSessions(SecureCookieSessionInterface):
    """Flask's signed cookie, opened only for the pages, with the secret read when first needed."""

    def open_session(self, app, request):
        if not is_page(request.path):
            return self.make_null_session(app)
        return super().open_session(app, request)

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


def signed_in_caller() -> api_keys.Caller | None:
    """The caller of the session's key, or None when there is none or it was revoked."""
    key_id = session.get("key_id")
    if not isinstance(key_id, int):
        return None
    key = db.session.get(ApiKey, key_id)
    if key is None or key.revoked_at is not None or key.role not in api_keys.ROLES:
        return None
    return api_keys.Caller(key.id, key.name, key.role, api_keys.parse_warehouses(key.warehouses))


def signed_in(view):
    """Run the page for a signed-in key (g.caller); else sign out and go to the login form."""

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
    """Where to go after signing in: a path of this service only."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return url_for("pages.stock")


@bp.get("/login")
def login():
    """The sign-in form: one field, the key."""
    return render_template("login.html", token=form_token(), next=request.args.get("next", ""))


@bp.post("/login")
def login_post():
    """Sign in with an API key of role read or above."""
    check_form_post()
    try:
        caller = api_keys.authenticate(db.session, request.form.get("key", "").strip())
        if not caller.has_role("read"):
            raise Unauthorized("This key may not read.")
    except Unauthorized:
        return render_template("login.html", token=form_token(), next=request.form.get("next", ""),
                               error="The key is unknown or revoked."), 401
    # A fresh session at sign-in: nothing from before it (a planted token) carries over.
    session.clear()
    session["key_id"] = caller.key_id
    form_token()
    return redirect(safe_next(request.form.get("next")))


@bp.get("/logout")
@signed_in
def logout():
    """The sign-out button, for a typed-in address (signing out is a form post)."""
    return render_template("logout.html", token=form_token())


@bp.post("/logout")
def logout_post():
    """End the session."""
    check_form_post()
    session.clear()
    return redirect(url_for("pages.login"))


