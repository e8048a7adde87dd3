"""Waldabenteuer (/kids) as a child and a parent use it: the seed's six scenarios through the real page.

Every test gets a fresh browser context, so a fresh guest account and a fresh family. The page never knows
the answer before the server says it: the tests roll the die, read the face the page shows, and tap that
number. No sleeps: every wait is on the page's state (data attributes the page keeps up to date).
"""
import pathlib
import re

import pytest
from playwright.sync_api import expect

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Remembers every screen the page showed (with the coins at that moment), every confetti start and every
# flying coin, so a test can check afterwards what happened in between (the overlay never at 1–4 coins, …).
RECORDER = """
window.__screens = [];
window.__confetti = 0;
window.__flights = 0;
document.addEventListener('DOMContentLoaded', () => {
  const main = document.querySelector('#kids');
  const canvas = document.querySelector('#confetti');
  new MutationObserver(() => {
    const last = window.__screens[window.__screens.length - 1];
    const entry = { screen: main.dataset.screen, coins: main.dataset.coins };
    if (!last || last.screen !== entry.screen || last.coins !== entry.coins) window.__screens.push(entry);
  }).observe(main, { attributes: true, attributeFilter: ['data-screen', 'data-coins'] });
  new MutationObserver(() => {
    if (canvas.dataset.active === 'true') window.__confetti += 1;
  }).observe(canvas, { attributes: true, attributeFilter: ['data-active'] });
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) {
      if (node.classList && node.classList.contains('flying-coin')) window.__flights += 1;
    }
  }).observe(document.body, { childList: true });
});
"""

# A short real WebM made in the page (canvas + MediaRecorder): a gold ball drifting over green.
MAKE_WEBM = """async () => {
  if (typeof MediaRecorder === 'undefined' || !HTMLCanvasElement.prototype.captureStream) return null;
  const canvas = document.createElement('canvas');
  canvas.width = 160; canvas.height = 90;
  const context = canvas.getContext('2d');
  const stream = canvas.captureStream(12);
  const type = MediaRecorder.isTypeSupported('video/webm;codecs=vp8') ? 'video/webm;codecs=vp8' : 'video/webm';
  const recorder = new MediaRecorder(stream, { mimeType: type });
  const chunks = [];
  recorder.ondataavailable = (event) => { if (event.data.size) chunks.push(event.data); };
  let x = 0;
  const draw = () => {
    context.fillStyle = '#738F66'; context.fillRect(0, 0, 160, 90);
    context.fillStyle = '#D9C27A'; context.beginPath(); context.arc(20 + (x += 3) % 120, 45, 14, 0, Math.PI * 2); context.fill();
  };
  draw();
  const timer = setInterval(draw, 80);
  const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
  recorder.start(100);
  await new Promise((resolve) => setTimeout(resolve, 700));
  recorder.stop();
  await stopped;
  clearInterval(timer);
  const bytes = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
  return Array.from(bytes);
}"""

FORBIDDEN_COLOURS = re.compile(
    r"#(?:ff0000|ffffff|fff|000000|000)(?![0-9a-f])|(?<![-\w])(?:white|black)(?![-\w])", re.IGNORECASE)


# MARK: Helpers

def main(page):
    return page.locator("#kids")


def open_kids(page, server):
    page.add_init_script(RECORDER)
    page.goto(server + "/kids")
    expect(main(page)).to_have_attribute("data-ready", "true", timeout=15000)


def choose_player(page, server, player="alexander"):
    """Loading screen → player selection → home, for a brand-new family."""
    open_kids(page, server)
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
    page.click(f"[data-testid=player-card][data-player={player}]")
    expect(main(page)).to_have_attribute("data-screen", "home")


def open_wuerfel(page):
    page.click("[data-testid=sign][data-activity=zahlen]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=game-card][data-game=wuerfel]")
    expect(main(page)).to_have_attribute("data-screen", "playing")


def play_level(page, coins_after):
    """Rolls the die, taps the number it shows, and waits for the coin."""
    die = page.locator("[data-testid=die]")
    expect(die).to_have_attribute("data-state", "ready", timeout=10000)
    expect(page.locator(".dice-numbers [data-number='1']")).to_be_disabled()
    die.click()
    expect(page.locator(".dice-numbers")).to_have_attribute("data-ready", "true")
    face = die.get_attribute("data-face")
    assert face in {"1", "2", "3", "4", "5", "6"}, face
    page.click(f".dice-numbers [data-number='{face}']")
    expect(main(page)).to_have_attribute("data-coins", str(coins_after))
    expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("data-coins", str(coins_after))


