"""Challenges shows the server's types, takes its photo types and refusals, and pages the feed as the server does.

The tests change values in the server's real answer to GET /api/challenges (everything else is the server's
own) and check the page follows them: a page that went back to its own copy would not.
"""
import json
import re

from playwright.sync_api import expect

from test_challenges import PHOTO, card, join, new_context, no_errors, open_challenges, register, todays


def rewrite_overview(page, change):
    """Lets `change` edit the body of every GET /api/challenges answer before the page reads it."""
    def handle(route):
        if route.request.method != "GET":
            return route.continue_()
        response = route.fetch()
        body = response.json()
        change(body)
        route.fulfill(response=response, body=json.dumps(body), content_type="application/json")
    page.route(re.compile(r"/api/challenges(\?.*)?$"), handle)


def open_changed(context, server, change):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._ck_errors = errors
    rewrite_overview(page, change)
    page.goto(f"{server}/challenges")
    page.wait_for_selector("body[data-ready=true]", state="attached")
    page.wait_for_selector("[data-testid=challenge-card]")
    return page


def group_titles(page):
    return page.eval_on_selector_all("#challenge-groups .ch-group", "gs => gs.map((g) => [g.dataset.group, g.querySelector('h2').firstChild.textContent])")


def test_groups_and_type_labels_are_the_servers(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "types")
        overview = context.request.get(f"{server}/api/challenges?tz=UTC").json()
        offered = [t for t in overview["types"] if any(c["type"] == t["type"] for c in overview["challenges"])]
        assert len(offered) >= 2, overview["types"]

        # The server's order and words.
        page = open_challenges(context, server)
        assert group_titles(page) == [[t["type"], t["label"]] for t in offered]
        daily = todays(context, server)
        expect(card(page, daily["id"]).locator(".ch-type")).to_have_text(next(t["label"] for t in overview["types"] if t["type"] == "daily"))
        page.close()

        # Other words and another order from the server: the page follows them.
        def change(body):
            body["types"] = [{**t, "label": f"Kind {t['type']}"} for t in reversed(body["types"])]

        page = open_changed(context, server, change)
        assert group_titles(page) == [[t["type"], f"Kind {t['type']}"] for t in reversed(offered)]
        expect(card(page, daily["id"]).locator(".ch-type")).to_have_text("Kind daily")
        no_errors(page)
    finally:
        context.close()


def test_photo_types_and_refusals_are_the_servers(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "photos")
        daily = todays(context, server)
        join(context, server, daily["id"])
        real = context.request.get(f"{server}/api/challenges?tz=UTC").json()

        page = open_challenges(context, server)
        assert page.get_by_test_id("photo-input").get_attribute("accept") == ",".join(real["photoTypes"])
        assert page.get_by_test_id("photo-camera").get_attribute("accept") == ",".join(real["photoTypes"])
        assert real["photoFormats"] == ["JPEG", "PNG", "WebP"]
        expect(page.locator("#photo-note")).to_have_text("You need a photo to share your completion (JPEG, PNG or WebP).")
        page.close()

        # A server that took only PNG and counted no refusal as the photo's own.
        def change(body):
            body["photoTypes"] = ["image/png"]
            body["photoFormats"] = ["PNG"]
            body["refusedPhotoCodes"] = []

        page = open_changed(context, server, change)
        assert page.get_by_test_id("photo-input").get_attribute("accept") == "image/png"
        expect(page.locator("#photo-note")).to_have_text("You need a photo to share your completion (PNG).")
        card(page, daily["id"]).get_by_test_id("complete-open").click()
        # A JPEG is not among the types this server takes: the note says so.
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        expect(page.locator("#photo-note")).to_have_text("This kind of picture may not work — PNG is safest.")
        page.get_by_test_id("photo-input").set_input_files(
            {"name": "dinner.jpg", "mimeType": "image/jpeg", "buffer": b"Not a picture at all, just words in a file.\n" * 20})
        with page.expect_response(lambda r: r.url.endswith("/api/photos")) as upload:
            page.get_by_test_id("complete-submit").click()
        assert upload.value.json()["code"] in real["refusedPhotoCodes"], upload.value.text()
        # The real server refuses the photo itself (no "Try again" there: see test_challenges.py); this one did
        # not list the code as such, so the page offers to try again.
        expect(page.get_by_test_id("complete-error")).to_be_visible()
        expect(page.get_by_test_id("complete-retry")).to_be_visible()
        no_errors(page)
    finally:
        context.close()


def test_the_feed_is_paged_by_the_server(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "pages")
        page = context.new_page()
        asked = []
        page.on("request", lambda request: asked.append(request.url) if "/api/feed?" in request.url else None)
        page.goto(f"{server}/challenges")
        page.wait_for_selector("body[data-ready=true]", state="attached")
        with page.expect_response(lambda r: "/api/feed?" in r.url and "filter=social" in r.url):
            page.get_by_test_id("filter-social").click()
        assert len(asked) >= 2 and any("filter=social" in url for url in asked), asked
        # No page size of the page's own: the server's default, and its `next` cursor for more.
        assert all("limit=" not in url for url in asked), asked
    finally:
        context.close()
