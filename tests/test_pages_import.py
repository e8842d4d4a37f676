"""The import page /admin/import through the test client: dry run, errors beside their rows,
apply, the file kept between the two steps, the admin role, and the exports."""
import io
import os
import re

import pytest

from identity import people
from pages import imports
from conftest import PASSWORD
from stock.audit import cli_actor
from storage.db import db

GOOD = "product_code,name,base_unit\nMILK,Milk,pc\nTEA,Tea,pc\n"
BAD = "product_code,name,base_unit\nMILK,Milk,pc\nTEA,,pc\n"


def sign_in(client, app, role):
    """Sign the client in as a person of the role (made here, through the rules)."""
    name = f"office-{role}"
    with app.app_context():
        people.create_person(db.session, cli_actor(), name, role, PASSWORD)
        db.session.remove()
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="token" value="([^"]+)"', page)[1]
    r = client.post("/login", data={"username": name, "password": PASSWORD, "token": token})
    assert r.status_code == 302, r.get_data(as_text=True)
    return token


def form_token(client, path="/admin/import"):
    return re.search(r'name="token" value="([^"]+)"', client.get(path).get_data(as_text=True))[1]


def check(client, token, data, kind="products", name="list.csv"):
    return client.post("/admin/import", data={"token": token, "step": "check", "kind": kind,
                                              "file": (io.BytesIO(data.encode()), name)},
                       content_type="multipart/form-data")


@pytest.fixture
def office(app, client):
    sign_in(client, app, "admin")
    return client


def test_a_dry_run_shows_each_row_and_changes_nothing_then_apply(office, api):
    token = form_token(office)
    r = check(office, token, GOOD)
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "2 to create" in page and "Apply the import" in page
    assert api.get("/v1/products/MILK").status_code == 404
    file_token = re.search(r'name="file_token" value="([^"]+)"', page)[1]
    assert os.path.exists(os.path.join(imports.FOLDER, file_token))
    r = office.post("/admin/import", data={"token": token, "step": "apply", "file_token": file_token})
    assert r.status_code == 200 and "2 created" in r.get_data(as_text=True)
    assert api.get("/v1/products/MILK").status_code == 200
    assert not os.path.exists(os.path.join(imports.FOLDER, file_token))
    # The file is gone: applying it again is refused.
    r = office.post("/admin/import", data={"token": token, "step": "apply", "file_token": file_token})
    assert r.status_code == 409


def test_errors_stand_beside_their_row_and_nothing_can_be_applied(office, api):
    r = check(office, form_token(office), BAD)
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    row = re.search(r'<tr class="refused" data-row="3">(.*?)</tr>', page, re.S)[1]
    assert "<code>name</code>: Length must be between 1 and 200." in row
    assert "Apply the import" not in page


def test_a_file_token_of_another_session_is_refused(office, app):
    token = form_token(office)
    check(office, token, GOOD)
    r = office.post("/admin/import", data={"token": token, "step": "apply", "file_token": "x" * 32})
    assert r.status_code == 409


def test_the_page_needs_the_admin_role(app):
    reader = app.test_client()
    sign_in(reader, app, "read")
    assert reader.get("/admin/import").status_code == 403
    assert reader.get("/admin/export/products").status_code == 403


def test_exports_from_the_page_import_back_unchanged(office):
    token = form_token(office)
    page = check(office, token, GOOD).get_data(as_text=True)
    file_token = re.search(r'name="file_token" value="([^"]+)"', page)[1]
    office.post("/admin/import", data={"token": token, "step": "apply", "file_token": file_token})
    exported = office.get("/admin/export/products").data.decode("utf-8-sig")
    r = check(office, token, exported)
    assert "0 to create" in r.get_data(as_text=True) and "2 unchanged" in r.get_data(as_text=True)


def test_list_pages_download_as_xlsx(office):
    from openpyxl import load_workbook
    r = office.get("/?format=xlsx")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"] == 'attachment; filename="stock.xlsx"'
    sheet = load_workbook(io.BytesIO(r.data)).active
    assert [c.value for c in sheet[1]][:3] == ["id_warehouse", "warehouse_name", "product_code"]
    assert sheet.freeze_panes == "A2"
