"""Photos a member owns, in the Complete sheet: a picked photo can be removed, and one the server already received
(a completion that failed on the way) is deleted there too, so it does not count against the person's uploads."""
import json
import os
import pathlib

import pytest
from playwright.sync_api import expect

from test_challenges import (LAPTOP, PHONE, PHOTO, card, join, new_context, no_errors, open_challenges, register,
                             serious_violations, stats, todays)

SHOTS = pathlib.Path(os.environ.get("CK_SCREENSHOTS", "/tmp/ck-screens"))
TABLET = {"width": 1194, "height": 834}


def pick_photo(page, challenge_id):
    card(page, challenge_id).get_by_test_id("complete-open").click()
    expect(page.get_by_test_id("complete-dialog")).to_be_visible()
    page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
    preview = page.locator("#photo-preview")
    expect(preview).to_be_visible()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=preview.element_handle())


def capture_uploads(page):
    """Lets photo uploads through to the server and keeps their answers (the photos the server now has)."""
    photos = []

    def handle(route):
        if route.request.method != "POST":
            return route.continue_()
        response = route.fetch()
        assert response.status == 201, response.text()
        photos.append(response.json())
        route.fulfill(response=response)

    page.route("**/api/photos", handle)
    return photos


@pytest.mark.parametrize("viewport", [PHONE, TABLET, LAPTOP], ids=["phone", "tablet", "laptop"])
def test_a_picked_photo_can_be_removed_and_the_servers_copy_is_deleted(browser, server, viewport):
    context = new_context(browser, viewport)
    try:
        register(context, server, "snap")
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        pick_photo(page, daily["id"])
        remove = page.get_by_test_id("remove-photo")
        submit = page.get_by_test_id("complete-submit")
        expect(remove).to_be_visible()
        expect(remove).to_be_in_viewport(ratio=1)
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(SHOTS / f"complete-photo-{name}.png"))
        found = serious_violations(page)
        assert not found, json.dumps(found, indent=1)

        # Removed before anything was sent: the sheet is back to "add a photo", and nothing reached the server.
        requests = []
        page.on("request", lambda r: requests.append(f"{r.method} {r.url}") if "/api/photos" in r.url else None)
        remove.click()
        expect(page.locator("#photo-preview")).to_be_hidden()
        expect(remove).to_be_hidden()
        expect(submit).to_be_disabled()
        expect(page.get_by_test_id("choose-photo")).to_be_focused()
        expect(page.locator("#photo-note")).to_contain_text("Photo removed.")
        assert requests == []

        # Sent, but the completion's answer is lost on the way: the server has the photo, no completion shows it.
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        uploads = capture_uploads(page)
        page.route("**/api/challenges/*/complete*", lambda route: route.abort())
        submit.click()
        expect(page.get_by_test_id("complete-error")).to_be_visible()
        assert len(uploads) == 1
        photo = uploads[0]
        assert context.request.get(f"{server}{photo['url']}").status == 200
        page.unroute("**/api/challenges/*/complete*")

        # "Remove photo" deletes the server's copy as well.
        with page.expect_response(lambda r: r.request.method == "DELETE" and photo["id"] in r.url) as deleted:
            remove.click()
        assert deleted.value.status == 204
        expect(page.locator("#photo-note")).to_contain_text("deleted from our server")
        page.screenshot(path=str(SHOTS / f"complete-photo-removed-{name}.png"))
        expect(page.get_by_test_id("complete-error")).to_be_hidden()
        expect(remove).to_be_hidden()
        gone = context.request.get(f"{server}{photo['url']}")
        assert gone.status == 404 and gone.json()["code"] == "photo_not_found"

        # Another photo then completes the challenge as usual.
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        submit.click()
        expect(page.get_by_test_id("celebration-points")).to_have_text("+100 Points")
        assert stats(context, server)["challengesCompleted"] == 1
        no_errors(page)
    finally:
        context.close()


def test_closing_the_sheet_after_a_failed_completion_deletes_the_photo_it_sent(browser, server):
    context = new_context(browser, PHONE)
    try:
        register(context, server, "close")
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        pick_photo(page, daily["id"])
        uploads = capture_uploads(page)
        page.route("**/api/challenges/*/complete*", lambda route: route.abort())
        page.get_by_test_id("complete-submit").click()
        expect(page.get_by_test_id("complete-error")).to_be_visible()
        assert len(uploads) == 1
        photo = uploads[0]
        with page.expect_response(lambda r: r.request.method == "DELETE" and photo["id"] in r.url) as deleted:
            page.keyboard.press("Escape")
        assert deleted.value.status == 204
        expect(page.get_by_test_id("complete-dialog")).to_be_hidden()
        assert context.request.get(f"{server}{photo['url']}").status == 404
        assert stats(context, server)["challengesCompleted"] == 0
        no_errors(page)
    finally:
        context.close()

