"""/admin/depot through the test client (pages/admin_depot.py, stock/depot.py): the depot's name,
address, VAT number and logo, each change in the audit trail, each refusal beside its field.

Where the paper prints the profile: tests/printing/test_printing.py (delivery note, count sheet, pick list).
"""
import io
import re

import pytest
from PIL import Image

from conftest import signed_in, token_of
from safekeeping import depot as identity
from stock import audit, depot
from stock.audit import Actor
from stock.errors import Invalid
from storage.db import db


def image(kind: str = "PNG", size=(120, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, kind)
    return out.getvalue()


def save(client, logo: tuple[bytes, str] | None = None, **fields):
    form = {"token": token_of(client.get("/admin/depot")), "name": "Riverside depot", "address": "", "vat_number": "",
            **fields}
    if logo is not None:
        form["logo"] = (io.BytesIO(logo[0]), logo[1])
    return client.post("/admin/depot", data=form, content_type="multipart/form-data")


def problem(html: str, field: str) -> str:
    found = re.search(rf'<span class="problem" id="{field}-problem" role="alert">([^<]*)</span>', html)
    return found.group(1) if found else ""


def test_only_an_admin_edits_the_depot(office):
    assert office.get("/admin/depot").status_code == 403
    assert save(office).status_code == 403


def test_the_form_starts_from_the_name_the_depot_got_at_its_first_start(admin, app):
    with app.app_context():
        identity.identity(db.engine, "Depot on the office PC")
    html = admin.get("/admin/depot").get_data(as_text=True)
    assert 'name="name" value="Depot on the office PC"' in html
    assert 'href="/admin/depot"' in html


def test_saving_the_profile_is_audited_and_backups_carry_the_new_name(admin, app, session):
    with app.app_context():
        made = identity.identity(db.engine, "Depot on the office PC")
    response = save(admin, name="Riverside depot", address="Quay 4\n1000 Ljubljana", vat_number="SI12345678",
                    logo=(image(), "logo.png"))
    assert response.status_code == 303, response.get_data(as_text=True)
    session.remove()
    assert depot.profile(session) == {"name": "Riverside depot", "address": "Quay 4\n1000 Ljubljana",
                                      "vat_number": "SI12345678", "logo": True}
    [entry] = audit.list_entries(session, kind="depot.update")
    assert (entry["who"], entry["record"]) == ("admin", "Riverside depot")
    assert entry["changes"]["name"] == ["Depot on the office PC", "Riverside depot"]
    assert entry["changes"]["logo"] == [None, "image/png, 1 KB"]
    with app.app_context():
        assert identity.identity(db.engine) == {"id": made["id"], "name": "Riverside depot"}
    html = admin.get("/admin/depot").get_data(as_text=True)
    assert "The depot&#39;s profile is saved" in html and 'src="/depot/logo"' in html
    assert "Quay 4\n1000 Ljubljana</textarea>" in html


def test_the_logo_is_served_to_anyone_signed_in_and_revalidated(admin, app, person):
    office = signed_in(app.test_client(), person, "read")
    assert office.get("/depot/logo").status_code == 404
    logo = image("JPEG")
    assert save(admin, logo=(logo, "logo.jpg")).status_code == 303
    response = office.get("/depot/logo")
    assert response.status_code == 200 and response.mimetype == "image/jpeg" and response.data == logo
    assert "no-cache" in response.headers["Cache-Control"]
    again = office.get("/depot/logo", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_a_logo_is_removed_on_request_and_kept_otherwise(admin, session):
    assert save(admin, logo=(image(), "logo.png")).status_code == 303
    assert save(admin, vat_number="SI1").status_code == 303  # no file chosen: the logo stays
    session.remove()
    assert depot.profile(session)["logo"] is True
    assert save(admin, vat_number="SI1", remove_logo="1").status_code == 303
    session.remove()
    assert depot.profile(session)["logo"] is False and depot.logo(session) is None
    assert audit.list_entries(session, kind="depot.update")[0]["changes"] == {"logo": ["image/png, 1 KB", None]}


@pytest.mark.parametrize("fields, logo, field, says", [
    ({"name": "  "}, None, "name", "Give the name printed on the paper"),
    ({"name": "x" * 101}, None, "name", "At most 100 characters"),
    ({"vat_number": "SI\x001"}, None, "vat_number", "Letters, digits, spaces and punctuation only"),
    ({"address": "a" * 501}, None, "address", "At most 500 characters"),
    ({}, (b"GIF89a" + b"\x00" * 40, "logo.gif"), "logo", "Choose a PNG or JPEG file"),
    ({}, (b"\x89PNG\r\n\x1a\nnot really", "logo.png"), "logo", "Choose a PNG or JPEG file"),
    ({}, (b"\x89PNG" + b"\x00" * (256 * 1024), "big.png"), "logo", "At most 256 KB"),
])
def test_a_refused_profile_is_named_beside_its_field_and_nothing_changes(admin, session, fields, logo, field, says):
    assert save(admin, name="Riverside depot").status_code == 303
    session.remove()
    before = depot.profile(session)
    response = save(admin, logo=logo, **fields)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert says in problem(html, field), html
    session.remove()
    assert depot.profile(session) == before
    assert len(audit.list_entries(session, kind="depot.update")) == 1


def test_the_rules_refuse_an_unknown_field_and_record_nothing_when_nothing_changes(session):
    with pytest.raises(Invalid):
        depot.update_profile(session, Actor("tests", "cli"), {"colour": "red"})
    depot.update_profile(session, Actor("tests", "cli"), {"name": "Riverside depot"})
    depot.update_profile(session, Actor("tests", "cli"), {"name": "Riverside depot "})  # the same, trimmed
    assert [e["changes"] for e in audit.list_entries(session, kind="depot")] == [{"name": ["", "Riverside depot"]}]
