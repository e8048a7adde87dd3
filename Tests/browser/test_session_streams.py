"""A sign-in revoked from another device ends that device's live pages: the server ends their streams at the next
heartbeat with a `session_ended` event, and each page shows the "signed out" banner instead of reconnecting. The
server here beats every half second (COMPLETIONKIT_LIVE_HEARTBEAT), so the test waits for the banner briefly."""
import json
import os
import pathlib
import urllib.error
import urllib.request
import uuid

import pytest
from playwright.sync_api import expect

from conftest import running_server

SHOTS = pathlib.Path(os.environ.get("SCREENSHOT_DIR", "/tmp/ck-shots"))
HEADERS = {"Content-Type": "application/json", "X-CompletionKit": "1"}
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server():
    """A server of this module's own, with a short heartbeat (the others keep the default 15 s)."""
    yield from running_server(extra_env={"COMPLETIONKIT_LIVE_HEARTBEAT": "0.5"})


def serious(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe.Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]


def live_page(context, server, path):
    page = context.new_page()
    page._ck_errors = []
    page.on("pageerror", lambda error: page._ck_errors.append(str(error)))
    page.goto(f"{server}{path}")
    page.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'live'")
    return page


def stream_status(server, cookie, path):
    """The status a stream request with `cookie` gets (a refusal answers at once; an open stream is not read)."""
    request = urllib.request.Request(f"{server}{path}", headers={"Cookie": f"ck_session={cookie}", "Accept": "text/event-stream"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.parametrize("width,height", [(390, 844), (1194, 834), (1280, 800)])
def test_a_sign_in_revoked_from_another_device_ends_its_live_pages_with_the_banner(browser, server, width, height):
    options = {"is_mobile": True, "has_touch": True} if width < 600 else {}
    phone = browser.new_context(viewport={"width": width, "height": height}, **options)
    laptop = browser.new_context(viewport={"width": width, "height": height}, **options)
    name = f"live{uuid.uuid4().hex[:8]}"
    credentials = json.dumps({"username": name, "password": PASSWORD})
    try:
        assert laptop.request.post(f"{server}/api/account/register", data=credentials, headers=HEADERS).ok
        assert phone.request.post(f"{server}/api/account/login", data=credentials, headers=HEADERS).ok
        assert phone.request.post(f"{server}/api/projects/import", data="# Garden\n- Water\n",
                                  headers={"Content-Type": "text/plain", "X-CompletionKit": "1"}).ok
        cookie = next(c["value"] for c in phone.cookies() if c["name"] == "ck_session")
        projects = live_page(phone, server, "/projects")
        feed = live_page(phone, server, "/challenges")
        reopened = []
        projects.on("request", lambda r: reopened.append(r.url) if "/api/projects/events" in r.url else None)

        # On the laptop's account area, the phone's sign-in is signed out.
        home = laptop.new_page()
        home.goto(f"{server}/")
        expect(home.locator("#account-status")).to_contain_text(f"@{name}")
        home.locator("#signins-details summary").click()
        rows = home.locator("[data-testid=signin-row]")
        expect(rows).to_have_count(2)
        expect(home.locator("[data-testid=signin-row][data-current=true]")).to_contain_text("This browser")
        expect(home.locator("[data-testid=signin-row][data-current=true] [data-testid=signin-revoke]")).to_have_count(0)
        other = home.locator("[data-testid=signin-row][data-current=false]")
        expect(other).to_contain_text("Another browser")
        SHOTS.mkdir(parents=True, exist_ok=True)
        home.locator("#account").screenshot(path=str(SHOTS / f"account-signins-{width}x{height}.png"))
        # The home page's cards come in with a staggered fade: axe reads their colours once they are all in.
        home.wait_for_function(
            "() => { const cards = [...document.querySelectorAll('.system-card')];"
            " return cards.length > 0 && cards.every((card) => getComputedStyle(card).opacity === '1'); }")
        assert serious(home) == []
        other.locator("[data-testid=signin-revoke]").click()
        expect(home.locator("#account-message")).to_contain_text("That browser is signed out")
        expect(rows).to_have_count(1)

        for page in (projects, feed):
            banner = page.locator("[data-testid=session-ended]")
            expect(banner).to_be_visible(timeout=15_000)
            expect(banner).to_contain_text("no longer shows your changes")
            expect(banner.locator("a", has_text="Sign in again")).to_have_attribute("href", "/#account")
            expect(banner.locator("button", has_text="Reload as a guest")).to_be_visible()
            expect(page.locator("[data-testid=live-status]")).to_have_attribute("data-state", "off")
        expect(projects.locator("[data-testid=live-status]")).to_have_text("Not live")
        expect(projects.locator("[data-who]").first).not_to_contain_text("Signed in as")
        projects.screenshot(path=str(SHOTS / f"stream-session-ended-{width}x{height}.png"))
        assert serious(projects) == []

        # Reopening the stream with the revoked cookie is refused; the page did not try.
        assert stream_status(server, cookie, "/api/projects/events") == 401
        assert stream_status(server, cookie, "/api/feed/events") == 401
        assert reopened == [], reopened
        # The laptop's sign-in is untouched.
        assert laptop.request.get(f"{server}/api/account/tokens").ok
        assert not projects._ck_errors and not feed._ck_errors
    finally:
        phone.close()
        laptop.close()
