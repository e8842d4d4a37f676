"""/admin/depot: the depot's profile (name, address, VAT number, logo), which the paper prints as its
sender and heading: the delivery note, the count sheet, the pick list.

Saved by stock.depot update_profile, which checks every field and the logo and writes the
audit trail (`depot.update`); a refusal is shown beside its field.
"""
import hashlib

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError

from pages import bp
from pages.common import field_errors
from pages.params import depot_form
from pages.signin import actor, admin_only, check_form_post, signed_in
from stock import depot
from stock.errors import NotFound, ServiceError
from storage.db import db


@bp.get("/admin/depot")
@admin_only
def admin_depot():
    """The depot's profile as the paper prints it."""
    found = depot.profile(db.session)
    return render_template("admin_depot.html", profile=found, form={**found, "language": depot.language(db.session) or ""},
                           errors={})


@bp.post("/admin/depot")
@admin_only
def admin_depot_save():
    """Save the profile; a new logo replaces the old one, or the old one is removed."""
    check_form_post()
    typed = {name: request.form.get(name, "") for name in ("name", "address", "vat_number")}
    chosen = request.form.get("language", "")
    upload = request.files.get("logo")
    try:
        form = depot_form.load({**typed, "remove_logo": request.form.get("remove_logo", ""), "language": chosen})
        # A file input left empty posts a part with no name and no bytes: no new logo.
        new_logo = upload.read() if upload is not None and upload.filename else None
        depot.update_profile(db.session, actor(), {name: form[name] for name in typed}, new_logo,
                             remove_logo=form["remove_logo"],
                             chosen_language=form["language"] if "language" in request.form else None)
    except (ValidationError, ServiceError) as error:
        status = error.status if isinstance(error, ServiceError) else 422
        return render_template("admin_depot.html", profile=depot.profile(db.session), form={**typed, "language": chosen},
                               errors=field_errors(error)), status
    flash(_("The depot's profile is saved; the paper prints it from now on."))
    return redirect(url_for("pages.admin_depot"), 303)


@bp.get("/depot/logo")
@signed_in
def depot_logo():
    """The depot's logo, for the paper's heading."""
    found = depot.logo(db.session)
    if found is None:
        raise NotFound("The depot has no logo.")
    media, data = found
    response = current_app.response_class(data, mimetype=media)
    # Asked again at every print, so a new logo shows at once; an unchanged one is not sent again.
    response.set_etag(hashlib.sha256(data).hexdigest())
    response.cache_control.private = True
    response.cache_control.no_cache = True
    return response.make_conditional(request)
