"""Challenges in the browser (seed 004): join, complete with a photo and a story, celebrate, and cheer each other on.

Setup goes through the API in each person's own browser context (its own cookie jar); what is under test is
done in the page. The figures (points, streak, headline) are whatever the server answered: the page only
shows them, so the tests compare the screen with the server's answer as well as with the seed's numbers.
"""
import json
import pathlib
import re
import uuid

import pytest
from playwright.sync_api import expect

PHOTO = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "gps-photo.jpg"
PASSWORD = "correct-horse-battery"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: Longer than the server's dismissAfter (3 s) plus the overlay's own timeline.
CELEBRATION_TIMEOUT = 10_000


# MARK: Setup through the API


def new_context(browser, viewport=LAPTOP, **options):
    """A browser context in UTC, so the page's day and the API's day (no ?tz=) are the same."""
    if viewport == PHONE:
        options.setdefault("is_mobile", True)
        options.setdefault("has_touch", True)
    return browser.new_context(viewport=viewport, timezone_id="UTC", **options)


def register(context, server, prefix):
    """Gives this context's person a username (the first request makes them a guest first)."""
    username = f"{prefix}{uuid.uuid4().hex[:10]}"
    response = context.request.post(f"{server}/api/account/register", data={"username": username, "password": PASSWORD})
    assert response.status == 201, response.text()
    return username


def follow(context, server, username):
    response = context.request.post(f"{server}/api/social/follow", data={"username": username})
    assert response.ok, response.text()
    assert response.json()["isFollowing"] is True


def todays(context, server, kind="daily", index=0):
    """One of today's open challenges of a type, as the server lists them."""
    overview = context.request.get(f"{server}/api/challenges?tz=UTC").json()
    matching = [c for c in overview["challenges"] if c["type"] == kind and c["isOpen"]]
    assert len(matching) > index, overview["challenges"]
    return matching[index]


def join(context, server, challenge_id):
    response = context.request.post(f"{server}/api/challenges/{challenge_id}/join?tz=UTC", headers={"X-CompletionKit": "1"})
    assert response.ok, response.text()
    assert response.json()["participation"]["status"] == "active"


def complete_via_api(context, server, challenge_id, story="Golden and folded.", public_link=True):
    """Joins, uploads the fixture photo and completes (with the public link turned on, unless told otherwise):
    the ChallengeCompletionView."""
    join(context, server, challenge_id)
    photo = context.request.post(f"{server}/api/photos", data=PHOTO.read_bytes(), headers={"Content-Type": "image/jpeg"})
    assert photo.status == 201, photo.text()
    response = context.request.post(
        f"{server}/api/challenges/{challenge_id}/complete?tz=UTC",
        data={"photoId": photo.json()["id"], "story": story, "publicLink": public_link},
        headers={"Idempotency-Key": str(uuid.uuid4())})
    assert response.ok, response.text()
    return response.json()


def stats(context, server):
    return context.request.get(f"{server}/api/challenges?tz=UTC").json()["stats"]


# MARK: The page


def open_challenges(context, server, hash=""):
    """Opens /challenges and waits until it has loaded and its feed stream is live."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._ck_errors = errors
    page.goto(f"{server}/challenges{hash}")
    wait_until_ready(page)
    return page


def wait_until_ready(page):
    page.wait_for_selector("body[data-ready=true]", state="attached")
    page.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'live'")


def card(page, challenge_id):
    return page.locator(f"[data-testid=challenge-card][data-id='{challenge_id}']")


def feed_item(page, activity_id):
    return page.locator(f"#feed-list [data-testid=feed-item][data-id='{activity_id}']")


def join_in_page(page, challenge_id):
    card(page, challenge_id).get_by_test_id("join").click()
    expect(card(page, challenge_id)).to_have_attribute("data-status", "active")


def fill_completion(page, challenge_id, story):
    """Opens "Complete with photo", picks the fixture photo and writes the story."""
    card(page, challenge_id).get_by_test_id("complete-open").click()
    dialog = page.get_by_test_id("complete-dialog")
    expect(dialog).to_be_visible()
    page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
    preview = page.locator("#photo-preview")
    expect(preview).to_be_visible()
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=preview.element_handle())
    assert_inside(preview.bounding_box(), page.locator("#photo-box").bounding_box(), "the whole photo shows in its box")
    page.get_by_test_id("story").fill(story)
    submit = page.get_by_test_id("complete-submit")
    expect(submit).to_be_enabled()
    return submit


def assert_inside(inner, outer, what, slack=1):
    assert (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack), (what, inner, outer)


def no_errors(*pages):
    for page in pages:
        assert not page._ck_errors, f"JavaScript errors on the page: {page._ck_errors}"


# MARK: Tests


def test_complete_with_photo_celebrates_and_reaches_a_follower_live(browser, server):
    alice_context, bob_context = new_context(browser), new_context(browser)
    try:
        alice = register(alice_context, server, "alice")
        bob_name = register(bob_context, server, "bob")
        follow(bob_context, server, alice)
        daily = todays(alice_context, server)
        story = "Two fillings: cheese and chives. Slid it onto a warm plate."

        # Bob's feed is open before Alice completes anything.
        bob = open_challenges(bob_context, server, "#feed")
        expect(bob.get_by_test_id("feed-empty")).to_be_visible()

        page = open_challenges(alice_context, server)
        join_in_page(page, daily["id"])
        submit = fill_completion(page, daily["id"], story)
        with page.expect_response(lambda r: "/complete" in r.url and r.request.method == "POST") as answer:
            submit.click()
        result = answer.value.json()
        assert answer.value.status == 200 and result["pointsAwarded"] == daily["points"] == 100, result

        celebration = page.get_by_test_id("celebration")
        expect(celebration).to_be_visible()
        expect(page.get_by_test_id("celebration-points")).to_have_text(f"+{result['pointsAwarded']} Points")
        expect(page.locator("#celebration-title")).to_have_text(result["headline"])
        assert result["headline"] == "Challenge Complete! 🎉"
        expect(celebration).to_be_hidden(timeout=CELEBRATION_TIMEOUT)
        expect(page.get_by_test_id("complete-dialog")).to_be_hidden()

        done = card(page, daily["id"])
        expect(done).to_have_attribute("data-status", "completed")
        expect(done.get_by_test_id("completed")).to_contain_text("Completed")
        expect(page.locator("#hero-points")).to_have_text("100")
        expect(page.locator("#hero-streak")).to_have_text("1 day")
        page.get_by_test_id("tab-people").click()
        expect(page.get_by_test_id("stat-points")).to_have_text("100")
        expect(page.get_by_test_id("stat-completed")).to_have_text("1")
        expect(page.get_by_test_id("stat-streak")).to_have_text("1")

        # Bob: the card arrived over the stream, with its photo and story.
        activity_id = result["activity"]["id"]
        post = feed_item(bob, activity_id)
        expect(post).to_be_visible()
        expect(bob.get_by_test_id("feed-empty")).to_be_hidden()
        expect(post.locator(".ch-post-story")).to_have_text(story)
        photo = post.locator(".ch-post-photo img")
        expect(photo).to_be_visible()
        photo.scroll_into_view_if_needed()
        bob.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=photo.element_handle())
        assert bob.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload happened

        congrats = post.get_by_test_id("congrats")
        congrats.click()
        expect(congrats).to_have_attribute("aria-pressed", "true")
        expect(post.get_by_test_id("congrats-count")).to_have_text("1")
        post.get_by_test_id("comment-toggle").click()
        comment = "Looks perfect — well done!"
        post.get_by_test_id("comment-input").fill(comment)
        with bob.expect_response(lambda r: r.url.endswith("/comments") and r.request.method == "POST") as posted:
            post.get_by_test_id("comment-post").click()
        assert posted.value.status == 201, posted.value.text()
        expect(post.locator(".ch-comment-body")).to_have_text([comment])

        # Alice reloads and sees both.
        page.reload()
        wait_until_ready(page)
        page.get_by_test_id("tab-feed").click()
        mine = feed_item(page, activity_id)
        expect(mine.get_by_test_id("congrats-count")).to_have_text("1")
        expect(mine.get_by_test_id("congrats")).to_have_attribute("aria-pressed", "false")
        mine.get_by_test_id("comment-toggle").click()
        expect(mine.locator(".ch-comment-body")).to_have_text([comment])
        expect(mine.locator(".ch-comment-name")).to_have_text([bob_name])
        no_errors(page, bob)
    finally:
        alice_context.close()
        bob_context.close()


def test_the_feed_catches_up_after_its_stream_was_cut(browser, server):
    """A completion posted while a follower's stream is down shows up once it is back (no reload), then live ones again."""
    alice_context, bob_context = new_context(browser), new_context(browser)
    try:
        alice = register(alice_context, server, "alice")
        register(bob_context, server, "bob")
        follow(bob_context, server, alice)
        gate = {"calls": 0, "open": False}

        def stream(route):
            gate["calls"] += 1
            if gate["calls"] == 1:
                # The first stream opens and ends at once, as a dropped connection does…
                route.fulfill(status=200, headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
                              body="retry: 50\n: connected\n\n")
            elif not gate["open"]:
                # …and the server cannot be reached until the gate opens (it never hears of this page meanwhile).
                route.fulfill(status=503, body="")
            else:
                route.continue_()

        bob_context.route("**/api/feed/events", stream)
        bob = bob_context.new_page()
        errors = []
        bob.on("pageerror", lambda error: errors.append(str(error)))
        bob._ck_errors = errors
        bob.goto(f"{server}/challenges#feed")
        bob.wait_for_selector("body[data-ready=true]", state="attached")
        bob.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'reconnecting'")

        missed = complete_via_api(alice_context, server, todays(alice_context, server)["id"], story="Posted while you were away.")
        assert gate["calls"] >= 2 and not feed_item(bob, missed["activity"]["id"]).count()
        gate["open"] = True
        expect(bob.get_by_test_id("live-status")).to_have_attribute("data-state", "live", timeout=20_000)
        expect(feed_item(bob, missed["activity"]["id"])).to_be_visible()
        expect(feed_item(bob, missed["activity"]["id"]).locator(".ch-post-story")).to_have_text("Posted while you were away.")

        # The stream that came back delivers the next one live, above it.
        later = complete_via_api(alice_context, server, todays(alice_context, server, "weekly")["id"], story="And one more.")
        expect(feed_item(bob, later["activity"]["id"])).to_be_visible()
        ids = bob.locator("#feed-list [data-testid=feed-item]").evaluate_all("(rows) => rows.map((row) => row.dataset.id)")
        assert ids == [later["activity"]["id"], missed["activity"]["id"]], ids
        assert bob.evaluate("performance.getEntriesByType('navigation').length") == 1
        no_errors(bob)
    finally:
        alice_context.close()
        bob_context.close()


