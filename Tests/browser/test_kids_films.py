"""Waldabenteuer (/kids): films a child can tell apart, and the parent area on a phone.

YouTube's thumbnails pass the site's Content-Security-Policy (exactly their host; the tests answer that host
themselves, so nothing reaches the internet), an uploaded film shows a frame of its own, and the parent
dashboard fits a 390 px phone with every control reachable. No sleeps: every wait is on the page's state.
"""
import base64
import json
import uuid

import pytest
from playwright.sync_api import expect

from test_kids import (
    MAKE_WEBM, celebrate_and_continue, choose_player, main, open_dashboard, open_wuerfel, play_to,
)

# A 2×2 PNG in the seed's forest green: what the tests answer for every thumbnail.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGMMDwgT0vBQZGBgYGBgAAAfAgNkI2Ke2wAAAABJRU5ErkJggg==")

# Every Content-Security-Policy violation the page reports.
VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.__violations.push(event.violatedDirective + ' ' + event.blockedURI);
});
"""


def offline_youtube(page):
    """Answers YouTube's hosts locally: thumbnails with the PNG, the player with an empty page."""
    requested = []

    def thumbnail(route):
        requested.append(route.request.url)
        route.fulfill(status=200, content_type="image/png", body=PNG)

    page.route("https://i.ytimg.com/**", thumbnail)
    page.route("https://www.youtube-nocookie.com/**", lambda route: route.fulfill(status=200, content_type="text/html", body="<p></p>"))
    return requested


def upload_film(page):
    webm = page.evaluate(MAKE_WEBM)
    data = bytes(webm) if webm else b"\x1aE\xdf\xa3" + bytes(512)
    page.set_input_files("[data-testid=video-file]", files=[{"name": "film.webm", "mimeType": "video/webm", "buffer": data}])
    page.fill("[data-testid=upload-title]", "Unser Film")
    page.click("[data-testid=upload]")
    expect(page.locator("[data-testid=parent-video][data-source=upload]")).to_contain_text("Unser Film")


def test_youtube_thumbnails_load_under_the_policy_and_an_upload_shows_its_own_frame(page, server):
    page.add_init_script(VIOLATIONS)
    requested = offline_youtube(page)
    choose_player(page, server)
    open_wuerfel(page)
    play_to(page, 0, 10)
    celebrate_and_continue(page, 10)
    expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
    page.click("[data-testid=back-button]")
    open_dashboard(page)
    page.fill("[data-testid=video-link]", "https://youtu.be/M7lc1UVf-VE")
    page.click("[data-testid=add-video]")
    expect(page.locator("[data-testid=parent-video][data-video=M7lc1UVf-VE]")).to_have_count(1)
    upload_film(page)
    page.click("[data-testid=parent-back]")
    page.click("[data-testid=chest]")
    page.click("[data-testid=tier-fiveMinutes]")
    expect(main(page)).to_have_attribute("data-screen", "videoSelection")

    youtube = page.locator("[data-testid=video-card][data-source=youtube] img.video-thumb")
    expect(youtube).to_have_attribute("src", "https://i.ytimg.com/vi/M7lc1UVf-VE/mqdefault.jpg")
    page.wait_for_function("() => { const i = document.querySelector('[data-source=youtube] img.video-thumb'); return i && i.complete && i.naturalWidth > 0; }")
    assert any("i.ytimg.com" in url for url in requested), requested
    # The uploaded film's picture is a frame of the film itself, not the drawn stand-in.
    frame = page.locator("[data-testid=video-card][data-source=upload] [data-testid=film-frame]")
    expect(frame).to_have_count(1)
    page.wait_for_function("() => { const v = document.querySelector('[data-source=upload] [data-testid=film-frame]'); return v && v.readyState >= 2 && v.videoWidth > 0; }")
    assert page.evaluate("window.__violations") == []