def wait_for_next_level(page, level):
    expect(main(page)).to_have_attribute("data-screen", "playing", timeout=10000)
    expect(page.locator(".screen-activity")).to_have_attribute("data-level", str(level))


def celebrate_and_continue(page, coins):
    layer = page.locator("[data-testid=celebration]")
    expect(layer).to_be_visible(timeout=10000)
    expect(main(page)).to_have_attribute("data-screen", "celebrationOverlay")
    expect(layer).to_contain_text(f"{coins} Münzen")
    page.click("[data-testid=weiter]")
    expect(layer).to_be_hidden()


def play_to(page, start_coins, end_coins):
    """Plays Würfel levels from `start_coins` to `end_coins`, through every celebration (Weiter continues)."""
    for coins in range(start_coins + 1, end_coins + 1):
        level = coins  # one Würfel level per coin for a fresh child
        play_level(page, coins)
        if coins % 5 == 0:
            if coins == end_coins:
                return
            celebrate_and_continue(page, coins)
        if coins < end_coins:
            wait_for_next_level(page, level + 1)


def solve_gate(page):
    question = page.locator("[data-testid=gate-question]")
    expect(question).to_have_text(re.compile(r"\d+ \+ \d+ = \?"))
    a, b = (int(n) for n in re.findall(r"\d+", question.text_content()))
    return a + b


def type_gate(page, number):
    for digit in str(number):
        page.click(f"[data-digit='{digit}']")
    expect(page.locator("[data-testid=gate-input]")).to_have_attribute("data-value", str(number))
    page.click("[data-testid=gate-confirm]")


def open_dashboard(page):
    page.click("[data-testid=settings]")
    expect(main(page)).to_have_attribute("data-screen", "parentGate")
    type_gate(page, solve_gate(page))
    expect(main(page)).to_have_attribute("data-screen", "parentDashboard")


def screens_seen(page):
    return page.evaluate("window.__screens")


# MARK: The seed's scenarios