def test_share_panel_offers_the_card_and_a_public_link_that_can_be_turned_off(browser, server):
    context, stranger = new_context(browser), new_context(browser)
    try:
        register(context, server, "sharer")
        result = complete_via_api(context, server, todays(context, server)["id"], story="Shared with the world.")
        activity_id = result["activity"]["id"]
        page = open_challenges(context, server, "#feed")

        feed_item(page, activity_id).get_by_test_id("share-open").click()
        panel = page.get_by_test_id("share-panel")
        expect(panel).to_be_visible()
        image = page.get_by_test_id("share-card-img")
        expect(image).to_have_attribute("src", re.compile(rf"/api/activities/{activity_id}/card\.png$"))
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        assert image.evaluate("(img) => [img.naturalWidth, img.naturalHeight]") == [1080, 1350]
        # No Web Share for files in headless Chromium: the download is the way, and it is offered.
        can_share_files = page.evaluate(
            "() => { try { return Boolean(navigator.canShare && navigator.canShare({ files: [new File([new Uint8Array(8)], 'c.png', { type: 'image/png' })] })); } catch { return false; } }")
        if not can_share_files:
            expect(page.get_by_test_id("share-native")).to_be_hidden()
        download = page.get_by_test_id("share-download")
        expect(download).to_be_visible()
        expect(download).to_have_attribute("href", re.compile(r"card\.png$"))
        expect(download).to_have_attribute("download", re.compile(r"\.png$"))
        assert context.request.get(f"{server}{download.get_attribute('href')}").headers["content-type"].startswith("image/png")

        # The public link works for someone without an account.
        expect(page.get_by_test_id("public-link").first).to_be_visible()
        public_switch = panel.get_by_test_id("public-link")
        expect(public_switch).to_be_checked()
        share_url = page.get_by_test_id("share-url").input_value()
        assert share_url.endswith(f"/s/{activity_id}"), share_url
        visitor = stranger.new_page()
        response = visitor.goto(share_url)
        assert response.status == 200
        og_image = visitor.locator("meta[property='og:image']")
        expect(og_image).to_have_attribute("content", re.compile(rf"/s/{activity_id}/card\.png$"))
        card_image = visitor.locator("img.share-card")
        visitor.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=card_image.element_handle())
        expect(visitor.locator(".share-story")).to_contain_text("Shared with the world.")

        # Off: the link and its card are gone.
        with page.expect_response(lambda r: r.url.endswith(f"/api/activities/{activity_id}") and r.request.method == "PATCH") as patched:
            public_switch.click()
        assert patched.value.ok and patched.value.json()["publicLink"] is False
        expect(public_switch).not_to_be_checked()
        expect(page.get_by_test_id("share-url")).to_be_hidden()
        assert stranger.request.get(share_url).status == 404
        assert stranger.request.get(f"{share_url}/card.png").status == 404
        assert visitor.goto(share_url).status == 404
        # The switch on the card says the same.
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        expect(feed_item(page, activity_id).get_by_test_id("public-link")).not_to_be_checked()
        no_errors(page)
    finally:
        context.close()
        stranger.close()


@pytest.mark.parametrize("how", ["calm-switch", "reduced-motion"])
def test_calm_completion_shows_the_figures_without_movement(browser, server, how):
    context = new_context(browser, reduced_motion="reduce" if how == "reduced-motion" else "no-preference")
    try:
        register(context, server, "calm")
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        if how == "calm-switch":
            page.locator("#calm").check()
            expect(page.locator("body")).to_have_attribute("data-motion", "reduced")
        submit = fill_completion(page, daily["id"], "Quiet and calm.")
        with page.expect_response(lambda r: "/complete?" in r.url and r.request.method == "POST") as answer:
            with page.expect_request(lambda r: "/complete?" in r.url and r.method == "POST") as sent:
                submit.click()
        assert "preference=reduced" in sent.value.url, sent.value.url
        # The day it counts in goes as the Time-Zone header, the one spelling the API documents.
        assert "tz=" not in sent.value.url and sent.value.headers.get("time-zone") == "UTC", (sent.value.url, sent.value.headers)
        payload = answer.value.json()["celebration"]
        assert payload["preference"] == "reduced", payload
        expect(page.get_by_test_id("celebration")).to_be_visible()
        expect(page.get_by_test_id("celebration-points")).to_have_text("+100 Points")
        expect(page.locator("#celebration-title")).to_have_text("Challenge Complete! 🎉")
        # Every step only fades: each animation starts and ends with the same transform.
        transforms = page.evaluate(
            """() => document.getAnimations().filter((a) => a.id && a.id.startsWith('step:'))
                 .map((a) => [a.id, a.effect.getKeyframes().map((k) => k.transform)])""")
        # One animation per step, and the Close button arrives with the backdrop (not before the overlay).
        assert len(transforms) == len(payload["steps"]) + 1 > 1, transforms
        assert all(frames[0] == frames[-1] for _, frames in transforms), transforms
        close_steps = page.evaluate("() => document.querySelector('#celebration-close').getAnimations().map((a) => a.id)")
        assert close_steps == ["step:backdrop"], close_steps
        # Nothing else in the overlay moves either (no CSS animation or transition on a transform).
        moving = page.evaluate(
            """() => document.getAnimations().filter((a) => !(a.id || '').startsWith('step:')
                 && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('#celebration'))
                 .map((a) => a.animationName || a.transitionProperty || a.id)""")
        assert moving == [], moving
        expect(page.get_by_test_id("celebration")).to_be_hidden(timeout=CELEBRATION_TIMEOUT)
        expect(card(page, daily["id"])).to_have_attribute("data-status", "completed")
        no_errors(page)
    finally:
        context.close()