def test_the_parent_dashboard_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        choose_player(page, server)
        open_dashboard(page)
        upload_film(page)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= 390, f"the dashboard is {width} px wide"
        for selector in ["[data-testid=remove-video]", "[data-testid=remove-player]", "[data-testid=upload]",
                         "label:has([data-testid=mode][value=tap])", "[data-testid=add-player]"]:
            control = page.locator(selector).first
            control.scroll_into_view_if_needed()
            box = control.bounding_box()
            assert box, selector
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)
            assert box["height"] >= 44 and box["width"] >= 44, (selector, box)
        # Tappable: what a finger finds at the control's centre is the control.
        remove = page.locator("[data-testid=remove-video]").first
        box = remove.bounding_box()
        hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); return e && e.closest('[data-testid=remove-video]') !== null; }",
                            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit
        # axe finds nothing serious here (the add-child button's text had 3.3:1 on woodland).
        axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
        page.wait_for_function("""() => document.getAnimations().every((a) =>
          a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)""")
        serious = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe_module.Axe().run(page).response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == []
        remove.tap()
        expect(page.locator("[data-testid=confirm]")).to_be_visible()
    finally:
        context.close()


def test_a_childs_picture_stays_theirs_when_a_sibling_is_removed(page, server):
    choose_player(page, server)
    open_dashboard(page)
    page.fill("[data-testid=new-player-name]", "Mia")
    page.click("[data-testid=add-player]")
    mia = page.locator("[data-testid=player-card][data-player=mia] .parent-avatar")
    expect(mia).to_have_attribute("src", "/img/kids/avatar-3.svg")
    page.click("[data-testid=player-card][data-player=oliver] [data-testid=remove-player]")
    page.click("[data-testid=confirm-yes]")
    expect(page.locator("[data-testid=player-card][data-player=oliver]")).to_have_count(0)
    expect(mia).to_have_attribute("src", "/img/kids/avatar-3.svg")
    page.click("[data-testid=parent-back]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    page.click(".screen:not(.is-leaving) [data-testid=change-player]")
    expect(main(page)).to_have_attribute("data-screen", "playerSelection")
    card = page.locator(".screen:not(.is-leaving) [data-testid=player-card][data-player=mia] .player-avatar")
    expect(card).to_have_attribute("src", "/img/kids/avatar-3.svg")


def send_event(page, server, kind, **fields):
    """One event as the page sends it (same session), for reaching a screen quickly."""
    answer = page.request.post(server + "/api/kids/events", data=json.dumps({"type": kind, "eventID": str(uuid.uuid4()), **fields}),
                               headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
    assert answer.status < 500, answer.text()
    return answer.json()


def advance(page, server, seconds):
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": seconds})
    assert answer.ok, answer.text()


def test_on_a_phone_bennie_never_covers_the_treasure_buttons(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        choose_player(page, server)
        send_event(page, server, "tapActivity", activity="zahlen")
        send_event(page, server, "tapSubActivity", game="wuerfel")
        coins = 0
        while coins < 20:
            advance(page, server, 1)
            rolled = send_event(page, server, "rollDie")
            advance(page, server, 2)
            solved = send_event(page, server, "tapNumber", number=rolled["view"]["level"]["askedNumber"])
            coins = solved["view"]["activePlayer"]["coins"]
            advance(page, server, 3)
            after = send_event(page, server, "levelCompleteFinished")
            if after["view"]["screen"] == "celebrationOverlay":
                after = send_event(page, server, "tapWeiter")
            if after["view"]["screen"] == "treasureScreen" and coins < 20:
                send_event(page, server, "back")
                send_event(page, server, "tapActivity", activity="zahlen")
                send_event(page, server, "tapSubActivity", game="wuerfel")
        page.reload()
        expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
        page.click("[data-testid=player-card][data-player=alexander]")
        expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
        page.wait_for_function("() => document.querySelectorAll('#stage > .screen').length === 1")
        # Bennie lets taps through, so look at the picture: his figure and his bubble stay off both buttons.
        bennie = page.locator(".guide-bennie").bounding_box()
        assert bennie
        for tier in ["fiveMinutes", "twelveMinutes"]:
            box = page.locator(f"[data-testid=tier-{tier}]").bounding_box()
            assert box["y"] + box["height"] <= 844, (tier, box)
            overlaps = not (box["x"] + box["width"] <= bennie["x"] or bennie["x"] + bennie["width"] <= box["x"]
                            or box["y"] + box["height"] <= bennie["y"] or bennie["y"] + bennie["height"] <= box["y"])
            assert not overlaps, (tier, box, bennie)
    finally:
        context.close()


# What of the screen Bennie (the figure, and his bubble when it shows) lies over: buttons, the coin count, the
# waiting film. Bennie lets taps through, so only the picture can show it.
UNDER_BENNIE = """() => {
  const boxes = [document.querySelector('.guide-bennie')];
  const bubble = document.querySelector('#bubble');
  if (!bubble.hidden) boxes.push(bubble);
  const screen = document.querySelector('#stage > .screen:not(.is-leaving)');
  const covered = [];
  for (const element of screen.querySelectorAll('button, .chest-coins, .plaque')) {
    const r = element.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    for (const box of boxes) {
      const b = box.getBoundingClientRect();
      if (r.left < b.right - 1 && b.left < r.right - 1 && r.top < b.bottom - 1 && b.top < r.bottom - 1) {
        covered.push([element.dataset.testid || element.className, box.id || box.className]);
      }
    }
  }
  return covered;
}"""


def fits_the_phone(page, name):
    """The screen has faded in; the document does not scroll, and Bennie covers nothing the child needs."""
    page.wait_for_function("() => document.querySelectorAll('#stage > .screen').length === 1")
    size = page.evaluate("() => [document.scrollingElement.scrollHeight, innerHeight, document.scrollingElement.scrollWidth, innerWidth]")
    assert size[0] <= size[1] and size[2] <= size[3], (name, size)
    assert page.evaluate(UNDER_BENNIE) == [], name


def test_every_child_screen_fits_a_phone_without_scrolling(browser, server):
    """At 390×844 home (with and without a waiting film), both signs' game choices, the treasure and the parent
    gate fit the window: on home with a film waiting, and on the game choices, the page once scrolled and
    Bennie stood over a game card."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        requested = offline_youtube(page)
        choose_player(page, server)
        fits_the_phone(page, "home")
        for sign in ["zahlen", "raetsel"]:
            page.click(f"[data-testid=sign][data-activity={sign}]")
            expect(main(page)).to_have_attribute("data-screen", "activitySelection")
            fits_the_phone(page, f"activitySelection {sign}")
            page.click("[data-testid=back-button]")
            expect(main(page)).to_have_attribute("data-screen", "home")
        page.click("[data-testid=settings]")
        expect(main(page)).to_have_attribute("data-screen", "parentGate")
        fits_the_phone(page, "parentGate")
        page.click("[data-testid=gate-cancel]")
        expect(main(page)).to_have_attribute("data-screen", "home")
        # The gate has faded out before it is opened again (one gate question on the page).
        fits_the_phone(page, "home again")
        open_dashboard(page)
        page.fill("[data-testid=video-link]", "https://youtu.be/AAAAAAAAAAA")
        page.fill("[data-testid=video-title]", "Bären")
        page.click("[data-testid=add-video]")
        expect(page.locator("[data-testid=parent-video]")).to_contain_text("Bären")
        page.click("[data-testid=parent-back]")
        expect(main(page)).to_have_attribute("data-screen", "home")

        # Ten coins, then the treasure; five minutes paid, a film chosen, and the app opened again after 30 s.
        send_event(page, server, "tapActivity", activity="zahlen")
        send_event(page, server, "tapSubActivity", game="wuerfel")
        coins = 0
        while coins < 10:
            advance(page, server, 1)
            rolled = send_event(page, server, "rollDie")
            advance(page, server, 2)
            solved = send_event(page, server, "tapNumber", number=rolled["view"]["level"]["askedNumber"])
            coins = solved["view"]["activePlayer"]["coins"]
            advance(page, server, 3)
            after = send_event(page, server, "levelCompleteFinished")
            if after["view"]["screen"] == "celebrationOverlay":
                send_event(page, server, "tapWeiter")
        page.reload()
        expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
        page.click("[data-testid=player-card][data-player=alexander]")
        expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
        fits_the_phone(page, "treasureScreen")
        page.click("[data-testid=tier-fiveMinutes]")
        expect(main(page)).to_have_attribute("data-screen", "videoSelection")
        page.click("[data-testid=video-card]")
        expect(main(page)).to_have_attribute("data-screen", "videoPlaying")
        advance(page, server, 30)
        page.reload()
        expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
        page.click("[data-testid=player-card][data-player=alexander]")
        expect(main(page)).to_have_attribute("data-screen", "home")
        expect(page.locator(".screen:not(.is-leaving) [data-testid=resume-film]")).to_be_visible()
        fits_the_phone(page, "home with a film waiting")
        assert requested, "the waiting film shows its picture"
    finally:
        context.close()
