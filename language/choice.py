"""Which language a request is answered in, and Flask-Babel set up to use it.

The order (DESIGN 29): the signed-in person's own choice (people.language, carried on the
Caller as g.caller.language), else the depot's (the depot page's setting, else
WAREHOUSE_LANGUAGE), else the browser's Accept-Language, else English. The depot's setting is
read once per request, and only by a request that shows words (a page, paper, /scan): /v1
never asks.
"""
from flask import current_app, g, has_request_context, request
from flask_babel import Babel, get_locale
from sqlalchemy.exc import SQLAlchemyError

from language import LANGUAGES, TRANSLATIONS
from stock import depot
from storage.db import db

babel = Babel()


def configure(app) -> None:
    babel.init_app(app, locale_selector=chosen, default_translation_directories=str(TRANSLATIONS))


def depot_language() -> str | None:
    """The depot's language: the depot page's choice, else WAREHOUSE_LANGUAGE; None when neither."""
    if has_request_context() and "depot_language" in g:
        return g.depot_language
    try:
        found = depot.language(db.session)
    except SQLAlchemyError:  # the database is gone: an error page still speaks the setting's language
        db.session.rollback()
        found = None
    found = found or current_app.config.get("LANGUAGE")
    if has_request_context():
        g.depot_language = found
    return found


def browser_language() -> str | None:
    """The first of LANGUAGES the browser's Accept-Language names, if any."""
    return request.accept_languages.best_match(LANGUAGES) if has_request_context() else None


def chosen() -> str:
    """The request's language: the person's, the depot's, the browser's, English."""
    caller = g.get("caller") if has_request_context() else None
    own = getattr(caller, "language", "") or (g.get("language", "") if has_request_context() else "")
    return own or depot_language() or browser_language() or "en"


def current() -> str:
    """The language of what is being drawn now (a paper forced into another one included)."""
    locale = get_locale()  # asked once: a page of thousands of amounts asks for each of them
    return locale.language if locale is not None else "en"