def test_phone_tabs_dialog_celebration_and_a_double_tap_paying_once(browser, server):
    context = new_context(browser, PHONE)
    try:
        register(context, server, "phone")
        daily = todays(context, server)
        page = open_challenges(context, server)

        # The tabs show one section at a time.
        panes = {name: page.locator(f"[data-pane={name}]") for name in ("challenges", "feed", "people")}
        for name in ("feed", "people", "challenges"):
            page.get_by_test_id(f"tab-{name}").tap()
            expect(page.get_by_test_id(f"tab-{name}")).to_have_attribute("aria-current", "page")
            for other, pane in panes.items():
                (expect(pane).to_be_visible if other == name else expect(pane).to_be_hidden)()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        join_in_page(page, daily["id"])
        submit = fill_completion(page, daily["id"], "Made on the go.")
        expect(submit).to_be_in_viewport(ratio=1)
        box = submit.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
        assert box["height"] >= 44

        # Two clicks in a row (a double tap's worth): one completion, paid once.
        completes = []
        page.on("request", lambda r: completes.append(r.url) if "/complete?" in r.url else None)
        submit.dblclick()
        celebration = page.get_by_test_id("celebration")
        expect(celebration).to_be_visible()
        expect(page.get_by_test_id("celebration-points")).to_have_text("+100 Points")
        for part in ("#celebration-title", "#celebration-message", "[data-testid=celebration-points]", "#celebration-close"):
            part_box = page.locator(part).bounding_box()
            assert part_box["x"] >= 0 and part_box["x"] + part_box["width"] <= PHONE["width"], (part, part_box)
            assert part_box["y"] >= 0 and part_box["y"] + part_box["height"] <= PHONE["height"], (part, part_box)
        expect(celebration).to_be_hidden(timeout=CELEBRATION_TIMEOUT)
        expect(page.locator("#hero-points")).to_have_text("100")
        assert stats(context, server)["totalPoints"] == 100
        # One's own completion is no "new activity" on the Feed tab.
        expect(page.locator("#feed-dot")).to_be_hidden()
        assert len(completes) == 1, completes

        page.get_by_test_id("tab-feed").tap()
        posts = page.locator("#feed-list [data-testid=feed-item][data-type=challenge_completed]")
        expect(posts).to_have_count(1)
        page.get_by_test_id("tab-people").tap()
        expect(page.get_by_test_id("stat-points")).to_have_text("100")
        expect(page.get_by_test_id("stat-completed")).to_have_text("1")
        no_errors(page)
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_file_that_is_not_a_photo_gets_a_kind_message_and_completes_nothing(browser, server, viewport):
    context = new_context(browser, viewport)
    try:
        register(context, server, "oops")
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        card(page, daily["id"]).get_by_test_id("complete-open").click()
        submit = page.get_by_test_id("complete-submit")
        # A file the browser itself knows is text is refused before anything is sent, kindly.
        page.get_by_test_id("photo-input").set_input_files({"name": "notes.txt", "mimeType": "text/plain", "buffer": b"shopping list\n"})
        expect(page.get_by_test_id("complete-error")).to_contain_text("isn’t a picture")
        expect(submit).to_be_disabled()
        expect(page.locator("#photo-preview")).to_be_hidden()
        # One that claims to be a JPEG goes to the server, which reads its bytes.
        page.get_by_test_id("photo-input").set_input_files(
            {"name": "dinner.jpg", "mimeType": "image/jpeg", "buffer": b"Not a picture at all, just words in a file.\n" * 20})
        with page.expect_response(lambda r: r.url.endswith("/api/photos")) as upload:
            submit.click()
        assert upload.value.status == 415 and upload.value.json()["code"] == "photo_unsupported", upload.value.text()
        error = page.get_by_test_id("complete-error")
        expect(error).to_be_visible()
        expect(error).to_be_in_viewport(ratio=1)
        expect(error).to_contain_text(upload.value.json()["message"])
        expect(error).to_contain_text("JPEG, PNG or WebP")
        # Sending the same file again cannot help: no "Try again", the file is taken away, and the way on is another photo.
        expect(page.get_by_test_id("complete-retry")).to_be_hidden()
        expect(submit).to_be_disabled()
        expect(page.locator("#photo-preview")).to_be_hidden()
        expect(page.get_by_test_id("choose-photo")).to_be_focused()
        expect(page.get_by_test_id("complete-dialog")).to_be_visible()
        expect(page.get_by_test_id("celebration")).to_be_hidden()
        # Nothing was completed: not on screen, not on the server.
        expect(card(page, daily["id"])).to_have_attribute("data-status", "active")
        figures = stats(context, server)
        assert {key: figures[key] for key in ("challengesCompleted", "totalPoints", "currentStreak", "longestStreak")} == {
            "challengesCompleted": 0, "totalPoints": 0, "currentStreak": 0, "longestStreak": 0}
        assert figures["freezes"]["held"] == 0
        assert todays(context, server)["participation"]["status"] == "active"
        # Choosing a real photo then works from the same dialog.
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        expect(error).to_be_hidden()
        expect(submit).to_be_enabled()
        submit.click()
        expect(page.get_by_test_id("celebration-points")).to_have_text("+100 Points")
        no_errors(page)
    finally:
        context.close()


def test_reloading_during_the_celebration_leaves_it_completed_and_closed(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "reload")
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        fill_completion(page, daily["id"], "Reloaded mid-party.").click()
        expect(page.get_by_test_id("celebration")).to_be_visible()

        page.reload()
        wait_until_ready(page)
        expect(card(page, daily["id"])).to_have_attribute("data-status", "completed")
        expect(card(page, daily["id"]).get_by_test_id("completed")).to_be_visible()
        expect(page.get_by_test_id("celebration")).to_be_hidden()
        assert page.evaluate("document.querySelectorAll('dialog[open]').length") == 0
        expect(page.locator("#hero-points")).to_have_text("100")
        # The page answers to the mouse (nothing invisible lies on top of it).
        page.get_by_test_id("tab-people").click()
        expect(page.get_by_test_id("stat-completed")).to_have_text("1")
        no_errors(page)
    finally:
        context.close()


