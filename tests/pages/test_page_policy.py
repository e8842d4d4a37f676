"""page_policy.py: one place sets what a browser may do with every answer (DESIGN 26).

Through the test client: the headers on a page, the HTML 404 page, a download, printable paper,
/docs and its assets, the login form, a 500; JSON answers only `nosniff`; a view's and a
blueprint's own policy. In chromium: /docs works under its policy, with nothing refused.
"""
import base64
import hashlib
import re

import pytest
from flask import Blueprint

from page_policy import blueprint_policy, content_policy
from routes.api_description import DOCS_SCRIPT, DOCS_STYLE

HTML = {"Accept": "text/html"}


def policy_of(response) -> dict:
    """The Content-Security-Policy as {directive: value}."""
    return dict(part.strip().split(" ", 1) for part in response.headers["Content-Security-Policy"].split(";"))


def assert_the_pages_policy(response, **changed):
    policy = policy_of(response)
    expected = {"default-src": "'self'", "img-src": "'self' data:", "form-action": "'self'",
                "frame-ancestors": "'none'", "object-src": "'none'", "base-uri": "'none'", **changed}
    assert policy == expected
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["Permissions-Policy"] == "camera=(), microphone=(), geolocation=()"


@pytest.mark.parametrize("path", ["/", "/admin/people", "/?format=csv", "/?format=xlsx", "/no/such/page",
                                  "/assets/style.css", "/login"])
def test_every_answer_of_the_pages_carries_the_policy(admin, path):
    response = admin.get(path, headers=HTML)
    response.close()
    assert_the_pages_policy(response)


def test_the_404_page_carries_it_signed_in_or_not(client):
    response = client.get("/nothing/here", headers=HTML)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert_the_pages_policy(response)


def test_printable_paper_and_labels_carry_it(admin, api, known_products):
    response = admin.get("/products/P1/label.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert_the_pages_policy(response)


def test_docs_carries_it_with_its_one_script_and_style(client):
    page = client.get("/docs/")
    assert page.status_code == 200
    assert_the_pages_policy(page, **{"script-src": f"'self' {DOCS_SCRIPT}", "style-src": f"'self' {DOCS_STYLE}"})
    # The hash allowed is that of the page's one inline script.
    [script] = re.findall(r"<script>(.*?)</script>", page.get_data(as_text=True), re.S)
    assert DOCS_SCRIPT == f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"
    asset = client.get("/docs/swagger-ui-bundle.js")
    asset.close()
    assert asset.headers["X-Content-Type-Options"] == "nosniff" and "script-src" in policy_of(asset)


def test_json_answers_carry_nosniff_alone(api, client):
    for response in (api.get("/v1/products/"), client.get("/health"), client.get("/v1/nothing"),
                     client.get("/v1/openapi.json")):
        assert response.mimetype == "application/json"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert "Content-Security-Policy" not in response.headers


def test_a_view_or_a_blueprint_states_its_own_policy(make_app):
    app = make_app()
    camera = Blueprint("camera", __name__)

    @camera.get("/camera")
    @content_policy({"media-src": "'self' blob:", "worker-src": "'self'", "img-src": None},
                    headers={"Permissions-Policy": "camera=(self)"})
    def camera_page():
        return "<p>scan</p>"

    @camera.get("/camera/help")
    def camera_help():
        return "<p>help</p>"

    printed = Blueprint("printed", __name__)
    blueprint_policy(printed, {"style-src": "'self' 'unsafe-inline'"})

    @printed.get("/printed")
    def printed_page():
        return "<p>paper</p>"

    app.register_blueprint(camera)
    app.register_blueprint(printed)
    client = app.test_client()
    stated = client.get("/camera")
    assert "media-src 'self' blob:" in stated.headers["Content-Security-Policy"]
    assert "img-src" not in stated.headers["Content-Security-Policy"]
    assert "object-src 'none'" in stated.headers["Content-Security-Policy"]
    assert stated.headers["Permissions-Policy"] == "camera=(self)"
    # The view beside it, and every other answer, keep the pages' policy.
    assert_the_pages_policy(client.get("/camera/help"))
    assert_the_pages_policy(client.get("/printed"), **{"style-src": "'self' 'unsafe-inline'"})


def test_an_answer_that_set_its_own_header_keeps_it(admin):
    # The pairing page says no-store itself; the policy's headers join it, none replaces it.
    token = re.search(r'name="token" value="([^"]+)"', admin.get("/admin/keys").get_data(as_text=True)).group(1)
    response = admin.post("/admin/keys", data={"token": token, "name": "gate-9"})
    assert response.headers["Cache-Control"] == "no-store"
    assert_the_pages_policy(response)


@pytest.mark.live
def test_docs_works_in_chromium_under_its_policy(live_server, browser):
    server = live_server()
    page = browser.new_page()
    refused = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    try:
        page.goto(f"http://127.0.0.1:{server.port}/docs/")
        page.wait_for_selector(".opblock", timeout=15000)
        assert page.locator(".opblock").count() >= 20
        page.locator(".opblock-summary").first.click()
        page.wait_for_selector(".opblock-body", timeout=5000)
        # The logo's colours come from the <style> the policy allows by its hash.
        assert page.evaluate("getComputedStyle(document.querySelector('.logo_small_svg__cls-3')).fill") \
            == "rgb(133, 234, 45)"
    finally:
        page.close()
    assert refused == []
