"""/settings: what a signed-in person sets for themselves: their language (DESIGN 29).

Kept with the person (identity/people.py set_language), so the choice follows them to every
session and device; "" leaves them with the depot's language, else their browser's.
"""
from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import force_locale, gettext as _

from identity import people
from language import LANGUAGES
from pages import bp
from pages.signin import actor, check_form_post, signed_in
from stock.errors import ServiceError
from storage.db import db


@bp.get("/settings")
@signed_in
def own_settings():
    """The signed-in person's own settings: their language."""
    return render_template("settings.html", chosen=g.caller.language, languages=LANGUAGES)


@bp.post("/settings")
@signed_in
def own_settings_save():
    """Keep the person's language; the next page speaks it."""
    check_form_post()
    chosen = request.form.get("language", "")
    try:
        people.set_language(db.session, actor(), g.caller.name, chosen, caller=g.caller)
    except ServiceError as error:
        return render_template("settings.html", chosen=g.caller.language, languages=LANGUAGES,
                               error=error), error.status
    if chosen:
        with force_locale(chosen):  # said in the language chosen, which the next page speaks
            flash(_("Your language is saved."))
    else:
        flash(_("Your language is saved."))
    return redirect(url_for("pages.own_settings"), 303)