def serious_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5])
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("size", [PHONE, {"width": 1194, "height": 834}, LAPTOP], ids=["phone", "tablet", "laptop"])
def test_no_serious_accessibility_problems(browser, server, size):
    pytest.importorskip("axe_playwright_python.sync_playwright")
    context, friend_context = new_context(browser, size), new_context(browser)
    try:
        me = register(context, server, "axe")
        friend = register(friend_context, server, "pal")
        follow(context, server, friend)
        follow(friend_context, server, me)
        complete_via_api(friend_context, server, todays(friend_context, server, index=1)["id"], story="A friend's plate.")
        complete_via_api(context, server, todays(context, server)["id"], story="My own plate.")
        join(context, server, todays(context, server, index=1)["id"])
        page = open_challenges(context, server)
        found = {}

        found["challenges"] = serious_violations(page)
        page.get_by_test_id("tab-feed").click()
        expect(page.locator("#feed-list [data-type=challenge_completed]")).to_have_count(2)
        page.locator("#feed-list [data-testid=comment-toggle]").first.click()
        found["feed"] = serious_violations(page)
        page.get_by_test_id("tab-people").click()
        expect(page.get_by_test_id("following-list").get_by_test_id("person")).to_have_count(1)
        found["people"] = serious_violations(page)
        page.get_by_test_id("tab-challenges").click()
        card(page, todays(context, server, index=1)["id"]).get_by_test_id("complete-open").click()
        expect(page.get_by_test_id("complete-dialog")).to_be_visible()
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        found["complete dialog"] = serious_violations(page)
        page.keyboard.press("Escape")
        page.get_by_test_id("tab-feed").click()
        page.locator("#feed-list [data-testid=share-open]").first.click()
        expect(page.get_by_test_id("share-panel")).to_be_visible()
        found["share panel"] = serious_violations(page)

        assert not any(found.values()), json.dumps(found, indent=1)
        no_errors(page)
    finally:
        context.close()
        friend_context.close()