def test_first_time_flow_celebrates_only_at_five_coins(page, server):
    open_kids(page, server)
    expect(main(page)).to_have_attribute("data-screen", "loading")
    expect(page.locator(".loading-text")).to_have_text("Lade Spielwelt…")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
    expect(page.locator("[data-testid=loading-bar]")).to_have_count(0)
    expect(page.locator("h1")).to_have_text("Wer spielt heute?")
    expect(page.locator("[data-testid=player-card]")).to_have_count(2)
    page.click("[data-testid=player-card][data-player=alexander]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    expect(page.locator(".screen-home h1")).to_have_text("Waldabenteuer")
    expect(page.locator("[data-testid=sign]")).to_have_count(4)
    expect(page.locator("[data-testid=chest]")).to_have_attribute("data-chest", "closed")

    open_wuerfel(page)
    for coins in range(1, 5):
        play_level(page, coins)
        if coins == 1:
            # One coin is "1 Münze", never "1 Münzen".
            expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("aria-label", "1 Münze")
        wait_for_next_level(page, coins + 1)
        expect(page.locator("[data-testid=celebration]")).to_be_hidden()
        expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("data-filled", str(coins))
    play_level(page, 5)

    # The overlay comes over the activity: the activity stays underneath, dimmed to 40 % and still clear.
    layer = page.locator("[data-testid=celebration]")
    expect(layer).to_be_visible(timeout=10000)
    expect(page.locator("[data-testid=celebration-card]")).to_contain_text("5 Münzen")
    activity = page.locator(".screen-activity")
    expect(activity).to_be_visible()
    expect(activity).to_have_class(re.compile(r"\bis-dimmed\b"))
    expect(activity).to_have_css("filter", "brightness(0.4)")
    expect(page.locator("[data-testid=celebration-card] .celebration-friends img")).to_have_count(4)  # Bennie + 3 Lemminge

    # Only "Weiter" closes it: not a click beside the card, not Escape.
    page.mouse.click(20, 20)
    page.keyboard.press("Escape")
    expect(layer).to_be_visible()
    expect(main(page)).to_have_attribute("data-screen", "celebrationOverlay")
    page.click("[data-testid=weiter]")
    expect(layer).to_be_hidden()
    wait_for_next_level(page, 6)
    expect(activity).not_to_have_class(re.compile(r"\bis-dimmed\b"))

    overlays = [entry["coins"] for entry in screens_seen(page) if entry["screen"] == "celebrationOverlay"]
    assert overlays == ["5"], screens_seen(page)


def test_reaching_ten_coins_opens_the_treasure(page, server):
    choose_player(page, server)
    open_wuerfel(page)
    play_to(page, 0, 10)
    celebrate_and_continue(page, 10)
    expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
    expect(page.locator("[data-testid=treasure-coins]")).to_have_attribute("data-coins", "10")
    expect(page.locator("[data-testid=treasure-coins]")).to_have_text("10 Münzen")
    expect(page.locator("[data-testid=tier-fiveMinutes]")).to_have_attribute("data-state", "active")
    expect(page.locator("[data-testid=tier-fiveMinutes]")).to_contain_text("5 Min")
    expect(page.locator("[data-testid=tier-twelveMinutes]")).to_have_attribute("data-state", "disabled")
    expect(page.locator("[data-testid=tier-twelveMinutes]")).to_contain_text("10+2 Min")
    overlays = [entry["coins"] for entry in screens_seen(page) if entry["screen"] == "celebrationOverlay"]
    assert overlays == ["5", "10"], screens_seen(page)


def test_redeeming_five_minutes_plays_an_upload_until_the_clock_ends(page, server):
    earn_ten_coins_and_go_home(page, server)
    expect(page.locator("[data-testid=chest]")).to_have_attribute("data-chest", "open")
    open_wuerfel(page)
    play_level(page, 11)
    wait_for_next_level(page, 12)
    play_level(page, 12)
    page.click("[data-testid=home-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    # The parent approves a YouTube link (after a bad one) and uploads a short film.
    open_dashboard(page)
    page.fill("[data-testid=video-link]", "das ist kein link")
    page.click("[data-testid=add-video]")
    expect(page.locator("[data-testid=parent-notice]")).to_have_text("Ungültiger YouTube Link")
    page.fill("[data-testid=video-link]", "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    page.fill("[data-testid=video-title]", "Waldlied")
    page.click("[data-testid=add-video]")
    expect(page.locator("[data-testid=parent-video][data-source=youtube]")).to_contain_text("Waldlied")
    webm = page.evaluate(MAKE_WEBM)
    data = bytes(webm) if webm else b"\x1aE\xdf\xa3" + bytes(512)
    page.set_input_files("[data-testid=video-file]", files=[{"name": "waldfilm.webm", "mimeType": "video/webm", "buffer": data}])
    page.fill("[data-testid=upload-title]", "Waldfilm")
    page.click("[data-testid=upload]")
    expect(page.locator("[data-testid=parent-video][data-source=upload]")).to_contain_text("Waldfilm")
    # Newest first.
    expect(page.locator("[data-testid=parent-video]").first).to_contain_text("Waldfilm")
    page.click("[data-testid=parent-back]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    page.click("[data-testid=chest]")
    expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
    expect(page.locator("[data-testid=treasure-coins]")).to_have_attribute("data-coins", "12")
    page.click("[data-testid=tier-fiveMinutes]")
    expect(main(page)).to_have_attribute("data-screen", "videoSelection")
    expect(main(page)).to_have_attribute("data-coins", "2")
    expect(page.locator(".screen-videos h1")).to_have_text("Wähle ein Video!")
    expect(page.locator("[data-testid=video-time]")).to_have_text("Du hast 5 Minuten Zeit!")
    expect(page.locator("[data-testid=video-card]")).to_have_count(2)

    # Offline, the YouTube video cannot be chosen and Bennie says why; the upload still can.
    page.context.set_offline(True)
    youtube = page.locator("[data-testid=video-card][data-source=youtube]")
    expect(youtube).to_have_attribute("aria-disabled", "true")
    expect(youtube).to_contain_text("Wir brauchen Internet.")
    expect(page.locator("[data-testid=video-card][data-source=upload]")).to_have_attribute("aria-disabled", "false")
    page.context.set_offline(False)
    expect(youtube).to_have_attribute("aria-disabled", "false")

    page.click("[data-testid=video-card][data-source=upload]")
    expect(main(page)).to_have_attribute("data-screen", "videoPlaying")
    video = page.locator("[data-testid=video-element]")
    expect(video).to_have_attribute("src", re.compile(r"/api/kids/videos/upload-[^/]+/file"))
    assert video.evaluate("el => el.tagName") == "VIDEO"
    assert video.evaluate("el => el.controls") is False
    clock = page.locator("[data-testid=clock]")
    expect(clock).to_be_visible()
    expect(page.locator("[data-testid=clock-label]")).to_have_text("Noch 5 Minuten")
    expect(clock).to_have_attribute("data-warned", "false")
    assert clock.locator(".clock-marker").count() == 12
    assert clock.locator(".clock-marker.is-bold").count() == 4

    # The server's clock decides: 250 s later the one-minute warning comes with the next tick.
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": 250})
    assert answer.ok, answer.text()
    expect(clock).to_have_attribute("data-warned", "true", timeout=15000)
    expect(page.locator("[data-testid=clock-label]")).to_have_text("Noch 1 Minute", timeout=15000)
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": 60})
    assert answer.ok, answer.text()
    time_up = page.locator("[data-testid=time-up]")
    expect(time_up).to_be_visible(timeout=15000)
    expect(time_up).to_have_text(re.compile("Zeit ist um!"))
    assert video.evaluate("el => el.paused") is True
    expect(main(page)).to_have_attribute("data-screen", "home", timeout=10000)
    expect(time_up).to_be_hidden()


def test_back_goes_home_from_activities(page, server):
    choose_player(page, server)
    # A locked sign stays closed; Bennie says so.
    page.click("[data-testid=sign][data-activity=logik]")
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", "Das ist noch gesperrt.")
    expect(main(page)).to_have_attribute("data-screen", "home")

    page.click("[data-testid=sign][data-activity=zahlen]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=back-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    open_wuerfel(page)
    page.click("[data-testid=back-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    open_wuerfel(page)
    page.click("[data-testid=home-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    assert screens_seen(page)[-1]["screen"] == "home"


def test_parent_gate_and_dashboard(page, server):
    choose_player(page, server)
    page.click("[data-testid=settings]")
    expect(main(page)).to_have_attribute("data-screen", "parentGate")
    expect(page.locator(".screen-gate h1")).to_have_text("Elternbereich")
    expect(page.locator(".gate-prompt")).to_have_text("Bitte löse diese Aufgabe:")
    answer = solve_gate(page)

    type_gate(page, answer + 1)
    message = page.locator("[data-testid=gate-message]")
    expect(message).to_have_text("Versuch es nochmal")
    expect(page.locator("[data-testid=gate-input]")).to_have_attribute("data-value", "")
    expect(main(page)).to_have_attribute("data-screen", "parentGate")
    expect(message).to_have_text("", timeout=5000)

    # Erase works before confirming.
    page.click("[data-digit='9']")
    expect(page.locator("[data-testid=gate-input]")).to_have_attribute("data-value", "9")
    page.click("[data-testid=gate-erase]")
    expect(page.locator("[data-testid=gate-input]")).to_have_attribute("data-value", "")
    type_gate(page, solve_gate(page))
    expect(main(page)).to_have_attribute("data-screen", "parentDashboard")

    card = page.locator("[data-testid=player-card][data-player=alexander]")
    expect(card).to_contain_text("Heute gespielt: 0 min / 60 min")
    expect(card).to_contain_text("Münzen: 0")
    card.locator("[data-testid=daily-limit]").select_option("90")
    expect(page.locator("[data-testid=player-card][data-player=alexander]")).to_contain_text("Heute gespielt: 0 min / 90 min")
    expect(page.locator("[data-testid=player-card][data-player=alexander] [data-testid=daily-limit]")).to_have_value("90")

    # Reset asks in the page first (no window.confirm).
    page.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError("window dialog opened")))
    page.click("[data-testid=player-card][data-player=oliver] [data-testid=reset]")
    confirm = page.locator("[data-testid=confirm]")
    expect(confirm).to_contain_text("Fortschritt zurücksetzen?")
    expect(confirm).to_contain_text("Alle Münzen, Level und Spielzeit werden gelöscht.")
    page.click("[data-testid=confirm-no]")
    expect(confirm).to_have_count(0)

    page.click("[data-testid=parent-back]")
    expect(main(page)).to_have_attribute("data-screen", "home")


def test_reload_during_an_activity_asks_who_plays_then_returns_to_activity_selection(page, server):
    choose_player(page, server)
    open_wuerfel(page)
    play_level(page, 1)
    wait_for_next_level(page, 2)
    play_level(page, 2)
    wait_for_next_level(page, 3)
    page.reload()
    # Every launch: the loading screen, then "Wer spielt heute?" (siblings take turns).
    expect(main(page)).to_have_attribute("data-ready", "true")
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=15000)
    assert "loading" in [entry["screen"] for entry in screens_seen(page)]
    expect(page.locator(".screen-players h1")).to_have_text("Wer spielt heute?")
    expect(page.locator("[data-testid=player-card][data-player=alexander]")).to_contain_text("2")
    page.click("[data-testid=player-card][data-player=alexander]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    expect(main(page)).to_have_attribute("data-coins", "2")
    expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("data-filled", "2")
    expect(page.locator("[data-testid=game-card][data-game=wuerfel]")).to_be_visible()


def test_a_celebration_missed_by_a_reload_comes_before_the_next_level(page, server):
    """The fifth coin's level-complete moment is cut short by a reload: the celebration is not lost; it comes
    when the child plays again, and Weiter goes on to the level."""
    choose_player(page, server)
    open_wuerfel(page)
    for coins in range(1, 5):
        play_level(page, coins)
        wait_for_next_level(page, coins + 1)
    # The reload comes inside the two seconds: the page's end of the moment never reaches the server.
    def hold_the_moment(route):
        if '"levelCompleteFinished"' in (route.request.post_data or ""):
            route.abort()
        else:
            route.continue_()
    page.route("**/api/kids/events", hold_the_moment)
    play_level(page, 5)
    expect(main(page)).to_have_attribute("data-screen", "levelComplete")
    page.reload()
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=15000)
    page.click("[data-testid=player-card][data-player=alexander]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=game-card][data-game=wuerfel]")
    celebrate_and_continue(page, 5)
    expect(main(page)).to_have_attribute("data-screen", "playing")
    expect(page.locator("[data-testid=die]")).to_have_attribute("data-state", "ready", timeout=10000)


def test_siblings_take_turns_after_a_reload(page, server):
    choose_player(page, server, "alexander")
    open_wuerfel(page)
    play_level(page, 1)
    page.reload()
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=15000)
    page.click("[data-testid=player-card][data-player=oliver]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    expect(main(page)).to_have_attribute("data-coins", "0")
    page.reload()
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=15000)
    page.click("[data-testid=player-card][data-player=alexander]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    expect(main(page)).to_have_attribute("data-coins", "1")


def test_the_parent_link_opens_the_gate_from_a_cold_start(page, server):
    page.add_init_script(RECORDER)
    page.goto(server + "/kids#eltern")
    expect(main(page)).to_have_attribute("data-screen", "parentGate", timeout=20000)
    # The loading screen had its time first; no child was asked to choose on the way.
    seen = [entry["screen"] for entry in screens_seen(page)]
    assert seen[0] == "loading", seen
    type_gate(page, solve_gate(page))
    expect(main(page)).to_have_attribute("data-screen", "parentDashboard")


def test_opening_the_app_again_seconds_later_shows_loading_and_who_plays(page, server):
    choose_player(page, server, "alexander")
    open_wuerfel(page)
    context = page.context
    page.close()
    again = context.new_page()
    again.add_init_script(RECORDER)
    again.goto(server + "/kids")
    expect(main(again)).to_have_attribute("data-ready", "true", timeout=15000)
    expect(main(again)).to_have_attribute("data-screen", "playerSelection", timeout=20000)
    assert [entry["screen"] for entry in screens_seen(again)][0] == "loading"


def test_a_second_tab_follows_the_first_at_once(page, server):
    """A second tab of the same family (a parent's window beside the child's) shows every change the first tab
    makes as it happens, not with its next heartbeat (up to 15 s later). The second tab's own heartbeats are
    refused here, so only the tabs telling each other can move it; and it works both ways."""
    choose_player(page, server)
    second = page.context.new_page()
    second.route("**/api/kids/events", lambda route: route.abort() if '"heartbeat"' in (route.request.post_data or "") else route.continue_())
    second.goto(server + "/kids")
    expect(main(second)).to_have_attribute("data-ready", "true", timeout=15000)
    expect(main(second)).to_have_attribute("data-screen", "home")

    page.click("[data-testid=sign][data-activity=zahlen]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    expect(main(second)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=game-card][data-game=wuerfel]")
    expect(main(second)).to_have_attribute("data-screen", "playing")
    expect(second.locator(".screen-activity")).to_have_attribute("data-game", "wuerfel")
    # The other way: the second tab goes home, the first follows.
    second.click("[data-testid=home-button]")
    expect(main(second)).to_have_attribute("data-screen", "home")
    expect(main(page)).to_have_attribute("data-screen", "home")
    second.close()


def kids_state(page, server):
    answer = page.request.get(server + "/api/kids/state")
    assert answer.ok, answer.text()
    return answer.json()["view"]


def earn_ten_coins_and_go_home(page, server):
    """A new family's child plays Würfel to ten coins (two celebrations, then the treasure) and goes home."""
    choose_player(page, server)
    open_wuerfel(page)
    play_to(page, 0, 10)
    celebrate_and_continue(page, 10)
    expect(main(page)).to_have_attribute("data-screen", "treasureScreen")
    page.click("[data-testid=back-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")


def test_a_reload_mid_video_keeps_the_paid_time_for_the_child_who_paid_whoever_plays_next(page, server):
    earn_ten_coins_and_go_home(page, server)
    open_dashboard(page)
    webm = page.evaluate(MAKE_WEBM)
    data = bytes(webm) if webm else b"\x1aE\xdf\xa3" + bytes(512)
    page.set_input_files("[data-testid=video-file]", files=[{"name": "film.webm", "mimeType": "video/webm", "buffer": data}])
    page.fill("[data-testid=upload-title]", "Film")
    page.click("[data-testid=upload]")
    expect(page.locator("[data-testid=parent-video][data-source=upload]")).to_contain_text("Film")
    page.click("[data-testid=parent-back]")
    page.click("[data-testid=chest]")
    page.click("[data-testid=tier-fiveMinutes]")
    page.click("[data-testid=video-card][data-source=upload]")
    expect(main(page)).to_have_attribute("data-screen", "videoPlaying")
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": 12})
    assert answer.ok, answer.text()

    page.reload()
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=15000)
    # No film on the loading or player screens, and the server's clock stands still meanwhile.
    expect(page.locator("[data-testid=video-element]")).to_have_count(0)
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": 20})
    assert answer.ok, answer.text()

    # The sibling plays: nothing of Alexander's film is offered to him.
    page.click("[data-testid=player-card][data-player=oliver]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    expect(page.locator(".screen:not(.is-leaving) [data-testid=resume-film]")).to_be_hidden()
    # "Wer spielt?" hands over on home; Alexander finds his film waiting, with the time it had left.
    page.click("[data-testid=change-player]")
    expect(main(page)).to_have_attribute("data-screen", "playerSelection")
    page.click("[data-testid=player-card][data-player=alexander]")
    expect(main(page)).to_have_attribute("data-screen", "home")
    resume = page.locator(".screen:not(.is-leaving) [data-testid=resume-film]")
    expect(resume).to_be_visible()
    expect(resume).to_contain_text("Weiterschauen")
    expect(resume).to_contain_text("Noch 5 Minuten")
    assert 280 < kids_state(page, server)["unwatchedVideo"]["remainingSeconds"] <= 288
    resume.click()

    # Back in front of the film: it plays, and its clock runs on from where it stopped.
    expect(main(page)).to_have_attribute("data-screen", "videoPlaying")
    clock = page.locator("[data-testid=clock]")
    expect(clock).to_have_attribute("data-paused", "false")
    view = kids_state(page, server)
    assert view["playback"]["paused"] is False
    left = view["playback"]["remainingSeconds"]
    assert 280 < left <= 288, left
    film = page.locator("[data-testid=video-element]")
    page.wait_for_function("""() => {
      const film = document.querySelector('[data-testid=video-element]');
      const start = document.querySelector('[data-testid=video-start]');
      return film && (!film.paused || (start && !start.hidden));
    }""")
    if film.evaluate("el => el.paused"):
        page.click("[data-testid=video-start]")
        page.wait_for_function("() => !document.querySelector('[data-testid=video-element]').paused")
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": 10})
    assert answer.ok, answer.text()
    assert kids_state(page, server)["playback"]["remainingSeconds"] <= left - 10

    # The clock ends on time: "Die Zeit ist um", the film stops, home.
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": left - 10 + 1})
    assert answer.ok, answer.text()
    time_up = page.locator("[data-testid=time-up]")
    expect(time_up).to_be_visible(timeout=15000)
    expect(time_up).to_have_text(re.compile("Zeit ist um!"))
    assert film.evaluate("el => el.paused") is True
    expect(main(page)).to_have_attribute("data-screen", "home", timeout=10000)


def trace_strokes(page, strokes):
    """Draws each stroke (0…1 box coordinates) with the mouse, as a finger would, one stroke at a time."""
    box = page.locator("[data-testid=trace-box] svg").bounding_box()
    for stroke in strokes:
        x, y = stroke[0]
        page.mouse.move(box["x"] + x * box["width"], box["y"] + y * box["height"])
        page.mouse.down()
        for x, y in stroke[1:]:
            page.mouse.move(box["x"] + x * box["width"], box["y"] + y * box["height"], steps=3)
        page.mouse.up()


def guide_strokes(page):
    """The glowing number's strokes as the page drew them (SVG points are the box coordinates × 100)."""
    return page.eval_on_selector_all(
        ".trace-guide polyline",
        "lines => lines.map(l => l.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(n => Number(n) / 100)))")


def test_tracing_the_glowing_number_earns_a_coin(page, server):
    choose_player(page, server)
    page.click("[data-testid=sign][data-activity=zahlen]")
    page.click("[data-testid=game-card][data-game=waehleDieZahl]")
    expect(main(page)).to_have_attribute("data-screen", "playing")
    box = page.locator("[data-testid=trace-box]")
    expect(box).to_be_visible()
    number = box.get_attribute("data-number")
    assert number and 1 <= int(number) <= 10
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", f"Mal die {number} nach!")

    # A scribble in a corner is not the number: the trace clears and Bennie encourages another try.
    trace_strokes(page, [[[0.02, 0.97], [0.08, 0.9], [0.03, 0.85], [0.09, 0.8]]])
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", f"Fast! Mal die {number} nochmal.")
    expect(box).to_have_attribute("data-traced", "0")
    expect(main(page)).to_have_attribute("data-coins", "0")

    strokes = guide_strokes(page)
    assert strokes and all(len(stroke) >= 2 for stroke in strokes), strokes
    trace_strokes(page, strokes)
    expect(main(page)).to_have_attribute("data-coins", "1")
    expect(main(page)).to_have_attribute("data-screen", "levelComplete")
    # The next level asks for a different number.
    expect(main(page)).to_have_attribute("data-screen", "playing", timeout=10000)
    expect(box).not_to_have_attribute("data-number", number)


# MARK: Motion, colours, sizes

def test_reduced_motion_shows_the_overlay_without_confetti(reduced_page, server):
    page = reduced_page
    choose_player(page, server)
    expect(main(page)).to_have_attribute("data-motion", "reduced")
    open_wuerfel(page)
    play_to(page, 0, 5)
    expect(page.locator("[data-testid=celebration]")).to_be_visible(timeout=10000)
    expect(page.locator("[data-testid=confetti]")).to_have_attribute("data-active", "false")
    assert page.evaluate("window.__confetti") == 0
    assert page.evaluate("window.__flights") == 0
    bennie = page.locator("#guide-bennie")
    assert bennie.evaluate("el => getComputedStyle(el).animationName") == "none"
    page.click("[data-testid=weiter]")
    expect(page.locator("[data-testid=celebration]")).to_be_hidden()


def test_full_motion_plays_the_coin_flight_and_keeps_confetti_for_the_celebration(page, server):
    choose_player(page, server)
    expect(main(page)).to_have_attribute("data-motion", "full")
    open_wuerfel(page)
    play_level(page, 1)
    page.wait_for_function("() => window.__flights > 0")
    # An ordinary success is calm: confetti comes only with the celebration (test_kids_polish.py).
    assert page.evaluate("window.__confetti") == 0
    bennie = page.locator("#guide-bennie")
    assert bennie.evaluate("el => getComputedStyle(el).animationName") == "breathe"


def test_kids_css_uses_no_forbidden_colours():
    sources = [(ROOT / "Public/css/kids.css").read_text(encoding="utf-8")]
    html = (ROOT / "Public/kids.html").read_text(encoding="utf-8")
    sources += re.findall(r"<style[^>]*>(.*?)</style>", html, re.DOTALL | re.IGNORECASE)
    sources += re.findall(r'style="([^"]*)"', html)
    for source in sources:
        found = FORBIDDEN_COLOURS.findall(source)
        assert not found, f"forbidden colours in kids styles: {found}"
    # Red belongs to the parent area only.
    css = sources[0]
    for rule in re.findall(r"([^{}]+)\{[^{}]*(?:--danger|#CC0000)[^{}]*\}", css, re.IGNORECASE):
        assert ":root" in rule or "parent" in rule or "usage" in rule, rule


@pytest.mark.parametrize("viewport", [{"width": 1194, "height": 834}, {"width": 1280, "height": 800}])
def test_children_targets_are_large_enough(browser, server, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    try:
        choose_player(page, server)
        # Every button on show (a hidden one, "Weiterschauen" with no film waiting, is no target).
        sizes = page.eval_on_selector_all(
            ".screen-home button", "els => els.filter(e => e.getClientRects().length).map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 96 and h >= 96 for w, h in sizes), sizes
        open_wuerfel(page)
        sizes = page.eval_on_selector_all(
            ".screen-activity button", "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert sizes and all(w >= 96 and h >= 96 for w, h in sizes), sizes
        # Nothing hides below the fold on a tablet or a laptop.
        fits = page.evaluate("() => [...document.querySelectorAll('.screen-activity button')].every(b => b.getBoundingClientRect().bottom <= innerHeight)")
        assert fits
    finally:
        context.close()


def test_phone_size_still_plays(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        choose_player(page, server, "oliver")
        expect(page.locator("[data-testid=sign][data-activity=zahlen]")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
        page.tap("[data-testid=sign][data-activity=zahlen]")
        expect(main(page)).to_have_attribute("data-screen", "activitySelection")
        page.tap("[data-testid=game-card][data-game=wuerfel]")
        expect(main(page)).to_have_attribute("data-screen", "playing")
        die = page.locator("[data-testid=die]")
        expect(die).to_have_attribute("data-state", "ready")
        die.tap()
        expect(page.locator(".dice-numbers")).to_have_attribute("data-ready", "true")
        page.tap(f".dice-numbers [data-number='{die.get_attribute('data-face')}']")
        expect(main(page)).to_have_attribute("data-coins", "1")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    finally:
        context.close()
    assert not errors, errors


def test_wähle_die_zahl_grows_with_the_child_and_the_parent_sees_and_resets_it(page, server):
    choose_player(page, server)
    open_dashboard(page)
    alexander = page.locator("[data-testid=player-card][data-player=alexander]")
    difficulty = alexander.locator("[data-testid=difficulty][data-activity=zahlen]")
    expect(difficulty).to_contain_text("Zahlen 1–5 (Stufe 0,3)")
    alexander.locator("[data-testid=mode] >> nth=1").check()
    expect(alexander.locator("[data-testid=mode] >> nth=1")).to_be_checked()
    page.click("[data-testid=parent-back]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    # Three quick clean levels in tap mode: the numbers asked come from 1–5 until the rules move it.
    page.click("[data-testid=sign][data-activity=zahlen]")
    page.click("[data-testid=game-card][data-game=waehleDieZahl]")
    for coins in range(1, 4):
        wait_for_next_level(page, coins)
        expect(page.locator(".screen-activity .number").first).to_be_enabled()
        asked = kids_state(page, server)["level"]["askedNumber"]
        assert 1 <= asked <= 5, asked
        page.click(f".screen-activity .number[data-number='{asked}']")
        expect(main(page)).to_have_attribute("data-coins", str(coins))
    wait_for_next_level(page, 4)
    page.click("[data-testid=home-button]")
    expect(main(page)).to_have_attribute("data-screen", "home")

    open_dashboard(page)
    expect(difficulty).not_to_have_attribute("data-level", "0.3")
    expect(difficulty).to_contain_text("Zahlen 1–")
    difficulty.locator("[data-testid=reset-difficulty]").click()
    expect(difficulty).to_have_attribute("data-level", "0.3")
    expect(difficulty).to_contain_text("Zahlen 1–5 (Stufe 0,3)")
    expect(main(page)).to_have_attribute("data-coins", "3")