def test_a_second_tab_completing_the_same_challenge_is_told_it_was_done_already(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "twotabs")
        daily = todays(context, server)
        join(context, server, daily["id"])
        first = open_challenges(context, server)
        second = open_challenges(context, server)
        first_submit = fill_completion(first, daily["id"], "From the first tab.")
        second_submit = fill_completion(second, daily["id"], "From the second tab.")
        first_submit.click()
        expect(first.get_by_test_id("celebration")).to_be_visible()

        second_submit.click()
        error = second.get_by_test_id("complete-error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("already completed this challenge")
        # It is news, not a failure: not dressed as an error.
        expect(error).to_have_attribute("data-tone", "info")
        assert error.evaluate("(e) => getComputedStyle(e).backgroundColor") != "rgb(251, 233, 231)"
        expect(second.get_by_test_id("celebration")).to_be_hidden()
        expect(second.get_by_test_id("complete-submit")).not_to_contain_text("Success")
        expect(card(second, daily["id"])).to_have_attribute("data-status", "completed")
        # It paid once, and the story that stands is the first tab's.
        assert stats(context, server)["totalPoints"] == 100
        feed = context.request.get(f"{server}/api/feed?filter=challenges").json()
        assert [item["story"] for item in feed["items"]] == ["From the first tab."]
        no_errors(first, second)
    finally:
        context.close()


# MARK: Keyboard, counting, phone, share card and share sheet


def limits(context, server):
    overview = context.request.get(f"{server}/api/challenges?tz=UTC").json()
    return overview["storyLimit"], overview["commentLimit"]


def focused_testid(page):
    return page.evaluate("document.activeElement && (document.activeElement.dataset.testid || document.activeElement.tagName)")


def test_the_keyboard_stays_put_after_posting_a_comment_following_and_unfollowing(browser, server):
    context, friend_context, other_context = new_context(browser), new_context(browser), new_context(browser)
    try:
        register(context, server, "keys")
        friend = register(friend_context, server, "pal")
        other = register(other_context, server, "newpal")
        posted = complete_via_api(friend_context, server, todays(friend_context, server)["id"], story="Crisp edges.")
        follow(context, server, friend)
        page = open_challenges(context, server, "#feed")

        # Post: the keyboard goes back to the (now empty) comment field, ready for another.
        post = feed_item(page, posted["activity"]["id"])
        post.get_by_test_id("comment-toggle").click()
        field = post.get_by_test_id("comment-input")
        field.focus()
        page.keyboard.type("So crisp!")
        page.keyboard.press("Tab")
        expect(post.get_by_test_id("comment-post")).to_be_focused()
        with page.expect_response(lambda r: r.url.endswith("/comments") and r.request.method == "POST") as answer:
            page.keyboard.press("Enter")
        assert answer.value.status == 201
        expect(post.locator(".ch-comment-body")).to_have_text(["So crisp!"])
        expect(field).to_have_value("")
        expect(field).to_be_focused()

        # Unfollow and follow again from the list: the same button, in its new state, keeps the keyboard.
        page.get_by_test_id("tab-people").click()
        row = page.get_by_test_id("following-list").locator(f"[data-username='{friend}']")
        toggle = row.get_by_test_id("follow-toggle")
        expect(toggle).to_have_text("Unfollow")
        toggle.focus()
        with page.expect_response(lambda r: f"/api/social/follow/{friend}" in r.url and r.request.method == "DELETE"):
            page.keyboard.press("Enter")
        expect(toggle).to_have_text("Follow")
        expect(page.get_by_test_id("following-count")).to_have_text("0")
        expect(toggle).to_be_focused()
        with page.expect_response(lambda r: r.url.endswith("/api/social/follow") and r.request.method == "POST"):
            page.keyboard.press("Enter")
        expect(toggle).to_have_text("Unfollow")
        expect(page.get_by_test_id("following-count")).to_have_text("1")
        expect(toggle).to_be_focused()

        # Follow by username, pressing the Follow button: the list below is drawn again, the button keeps the keyboard.
        page.get_by_test_id("follow-username").fill(other)
        page.get_by_test_id("follow-username").focus()
        page.keyboard.press("Tab")
        expect(page.get_by_test_id("follow-submit")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("follow-message")).to_contain_text("You now follow")
        expect(page.get_by_test_id("following-list").locator(f"[data-username='{other}']")).to_be_visible()
        expect(page.get_by_test_id("following-count")).to_have_text("2")
        expect(page.get_by_test_id("follow-submit")).to_be_focused()
        assert focused_testid(page) == "follow-submit"
        no_errors(page)
    finally:
        context.close()
        friend_context.close()
        other_context.close()


def test_story_and_comment_count_characters_as_the_server_does(browser, server):
    """👍🏽 or 👨‍👩‍👧 is one character to the server (a Swift Character): one to the counter, and the field takes as many as the server does."""
    context, friend_context = new_context(browser), new_context(browser)
    try:
        register(context, server, "emoji")
        friend = register(friend_context, server, "pal")
        friends_post = complete_via_api(friend_context, server, todays(friend_context, server)["id"])
        follow(context, server, friend)
        story_limit, comment_limit = limits(context, server)
        daily = todays(context, server)
        join(context, server, daily["id"])
        page = open_challenges(context, server)
        card(page, daily["id"]).get_by_test_id("complete-open").click()
        page.get_by_test_id("photo-input").set_input_files(str(PHOTO))
        story = page.get_by_test_id("story")
        counter = page.get_by_test_id("story-count")

        story.fill("👍🏽👨‍👩‍👧e\u0301")
        expect(counter).to_have_text(f"3 / {story_limit}")
        # As many families as the server takes: nothing is cut off, and the counter is full, not over.
        family = "👨‍👩‍👧" * story_limit
        story.fill(family)
        assert story.input_value() == family
        expect(counter).to_have_text(f"{story_limit} / {story_limit}")
        # One more is too many: the counter says so and nothing is sent.
        story.fill(family + "👍🏽")
        expect(counter).to_contain_text("1 too many")
        expect(story).to_have_attribute("aria-invalid", "true")
        sent = []
        page.on("request", lambda r: sent.append(r.url) if "/complete?" in r.url else None)
        page.get_by_test_id("complete-submit").click()
        expect(page.get_by_test_id("complete-error")).to_contain_text("too long")
        expect(story).to_be_focused()
        assert sent == []
        # Back at the limit, the server takes it whole.
        story.fill(family)
        expect(story).not_to_have_attribute("aria-invalid", "true")
        with page.expect_response(lambda r: "/complete?" in r.url and r.request.method == "POST") as answer:
            page.get_by_test_id("complete-submit").click()
        assert answer.value.status == 200, answer.value.text()
        assert answer.value.json()["activity"]["story"] == family

        # A comment of as many thumbs as the server takes goes through whole.
        page.get_by_test_id("celebration-close").click()
        page.get_by_test_id("tab-feed").click()
        post = feed_item(page, friends_post["activity"]["id"])
        post.get_by_test_id("comment-toggle").click()
        thumbs = "👍🏽" * comment_limit
        post.get_by_test_id("comment-input").fill(thumbs)
        assert post.get_by_test_id("comment-input").input_value() == thumbs
        with page.expect_response(lambda r: r.url.endswith("/comments") and r.request.method == "POST") as answer:
            post.get_by_test_id("comment-post").click()
        assert answer.value.status == 201, answer.value.text()
        expect(post.locator(".ch-comment-body")).to_have_text([thumbs])
        no_errors(page)
    finally:
        context.close()
        friend_context.close()


def test_on_a_phone_the_tab_bar_never_covers_the_focused_control(browser, server):
    context, friend_context = new_context(browser, PHONE), new_context(browser)
    try:
        register(context, server, "thumb")
        friend = register(friend_context, server, "cook")
        overview = friend_context.request.get(f"{server}/api/challenges?tz=UTC").json()
        open_ones = [c for c in overview["challenges"] if c["isOpen"]][:4]
        assert len(open_ones) >= 3, overview["challenges"]
        for challenge in open_ones:
            complete_via_api(friend_context, server, challenge["id"], story=f"Made {challenge['title']}.")
        follow(context, server, friend)
        page = open_challenges(context, server, "#feed")
        expect(page.locator("#feed-list [data-type=challenge_completed]")).to_have_count(len(open_ones))
        assert page.evaluate("document.documentElement.scrollHeight") > 2 * PHONE["height"]

        check = """() => {
            const el = document.activeElement;
            if (!el || el === document.body) return { where: 'body' };
            if (el.closest('.ch-tabs, footer')) return { where: 'outside' };
            const box = el.getBoundingClientRect();
            const bar = document.querySelector('.ch-tabs').getBoundingClientRect();
            const top = document.querySelector('.topbar').getBoundingClientRect();
            return { where: 'page', id: el.dataset.testid || el.tagName, bottom: box.bottom, top: box.top,
                     barTop: bar.top, topbarBottom: top.bottom, y: scrollY };
        }"""
        page.evaluate("() => { scrollTo(0, 0); document.querySelector('#feed-title').focus(); }")
        seen = []
        for _ in range(80):
            page.keyboard.press("Tab")
            spot = page.evaluate(check)
            if spot["where"] == "outside":
                break
            assert spot["where"] == "page", seen
            seen.append(spot)
            assert spot["bottom"] <= spot["barTop"] + 0.5, ("covered by the tab bar", spot)
            assert spot["top"] >= spot["topbarBottom"] - 0.5, ("under the top bar", spot)
        assert any(spot["id"] == "share-open" for spot in seen[-3:]), seen[-3:]

        # And back up: nothing hides under the sticky top bar either.
        for _ in range(len(seen) - 1):
            page.keyboard.press("Shift+Tab")
            spot = page.evaluate(check)
            assert spot["where"] == "page", spot
            assert spot["top"] >= spot["topbarBottom"] - 0.5, ("under the top bar", spot)
            assert spot["bottom"] <= spot["barTop"] + 0.5, ("covered by the tab bar", spot)

        # The last post's controls, each waiting just under the bar (in the window, but hidden) when Tab reaches it.
        last = page.locator("#feed-list [data-testid=feed-item]").last
        last.get_by_test_id("comment-toggle").click()
        # The comments open (and the page grows below the post) before anything is scrolled into place.
        expect(last.get_by_test_id("comment-input")).to_be_visible()
        order = ["item-menu", "congrats", "comment-toggle", "share-open", "comment-input"]
        for before, target in zip(order, order[1:]):
            # Scrolled again on every frame until it holds, and held for three frames in a row: the feed may
            # still settle (the live stream's catch-up, a photo's decode) between one scroll and the next step,
            # and a single scroll, or a single look, then lands short.
            page.evaluate("() => { window.__placed = { top: null, frames: 0 }; }")
            page.wait_for_function("""([post, target]) => {
                const el = post.querySelector(`[data-testid=${target}]`);
                const bar = document.querySelector('.ch-tabs').getBoundingClientRect();
                const want = bar.top + 8;
                const top = el.getBoundingClientRect().top;
                if (top <= bar.top || top - want > 1) scrollBy(0, top - want);
                const now = el.getBoundingClientRect().top;
                const placed = window.__placed;
                placed.frames = now > bar.top && placed.top !== null && Math.abs(now - placed.top) < 0.5 ? placed.frames + 1 : 0;
                placed.top = now;
                return placed.frames >= 3;
            }""", arg=[last.element_handle(), target])
            assert last.get_by_test_id(target).bounding_box()["y"] > page.locator(".ch-tabs").bounding_box()["y"]
            last.get_by_test_id(before).evaluate("(el) => el.focus({ preventScroll: true })")
            page.keyboard.press("Tab")
            expect(last.get_by_test_id(target)).to_be_focused()
            spot = page.evaluate(check)
            assert spot["bottom"] <= spot["barTop"] + 0.5, ("covered by the tab bar", target, spot)
            assert spot["top"] >= spot["topbarBottom"] - 0.5, ("under the top bar", target, spot)

        # The on-screen keyboard comes up (the window gets shorter, the bar rises): the field stays in sight above it.
        field = last.get_by_test_id("comment-input")
        assert field.bounding_box()["y"] > 420
        page.set_viewport_size({"width": PHONE["width"], "height": 420})
        page.wait_for_function("""(el) => {
            const box = el.getBoundingClientRect();
            return document.activeElement === el && box.bottom <= document.querySelector('.ch-tabs').getBoundingClientRect().top
              && box.top >= document.querySelector('.topbar').getBoundingClientRect().bottom;
        }""", arg=field.element_handle())
        no_errors(page)
    finally:
        context.close()
        friend_context.close()


def test_the_share_card_has_a_placeholder_while_it_loads_and_a_kind_word_if_it_fails(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "cardwait")
        first = complete_via_api(context, server, todays(context, server)["id"], story="First.")["activity"]["id"]
        second = complete_via_api(context, server, todays(context, server, "weekly")["id"], story="Second.")["activity"]["id"]
        held = []
        context.route(f"**/api/activities/{first}/card.png", lambda route: held.append(route))
        context.route(f"**/api/activities/{second}/card.png", lambda route: route.abort())
        page = open_challenges(context, server, "#feed")

        feed_item(page, first).get_by_test_id("share-open").click()
        frame = page.get_by_test_id("share-card")
        expect(frame).to_be_visible()
        expect(frame).to_have_attribute("aria-busy", "true")
        expect(frame).to_contain_text("Loading the share card")
        # The card's request is held by the route (handlers run while Playwright talks to the page).
        for _ in range(200):
            if held:
                break
            page.evaluate("() => new Promise(requestAnimationFrame)")
        assert held, "the card was never asked for"
        before = frame.bounding_box()
        assert before["height"] > 200, before
        assert abs(before["width"] / before["height"] - 1080 / 1350) < 0.02, before
        held[0].continue_()
        image = page.get_by_test_id("share-card-img")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
        expect(frame).not_to_have_attribute("aria-busy", "true")
        expect(image).to_be_visible()
        after = frame.bounding_box()
        assert abs(after["height"] - before["height"]) <= 1 and abs(after["width"] - before["width"]) <= 1, (before, after)
        page.keyboard.press("Escape")

        feed_item(page, second).get_by_test_id("share-open").click()
        expect(frame).to_contain_text("couldn’t load the share card")
        expect(frame).not_to_have_attribute("aria-busy", "true")
        expect(page.get_by_test_id("share-card-img")).to_be_hidden()
        failed = frame.bounding_box()
        assert abs(failed["height"] - before["height"]) <= 1, (before, failed)
        no_errors(page)
    finally:
        context.close()


SHARE_STUB = """
window.__shared = [];
window.__shareAnswer = 'ok';
Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value: async function (data) {
  window.__shared.push({ title: data.title, text: data.text, url: data.url, files: (data.files || []).length });
  if (window.__shareAnswer !== 'ok') throw new DOMException('Not allowed', window.__shareAnswer);
} });
Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value: function (data) { return !(data && data.files); } });
"""


def test_the_share_sheet_shares_the_link_and_story_and_copies_the_link(browser, server):
    story = "Shared with the world."
    sharing = new_context(browser)
    plain = new_context(browser)
    try:
        # Where the Web Share API exists, "Share…" hands over the public link and the story.
        sharing.add_init_script(SHARE_STUB)
        sharing.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        register(sharing, server, "sharer")
        activity_id = complete_via_api(sharing, server, todays(sharing, server)["id"], story=story)["activity"]["id"]
        page = open_challenges(sharing, server, "#feed")
        feed_item(page, activity_id).get_by_test_id("share-open").click()
        share = page.get_by_test_id("share-native")
        expect(share).to_be_visible()
        expect(share).to_be_focused()
        share_url = page.get_by_test_id("share-url").input_value()
        assert share_url.endswith(f"/s/{activity_id}"), share_url
        share.click()
        expect(page.get_by_test_id("share-status")).to_have_text("Shared.")
        shared = page.evaluate("window.__shared")
        assert len(shared) == 1 and shared[0]["url"] == share_url and story in shared[0]["text"], shared
        # Closing the system sheet is no failure; a share the browser refuses falls back to copying the link.
        page.evaluate("window.__shareAnswer = 'AbortError'")
        share.click()
        expect(page.get_by_test_id("share-status")).to_have_text("")
        page.evaluate("window.__shareAnswer = 'NotAllowedError'")
        share.click()
        expect(page.get_by_test_id("share-status")).to_have_text("Link copied.")
        assert page.evaluate("navigator.clipboard.readText()") == share_url

        # With the public link off there is no link to share: the Share button goes, the card stays.
        page.get_by_test_id("share-panel").get_by_test_id("public-link").click()
        expect(page.get_by_test_id("share-url")).to_be_hidden()
        expect(share).to_be_hidden()
        expect(page.get_by_test_id("share-download")).to_be_visible()
        page.get_by_test_id("share-panel").get_by_test_id("public-link").click()
        expect(share).to_be_visible()

        # Without the Web Share API (desktop Chromium): the link is copied, with visible confirmation.
        plain.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        register(plain, server, "copier")
        other_id = complete_via_api(plain, server, todays(plain, server)["id"], story=story)["activity"]["id"]
        other = open_challenges(plain, server, "#feed")
        assert other.evaluate("typeof navigator.share") == "undefined"
        feed_item(other, other_id).get_by_test_id("share-open").click()
        expect(other.get_by_test_id("share-native")).to_be_hidden()
        link = other.get_by_test_id("share-url")
        expect(link).to_have_attribute("readonly", "")
        copy = other.get_by_test_id("copy-link")
        expect(copy).to_be_visible()
        copy.click()
        expect(other.get_by_test_id("share-status")).to_have_text("Link copied.")
        assert other.evaluate("navigator.clipboard.readText()") == link.input_value()
        assert link.input_value().endswith(f"/s/{other_id}")
        no_errors(page, other)
    finally:
        sharing.close()
        plain.close()


def test_open_pages_follow_congrats_comments_and_a_review_live(browser, server):
    """Counts others change, and a post hidden by reports, reach open pages without a reload."""
    author_context, reader_context = new_context(browser), new_context(browser)
    cheerers = [new_context(browser) for _ in range(3)]
    try:
        author = register(author_context, server, "live")
        register(reader_context, server, "reader")
        follow(reader_context, server, author)
        for index, context in enumerate(cheerers):
            register(context, server, f"cheer{index}")
            follow(context, server, author)
        done = complete_via_api(author_context, server, todays(author_context, server)["id"])
        post = done["activity"]["id"]
        author_page = open_challenges(author_context, server, "#feed")
        reader_page = open_challenges(reader_context, server, "#feed")
        for page in (author_page, reader_page):
            expect(feed_item(page, post)).to_be_visible()
            expect(feed_item(page, post).get_by_test_id("congrats-count")).to_have_text("0")

        # Someone else's congrats and comment: both open pages show the new counts.
        assert cheerers[0].request.post(f"{server}/api/activities/{post}/congrats", headers={"X-CompletionKit": "1"}).ok
        assert cheerers[1].request.post(f"{server}/api/activities/{post}/comments", data={"body": "Looks delicious"}).ok
        for page in (author_page, reader_page):
            expect(feed_item(page, post).get_by_test_id("congrats-count")).to_have_text("1")
            expect(feed_item(page, post).locator("[data-role=comment-count]")).to_have_text("1")
        expect(feed_item(reader_page, post).get_by_test_id("congrats")).to_have_attribute("aria-pressed", "false")

        # The reader's own congrats from another tab of theirs: pressed, and counted once.
        other_tab = reader_context.new_page()
        assert other_tab.request.post(f"{server}/api/activities/{post}/congrats", headers={"X-CompletionKit": "1"}).ok
        expect(feed_item(reader_page, post).get_by_test_id("congrats")).to_have_attribute("aria-pressed", "true")
        expect(feed_item(reader_page, post).get_by_test_id("congrats-count")).to_have_text("2")

        # Three reports hide it: it leaves the reader's page; its author's page says it is waiting for review.
        for context in cheerers:
            assert context.request.post(f"{server}/api/activities/{post}/report", data={"reason": "not cooked"}).ok
        expect(feed_item(reader_page, post)).to_have_count(0)
        expect(feed_item(author_page, post).get_by_test_id("post-status")).to_have_text("Hidden from feeds while we take a look.")
        # Its share sheet does not promise a public link while it is hidden.
        feed_item(author_page, post).get_by_test_id("share-open").click()
        expect(author_page.locator("#share-public")).to_be_disabled()
        expect(author_page.locator("#share-public-help")).to_contain_text("hidden from feeds")
        expect(author_page.get_by_test_id("share-url")).to_be_hidden()
        no_errors(author_page, reader_page)
    finally:
        for context in [author_context, reader_context, *cheerers]:
            context.close()


def test_where_the_browser_shares_pictures_share_hands_over_the_card_png_with_the_link(browser, server):
    context = new_context(browser)
    try:
        # A system sheet that takes files (as on phones): the card goes as a PNG, with the link and the story.
        context.add_init_script(SHARE_STUB.replace("return !(data && data.files);", "return true;"))
        register(context, server, "picture")
        activity_id = complete_via_api(context, server, todays(context, server)["id"], story="With the card.")["activity"]["id"]
        page = open_challenges(context, server, "#feed")
        feed_item(page, activity_id).get_by_test_id("share-open").click()
        expect(page.locator("#share-card")).to_have_attribute("data-state", "ready")
        share = page.get_by_test_id("share-native")
        expect(share).to_have_attribute("data-shares", "card")
        share.click()
        expect(page.get_by_test_id("share-status")).to_have_text("Shared.")
        shared = page.evaluate("window.__shared")
        assert shared[-1]["files"] == 1 and shared[-1]["url"].endswith(f"/s/{activity_id}") and "With the card." in shared[-1]["text"], shared
        # With the link off, the picture alone (and the story) is shared.
        page.get_by_test_id("share-panel").get_by_test_id("public-link").click()
        expect(page.get_by_test_id("share-url")).to_be_hidden()
        expect(share).to_have_attribute("data-shares", "card")
        share.click()
        expect(page.get_by_test_id("share-status")).to_have_text("Shared.")
        shared = page.evaluate("window.__shared")
        assert len(shared) == 2 and shared[-1]["files"] == 1 and not shared[-1]["url"], shared
        no_errors(page)
    finally:
        context.close()


def test_a_column_that_failed_to_load_loads_when_the_server_answers_again(browser, server):
    context = new_context(browser, {"width": 1194, "height": 834})
    try:
        register(context, server, "outage")
        failed = []

        def first_fails(route):
            if not failed:
                failed.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        # The overview, with or without a query (the page names the zone in the Time-Zone header).
        context.route(re.compile(r"/api/challenges(\?.*)?$"), first_fails)
        page = context.new_page()
        page.goto(f"{server}/challenges")
        page.wait_for_selector("body[data-ready=true]", state="attached")
        # The first answer was lost; once the live connection is up the column loads without a reload.
        expect(page.get_by_test_id("challenge-card").first).to_be_visible()
        expect(page.get_by_text("We couldn’t load today’s challenges.")).to_have_count(0)
        assert failed
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_share_panel_shows_and_copies_the_servers_caption_in_the_sharers_voice(browser, server, viewport):
    """The seed's share text comes from the server: the author's says "I just completed", a follower's names the
    author; "Copy caption" copies it with the public link, and the system sheet gets the same words."""
    story = "Golden, at the third try."
    author_context, reader_context = new_context(browser, viewport), new_context(browser, viewport)
    try:
        author_context.add_init_script(SHARE_STUB)
        for context in (author_context, reader_context):
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        author = register(author_context, server, "caption")
        register(reader_context, server, "fan")
        follow(reader_context, server, author)
        challenge = todays(author_context, server)
        done = complete_via_api(author_context, server, challenge["id"], story=story)
        activity_id, share = done["activity"]["id"], done["activity"]["share"]
        assert share["headline"] == f"🎉 I just completed the {challenge['title']} challenge on CompletionKit!", share

        page = open_challenges(author_context, server, "#feed")
        feed_item(page, activity_id).get_by_test_id("share-open").click()
        caption = page.get_by_test_id("share-caption")
        expect(caption).to_be_visible()
        share_url = page.get_by_test_id("share-url").input_value()
        # What the page shows is the server's caption, with the public link after it; nothing of its own.
        expect(caption).to_have_value(f"{share['caption']}\n\n{share_url}")
        page.get_by_test_id("copy-caption").click()
        expect(page.get_by_test_id("share-status")).to_have_text("Caption copied.")
        assert page.evaluate("navigator.clipboard.readText()") == f"{share['caption']}\n\n{share_url}"
        page.get_by_test_id("share-native").click()
        expect(page.get_by_test_id("share-status")).to_have_text("Shared.")
        shared = page.evaluate("window.__shared")[-1]
        assert shared["title"] == share["headline"] and shared["text"] == share["caption"] and shared["url"] == share_url, shared
        # With the public link off, the caption has no link in it.
        page.get_by_test_id("share-panel").get_by_test_id("public-link").click()
        expect(caption).to_have_value(share["caption"])
        page.get_by_test_id("share-panel").get_by_test_id("public-link").click()
        expect(caption).to_have_value(f"{share['caption']}\n\n{share_url}")

        reader = open_challenges(reader_context, server, "#feed")
        feed_item(reader, activity_id).get_by_test_id("share-open").click()
        reader_caption = reader.get_by_test_id("share-caption")
        expect(reader_caption).to_have_value(re.compile(re.escape(f"completed the {challenge['title']} challenge on CompletionKit!")))
        assert "I just" not in reader_caption.input_value()
        assert reader_caption.input_value().startswith("🎉 ") and story in reader_caption.input_value()
        no_errors(page, reader)
    finally:
        author_context.close()
        reader_context.close()


def test_a_revoked_completion_keeps_no_badge_share_or_public_link_in_its_authors_feed(browser, server, operator):
    author_context = new_context(browser)
    reporters = [new_context(browser) for _ in range(3)]
    try:
        author = register(author_context, server, "revoked")
        for index, context in enumerate(reporters):
            register(context, server, f"reporter{index}")
            follow(context, server, author)
        post = complete_via_api(author_context, server, todays(author_context, server)["id"])["activity"]["id"]
        page = open_challenges(author_context, server, "#feed")
        item = feed_item(page, post)
        expect(item.get_by_test_id("share-open")).to_be_visible()
        expect(item.locator(".ch-complete-badge")).to_be_visible()
        expect(item.get_by_test_id("public-link")).to_have_count(1)

        for context in reporters:
            assert context.request.post(f"{server}/api/activities/{post}/report", data={"reason": "not cooked"}).ok
        operator("moderation", "revoke", post, "--note", "not the challenge")
        page.reload()
        item = feed_item(page, post)
        expect(item.get_by_test_id("post-status")).to_have_text("Removed after review — only you can see this.")
        expect(item.get_by_test_id("share-open")).to_have_count(0)
        expect(item.locator(".ch-complete-badge")).to_have_count(0)
        expect(item.get_by_test_id("public-link")).to_have_count(0)
        expect(item.get_by_test_id("points-earned")).to_have_count(0)
        no_errors(page)
    finally:
        author_context.close()
        for context in reporters:
            context.close()


def test_an_open_thread_shows_comments_made_elsewhere_and_its_author_may_remove_them(browser, server):
    author_context, friend_context = new_context(browser), new_context(browser)
    try:
        author = register(author_context, server, "thread")
        register(friend_context, server, "chatty")
        follow(friend_context, server, author)
        post = complete_via_api(author_context, server, todays(author_context, server)["id"])["activity"]["id"]
        first = friend_context.request.post(f"{server}/api/activities/{post}/comments", data={"body": "First!"})
        assert first.status == 201, first.text()

        page = open_challenges(author_context, server, "#feed")
        item = feed_item(page, post)
        item.get_by_test_id("comment-toggle").click()
        comments = item.get_by_test_id("comment-list").locator(".ch-comment-body")
        expect(comments).to_have_text(["First!"])

        # A comment made elsewhere while the thread is open appears in it, not only in the count.
        second = friend_context.request.post(f"{server}/api/activities/{post}/comments", data={"body": "Looks delicious"})
        assert second.status == 201, second.text()
        expect(comments).to_have_text(["First!", "Looks delicious"])
        expect(item.locator("[data-role=comment-count]")).to_have_text("2")

        # Closed, a comment removed elsewhere; opened again, the thread is read again.
        item.get_by_test_id("comment-toggle").click()
        assert friend_context.request.delete(f"{server}/api/comments/{first.json()['id']}", headers={"X-CompletionKit": "1"}).ok
        expect(item.locator("[data-role=comment-count]")).to_have_text("1")
        item.get_by_test_id("comment-toggle").click()
        expect(comments).to_have_text(["Looks delicious"])

        # The post's author may remove someone else's comment from the page.
        remove = item.get_by_role("button", name=re.compile("Delete .*’s comment"))
        expect(remove).to_be_visible()
        remove.click()
        expect(comments).to_have_count(0)
        expect(item.locator("[data-role=comment-count]")).to_have_text("")
        listed = friend_context.request.get(f"{server}/api/activities/{post}/comments").json()
        assert listed["total"] == 0 and listed["comments"] == [], listed
        no_errors(page)
    finally:
        author_context.close()
        friend_context.close()


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_completion_is_private_until_its_author_turns_the_public_link_on(browser, server, viewport):
    """Privacy by default: "Complete & Share" says in one sentence who will see it, the public link starts off, and
    nobody without an account can open the post until its author turns the link on."""
    context, stranger = new_context(browser, viewport), new_context(browser)
    try:
        register(context, server, "private")
        challenge = todays(context, server, index=1)
        join(context, server, challenge["id"])
        page = open_challenges(context, server)
        submit = fill_completion(page, challenge["id"], "Just for my friends.")
        public = page.get_by_test_id("complete-public")
        expect(public).not_to_be_checked()
        expect(page.get_by_test_id("complete-public-help")).to_have_text(
            "Your followers will see it in their feed. Turn on the public link to let anyone with the link see it too, even without an account.")
        with page.expect_response(lambda r: r.url.split("?")[0].endswith(f"/api/challenges/{challenge['id']}/complete")) as answered:
            submit.click()
        post = answered.value.json()["activity"]
        assert post["publicLink"] is False, post
        assert stranger.request.get(f"{server}/s/{post['id']}").status == 404
        page.keyboard.press("Escape")

        # The author turns it on from the share panel: now the link works for anyone.
        page.goto(f"{server}/challenges#feed")
        wait_until_ready(page)
        feed_item(page, post["id"]).get_by_test_id("share-open").click()
        panel = page.get_by_test_id("share-panel")
        expect(page.get_by_test_id("share-url")).to_be_hidden()
        expect(page.locator("#share-public-help")).to_have_text("Turn this on to get a link anyone can open, even without an account.")
        # The switch moves at once; the link works once the server has stored it, so wait for that answer.
        with page.expect_response(lambda r: r.request.method == "PATCH" and f"/api/activities/{post['id']}" in r.url) as stored:
            panel.get_by_test_id("public-link").click()
        assert stored.value.ok, stored.value.status
        share_url = page.get_by_test_id("share-url")
        expect(share_url).to_be_visible()
        link = share_url.input_value()
        assert stranger.request.get(link).status == 200

        # Off, on, off in quick succession: the server ends where the switch does (one change at a time, in order).
        switch = panel.get_by_test_id("public-link")
        for _ in range(3):
            switch.click()
        expect(switch).not_to_be_checked()
        expect(page.locator("#announcer")).to_have_text("Public link is off.")
        assert stranger.request.get(link).status == 404
        no_errors(page)
    finally:
        context.close()
        stranger.close()


def test_a_signed_out_visitor_is_not_told_reconnecting_forever(browser, server):
    """The feed's stream is for people with an account (a guest's is made by their first write): the server refuses
    it with 401, and the page stops asking instead of showing "Reconnecting…" for ever."""
    context = new_context(browser)
    try:
        page = context.new_page()
        page._ck_errors = []
        page.on("pageerror", lambda error: page._ck_errors.append(str(error)))
        refused = []
        page.on("response", lambda r: refused.append(r.status) if r.url.endswith("/api/feed/events") else None)
        page.goto(f"{server}/challenges")
        page.wait_for_selector("body[data-ready=true]", state="attached")
        status = page.locator("#live-status")
        expect(status).to_have_attribute("data-state", "off")
        expect(status).to_have_text("")
        assert 401 in refused, refused
        no_errors(page)
    finally:
        context.close()


def test_the_public_page_lets_a_signed_in_visitor_report_the_post_and_asks_others_to_sign_in(browser, server):
    author_context, visitor_context, anonymous_context = new_context(browser), new_context(browser), new_context(browser)
    try:
        register(author_context, server, "public")
        register(visitor_context, server, "passerby")
        post = complete_via_api(author_context, server, todays(author_context, server)["id"], public_link=True)["activity"]["id"]
        url = f"{server}/s/{post}"

        visitor = visitor_context.new_page()
        visitor.goto(url)
        report = visitor.locator("#share-report")
        expect(report).to_be_visible()
        visitor.get_by_text("Report this post", exact=True).click()
        visitor.locator("#report-reason").fill("This is not a pancake.")
        with visitor.expect_response(lambda r: r.url.endswith(f"/api/activities/{post}/report")) as sent:
            visitor.get_by_role("button", name="Send report").click()
        assert sent.value.status == 200, sent.value.text()
        expect(visitor.locator("#report-status")).to_have_text("Thank you — we’ll take a look.")
        assert visitor_context.request.post(f"{server}/api/activities/{post}/report", data={"reason": "again"}).ok

        # Someone without an account is asked to sign in; the author is offered no report of their own post.
        anonymous = anonymous_context.new_page()
        anonymous.goto(url)
        expect(anonymous.locator("#report-signin")).to_be_visible()
        expect(anonymous.locator("#share-report")).to_be_hidden()
        author = author_context.new_page()
        author.goto(url)
        author.wait_for_load_state("networkidle")
        expect(author.locator("#share-report")).to_be_hidden()
        expect(author.locator("#report-signin")).to_be_hidden()
        violations = serious_violations(visitor)
        assert violations == [], violations
    finally:
        for context in (author_context, visitor_context, anonymous_context):
            context.close()


def test_an_operators_decision_from_the_command_line_reaches_open_pages(browser, server, operator):
    """The CLI writes to the database from another process; the running server notices within about a second and
    pushes it to open pages as it does its own changes: no reload."""
    author_context = new_context(browser, PHONE)
    follower_context = new_context(browser)
    reporters = [new_context(browser) for _ in range(3)]
    try:
        author = register(author_context, server, "decided")
        register(follower_context, server, "watcher")
        follow(follower_context, server, author)
        for index, context in enumerate(reporters):
            register(context, server, f"flagger{index}")
            follow(context, server, author)
        post = complete_via_api(author_context, server, todays(author_context, server)["id"])["activity"]["id"]
        author_page = open_challenges(author_context, server, "#feed")
        follower_page = open_challenges(follower_context, server, "#feed")
        expect(feed_item(follower_page, post)).to_be_visible()
        expect(feed_item(author_page, post).get_by_test_id("share-open")).to_be_visible()
        # Three reports hide it at once (the server's own change), from the follower's open feed.
        for context in reporters:
            assert context.request.post(f"{server}/api/activities/{post}/report", data={"reason": "not cooked"}).ok
        expect(feed_item(follower_page, post)).to_have_count(0)
        # The operator keeps it from the command line: it comes back to the follower's open feed.
        operator("moderation", "keep", post)
        expect(feed_item(follower_page, post)).to_be_visible(timeout=15_000)
        # Then revokes it: the author's open page says so and drops its share button, the follower's loses it.
        operator("moderation", "revoke", post, "--note", "not the challenge")
        expect(feed_item(author_page, post).get_by_test_id("post-status")).to_have_text(
            "Removed after review — only you can see this.", timeout=15_000)
        expect(feed_item(author_page, post).get_by_test_id("share-open")).to_have_count(0)
        expect(feed_item(follower_page, post)).to_have_count(0, timeout=15_000)
        no_errors(author_page)
        no_errors(follower_page)
    finally:
        author_context.close()
        follower_context.close()
        for context in reporters:
            context.close()
