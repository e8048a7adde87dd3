"""The Cryptogram page as a person plays it: start, type, make mistakes, take hints, solve, celebrate.

The page never holds the answer, so the tests solve puzzles the way a stuck player would: by pressing the
on-screen Hint button until every letter is shown. Where a test needs a *wrong* letter it types the cell's own
code letter (the cipher never maps a letter to itself); where it needs a *right* one it works the answer out
from the bundled quote library, as a player who knew the quote would.

No sleeps: the tests wait on the page's state with expect(), and check motion through the Web Animations API
(delays, durations, frozen frames) and through animation events recorded by an init script.
"""
import json
import pathlib
import re

import pytest

from playwright.sync_api import expect

STEPS = ["overlay", "trophy", "quote", "attribution", "stats", "next"]

# Records every Web Animation and CSS animation the page starts, and every vibration, so a test can inspect
# short effects (the 0.6 s wiggle, the 0.5 s mistake flash) after they have already finished.
RECORDER = """
window.__animations = [];
window.__cssAnimations = [];
window.__vibrations = [];
const originalAnimate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = originalAnimate.apply(this, args);
  window.__animations.push({ element: this, animation });
  return animation;
};
document.addEventListener('animationstart', (event) => {
  window.__cssAnimations.push({ name: event.animationName, index: event.target.dataset && event.target.dataset.index,
    duration: getComputedStyle(event.target).animationDuration, phase: 'start' });
}, true);
document.addEventListener('animationend', (event) => {
  window.__cssAnimations.push({ name: event.animationName, index: event.target.dataset && event.target.dataset.index, phase: 'end' });
}, true);
Object.defineProperty(Navigator.prototype, 'vibrate', { configurable: true, value(pattern) { window.__vibrations.push(pattern); return true; } });
"""

STEP_DELAYS = """(steps) => Object.fromEntries(steps.map((id) => {
  const overlay = document.querySelector('#complete');
  const element = id === 'overlay' ? overlay : overlay.querySelector(`[data-step=${id}]`);
  const animation = element.getAnimations().find((a) => a.id === `step:${id}`);
  return [id, animation ? animation.effect.getTiming().delay / 1000 : null];
}))"""

# Freezes each completion step at `fraction` of its own animation and reads the frame.
FREEZE_STEPS = """([steps, fraction]) => steps.map((id) => {
  const overlay = document.querySelector('#complete');
  const element = id === 'overlay' ? overlay : overlay.querySelector(`[data-step=${id}]`);
  const animation = element.getAnimations().find((a) => a.id === `step:${id}`);
  const timing = animation.effect.getTiming();
  animation.pause();
  animation.currentTime = timing.delay + timing.duration * fraction;
  const style = getComputedStyle(element);
  return { id, transform: style.transform, opacity: parseFloat(style.opacity) };
})"""

WIGGLES = """() => window.__animations
  .filter(({ animation }) => String(animation.id).startsWith('wiggle:'))
  .map(({ element, animation }) => ({ id: animation.id, cell: Number(element.dataset.index),
    isCell: element.classList.contains('cg-cell'), delay: animation.effect.getTiming().delay,
    duration: animation.effect.getTiming().duration, frames: animation.effect.getKeyframes().length }))"""

IDENTITY = ("none", "matrix(1, 0, 0, 1, 0, 0)")


def open_cryptogram(page, server, path="/cryptogram"):
    page.goto(server + path)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def start_random(page, length="short"):
    expect(page.locator("#start")).to_be_visible()
    page.click(f"#length-choice [data-length={length}]")
    expect(page.locator(f"#length-choice [data-length={length}]")).to_have_attribute("aria-pressed", "true")
    page.click("#play-random")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    expect(page.locator("#board .cg-cell").first).to_be_visible()


def selected_cell(page):
    cell = page.locator("#board .cg-cell.is-selected")
    expect(cell).to_have_count(1)
    return cell


def record_moves(page):
    """Collects the JSON of every move the page sends (guesses, hints, pause, …)."""
    moves = []

    def keep(response):
        if "/api/cryptogram/games/" in response.url and response.request.method == "POST":
            moves.append(response)

    page.on("response", keep)
    return moves


def solve_with_hints(page):
    hints = page.locator("#hints")
    for _ in range(400):
        if page.locator("#game").get_attribute("data-status") == "solved":
            return int(hints.get_attribute("data-count"))
        count = int(hints.get_attribute("data-count"))
        page.click("#hint")
        expect(hints).to_have_attribute("data-count", str(count + 1))
    raise AssertionError("pressing Hint did not solve the puzzle")


def celebration_of(moves):
    for response in reversed(moves):
        body = response.json()
        if body.get("celebration"):
            return response, body
    raise AssertionError("no move came back with a celebration")


def test_start_screen_offers_daily_random_and_lengths(page, server):
    open_cryptogram(page, server)
    expect(page.locator("#start h1")).to_have_text("Cryptogram")
    expect(page.locator("#play-daily")).to_have_text("Daily puzzle")
    expect(page.locator("#today")).not_to_be_empty()
    expect(page.locator("#play-random")).to_have_text("Just play")
    expect(page.locator("#length-choice button")).to_have_text(["Short", "Medium", "Long"])
    expect(page.locator("a[href='/cryptogram/stats']").first).to_be_visible()


def test_random_short_puzzle_renders_words_and_counts_a_mistake(page, server):
    page.add_init_script(RECORDER)
    open_cryptogram(page, server)
    start_random(page, "short")
    expect(page.locator("#game-subtitle")).to_contain_text("Short")
    expect(page.locator("#mistakes")).to_have_text("0 / 3")
    expect(page.locator("#timer")).to_have_text("0:00")
    # Words are unbreakable groups: every cell of a word sits on the same line.
    words = page.evaluate("""() => Array.from(document.querySelectorAll('#board .cg-word')).map((word) =>
      new Set(Array.from(word.children).map((c) => Math.round(c.getBoundingClientRect().top))).size)""")
    assert words and all(lines == 1 for lines in words), words
    ciphers = page.eval_on_selector_all("#board .cg-cell .cg-cipher", "els => els.map(e => e.textContent)")
    assert ciphers and all(re.fullmatch(r"[A-Z]", c) for c in ciphers), ciphers

    # Selecting a cell highlights every cell with the same code letter.
    cell = selected_cell(page)
    cipher = cell.get_attribute("data-cipher")
    index = cell.get_attribute("data-index")
    same = page.locator(f"#board .cg-cell[data-cipher={cipher}]")
    expect(page.locator("#board .cg-cell.is-same")).to_have_count(same.count() - 1)

    # A wrong letter (the code letter itself is never the answer) flashes, is counted and is cleared.
    page.keyboard.press(cipher)
    expect(page.locator("#mistakes")).to_have_text("1 / 3")
    expect(page.locator("#mistakes")).to_have_attribute("data-count", "1")
    expect(page.locator("#message")).to_contain_text("not the letter")
    expect(page.locator(f"#board .cg-cell[data-index='{index}'] .cg-plain")).to_have_text("")
    expect(page.locator(f"#board .cg-cell[data-index='{index}']")).not_to_have_class(re.compile("is-mistake"))
    flashes = page.evaluate("() => window.__cssAnimations.filter((a) => a.name === 'cg-mistake')")
    assert [f["phase"] for f in flashes] == ["start", "end"], flashes
    assert flashes[0]["index"] == index and flashes[0]["duration"] == "0.5s", flashes
    # The clock started with that first input.
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))

    # The on-screen keyboard types too.
    cipher = selected_cell(page).get_attribute("data-cipher")
    page.click(f"#keyboard [data-key={cipher}]")
    expect(page.locator("#mistakes")).to_have_text("2 / 3")
    expect(page.locator("#mistakes")).to_have_class(re.compile("is-warning"))


def solution_of(game):
    """The plain letter of each cipher letter, worked out from the bundled quote library (the page never has it)."""
    library = json.loads((pathlib.Path(__file__).resolve().parents[2] / "Sources/Cryptogram/Resources/quotes.json").read_text())
    cells = game["cells"]
    for quote in library:
        text = quote["text"]
        if len(text) != len(cells):
            continue
        mapping, fits = {}, True
        for cell, character in zip(cells, text):
            if cell["isLetter"]:
                if not character.isalpha() or mapping.setdefault(cell["cipher"], character.upper()) != character.upper():
                    fits = False
                    break
            elif cell["shown"] != character:
                fits = False
                break
        if fits:
            return mapping
    raise AssertionError("the quote is not in the library")


def test_a_known_letter_fills_every_matching_cell_given_hinted_or_guessed(page, server):
    open_cryptogram(page, server)
    with page.expect_response(lambda r: r.url.endswith("/api/cryptogram/games") and r.request.method == "POST") as started:
        start_random(page, "medium")
    game = started.value.json()["game"] if "game" in started.value.json() else started.value.json()
    answer = solution_of(game)

    def hidden_by_cipher():
        shown = page.evaluate(
            "() => Array.from(document.querySelectorAll('#board .cg-cell')).map((c) => [c.dataset.index, c.dataset.cipher || '', c.classList.contains('is-shown')])")
        groups = {}
        for index, cipher, is_shown in shown:
            if cipher and not is_shown:
                groups.setdefault(cipher, []).append(index)
        return groups

    # Given letters: no cipher letter is shown in one cell and hidden in another.
    everything = page.evaluate("() => Array.from(document.querySelectorAll('#board .cg-cell')).map((c) => [c.dataset.cipher || '', c.classList.contains('is-shown')])")
    given = {cipher for cipher, is_shown in everything if cipher and is_shown}
    assert given and not (given & set(hidden_by_cipher())), "a given letter left a matching cell empty"

    # A hint on a repeated letter fills every cell of it.
    repeated = [cipher for cipher, indices in hidden_by_cipher().items() if len(indices) > 1]
    assert len(repeated) >= 2, "a medium quote repeats letters"
    hinted = repeated[0]
    page.click(f"#board .cg-cell[data-index='{hidden_by_cipher()[hinted][0]}']")
    page.click("#hint")
    matching = page.locator(f"#board .cg-cell[data-cipher={hinted}] .cg-plain")
    expect(matching).to_have_text([answer[hinted]] * matching.count())
    assert hinted not in hidden_by_cipher()

    # A right letter typed in one cell fills every cell of it, and the selection moves on to an empty cell.
    guessed = repeated[1]
    first = hidden_by_cipher()[guessed][0]
    page.click(f"#board .cg-cell[data-index='{first}']")
    expect(page.locator(f"#board .cg-cell[data-index='{first}']")).to_have_class(re.compile("is-selected"))
    page.keyboard.press(answer[guessed])
    matching = page.locator(f"#board .cg-cell[data-cipher={guessed}] .cg-plain")
    expect(matching).to_have_text([answer[guessed]] * matching.count())
    expect(page.locator("#mistakes")).to_have_text("0 / 3")
    expect(page.locator("#board .cg-cell.is-selected")).not_to_have_class(re.compile("is-shown"))
    assert selected_cell(page).get_attribute("data-index") != str(first)


def test_keyboard_moves_the_selection(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    first = selected_cell(page)
    first.focus()
    start = int(first.get_attribute("data-index"))
    page.keyboard.press("ArrowRight")
    moved = int(selected_cell(page).get_attribute("data-index"))
    assert moved > start
    page.keyboard.press("ArrowLeft")
    expect(selected_cell(page)).to_have_attribute("data-index", str(start))
    page.keyboard.press("Enter")
    after_enter = selected_cell(page)
    expect(after_enter).not_to_have_class(re.compile("is-shown"))
    assert int(after_enter.get_attribute("data-index")) > start
    # The selected cell holds the focus (roving tab stop).
    assert page.evaluate("document.activeElement.classList.contains('is-selected')")


def test_solving_plays_the_completion_sequence_in_order(page, server):
    page.add_init_script(RECORDER)
    moves = record_moves(page)
    open_cryptogram(page, server)
    start_random(page, "short")
    first_game = page.locator("#board").get_attribute("data-game")
    hints_used = solve_with_hints(page)

    response, body = celebration_of(moves)
    assert "preference=full" in response.url
    payload = {step["id"]: step["delay"] for step in body["celebration"]["steps"]}

    overlay = page.locator("#complete")
    expect(overlay).to_be_visible()
    delays = page.evaluate(STEP_DELAYS, STEPS)
    assert all(delays[step] is not None for step in STEPS), delays
    for step in STEPS:
        assert round(delays[step], 3) == round(payload[step], 3), (step, delays[step], payload[step])
    # The seed's times, from the solve: the view fades in from 0.7 s; trophy and quote begin at 0.4 s inside it.
    assert [round(delays[s], 2) for s in STEPS] == [0.7, 0.4, 0.4, 1.2, 1.8, 2.3], delays
    order = [delays[s] for s in ["trophy", "overlay", "attribution", "stats", "next"]]
    assert order == sorted(order) and len(set(order)) == len(order), order

    # The cells wiggled at once, each along the server's samples.
    wiggle = body["wiggle"]
    assert wiggle["active"] is True
    letter_cells = page.locator("#board .cg-cell").count()
    # The stagger's groups are set up a frame apart, each on the first group's clock.
    page.wait_for_function("(n) => window.__animations.filter(({ animation }) => String(animation.id).startsWith('wiggle:')).length === n", arg=letter_cells)
    wiggles = page.evaluate(WIGGLES)
    assert len(wiggles) == letter_cells, (len(wiggles), letter_cells)
    clocks = page.evaluate("() => window.__animations.filter(({ animation }) => String(animation.id).startsWith('wiggle:')).map(({ animation }) => animation.startTime)")
    assert max(clocks) - min(clocks) < 0.5, clocks
    shape = wiggle["shape"]
    assert shape[0] == 0 and shape[-1] == 0 and max(abs(s) for s in shape) > 0.9, shape
    for item in wiggles:
        cell = wiggle["cells"][item["cell"]]
        assert item["isCell"] and abs(item["delay"] - cell["delay"] * 1000) < 1e-6, item
        assert item["frames"] == len(shape)
        assert abs(item["duration"] - (len(shape) - 1) * wiggle["sampleInterval"] * 1000) < 1e-6, item
        # Every cell is home by the time the wiggle is switched off.
        assert item["delay"] + item["duration"] <= wiggle["duration"] * 1000 + 1e-6, item
    assert len(page.evaluate("window.__vibrations")) == 1
    # The card is laid out a frame after the wiggle began, but its clock starts with the wiggle: the seed's times
    # are from the solve.
    starts = page.evaluate("""() => ({
      wiggle: window.__animations.find(({ animation }) => String(animation.id).startsWith('wiggle:')).animation.startTime,
      steps: window.__animations.filter(({ animation }) => String(animation.id).startsWith('step:')).map(({ animation }) => animation.startTime),
    })""")
    assert starts["steps"] and all(abs(start - starts["wiggle"]) < 0.5 for start in starts["steps"]), starts

    # Content: the quote, its attribution, and the numbers of this solve.
    game = body["game"]
    expect(page.locator("#quote-text")).to_have_text(game["solution"]["text"])
    expect(page.locator("#quote-attribution")).to_have_text(game["solution"]["attribution"])
    if game["solution"].get("source"):
        expect(page.locator("#quote-source")).to_have_text(f"From: {game['solution']['source']}")
    else:
        expect(page.locator("#quote-source")).to_be_hidden()
    stats = page.locator("#complete-stats")
    expect(stats).to_contain_text(re.compile(r"Time: \d+:\d\d"))
    expect(stats).to_contain_text(f"Hints used: {hints_used}")
    expect(stats).not_to_contain_text("Mistakes")
    assert game["stats"]["hints"] == hints_used

    # Mid-flight the trophy is still growing and the button still rising: real movement in full motion.
    expect(overlay).to_have_attribute("data-played", "done", timeout=15000)
    frames = {f["id"]: f for f in page.evaluate(FREEZE_STEPS, [["trophy", "next"], 0.02])}
    assert frames["trophy"]["transform"] not in IDENTITY, frames
    assert frames["next"]["transform"] not in IDENTITY, frames
    page.evaluate("() => document.querySelectorAll('#complete, #complete [data-step]').forEach((e) => e.getAnimations().forEach((a) => a.finish()))")

    # "Next Puzzle" starts a new random puzzle of the same length at once, with the keyboard on its board.
    page.click("#next-puzzle")
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('is-selected')")
    expect(page.locator("#board")).not_to_have_attribute("data-game", first_game)
    expect(overlay).to_be_hidden()
    expect(page.locator("#game-subtitle")).to_contain_text("Short")
    expect(page.locator("#hints")).to_have_text("0")


@pytest.mark.parametrize("length", ["medium", "long"])
def test_the_finish_fits_a_laptop_window(browser, server, length):
    """At 1280 × 800 the whole card, Next Puzzle and the stats link included, is in the window after a solve, and
    no line above it repeats what the card says (it is read out to screen readers only)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        start_random(page, length)
        solve_with_hints(page)
        expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
        assert page.evaluate("() => scrollY") == 0
        for selector in ["#next-puzzle", "#complete a[href='/cryptogram/stats']"]:
            box = page.locator(selector).bounding_box()
            assert box["y"] + box["height"] <= 800, (selector, box)
            assert box["height"] >= 44, (selector, box)
        message = page.locator("#message")
        expect(message).to_contain_text("Solved in")
        spoken = message.locator(".sr-only")
        expect(spoken).to_contain_text("Solved in")
        assert spoken.bounding_box()["height"] <= 1, spoken.bounding_box()
    finally:
        context.close()


def test_calm_mode_celebrates_without_movement(page, server):
    page.add_init_script(RECORDER)
    moves = record_moves(page)
    open_cryptogram(page, server)
    page.click("label.switch")
    expect(page.locator("#calm")).to_be_checked()
    start_random(page, "short")
    solve_with_hints(page)

    response, body = celebration_of(moves)
    assert "preference=reduced" in response.url
    assert body["celebration"]["preference"] == "reduced"
    assert body["wiggle"]["active"] is False
    expect(page.locator("#complete")).to_be_visible()
    # Same order of appearance, but every frame is a fade: no transform at any point.
    delays = page.evaluate(STEP_DELAYS, STEPS)
    assert [round(delays[s], 2) for s in STEPS] == [round(next(x["delay"] for x in body["celebration"]["steps"] if x["id"] == s), 2) for s in STEPS]
    for fraction in (0.1, 0.5):
        frames = page.evaluate(FREEZE_STEPS, [STEPS, fraction])
        assert all(f["transform"] in IDENTITY for f in frames), frames
        assert all(0 < f["opacity"] < 1 for f in frames), frames
    assert page.evaluate(WIGGLES) == []
    moving = page.evaluate("""() => Array.from(document.querySelectorAll('#board .cg-cell')).filter((c) =>
      getComputedStyle(c).transform !== 'none' ||
      c.getAnimations().some((a) => a.effect.getKeyframes().some((k) => 'transform' in k))).length""")
    assert moving == 0, f"{moving} cells move in calm mode"


def test_system_reduced_motion_is_honoured(reduced_page, server):
    reduced_page.add_init_script(RECORDER)
    moves = record_moves(reduced_page)
    open_cryptogram(reduced_page, server)
    start_random(reduced_page, "short")
    solve_with_hints(reduced_page)
    response, body = celebration_of(moves)
    assert "preference=reduced" in response.url
    assert reduced_page.evaluate(WIGGLES) == []


def test_reload_continues_the_same_puzzle(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    cipher = selected_cell(page).get_attribute("data-cipher")
    page.keyboard.press(cipher)
    expect(page.locator("#mistakes")).to_have_text("1 / 3")
    expect(page.locator("#board .cg-cell.is-mistake")).to_have_count(0)  # the wrong letter has gone again
    board = page.eval_on_selector_all("#board .cg-cell", "els => els.map(e => e.dataset.cipher).join('')")
    shown = page.eval_on_selector_all("#board .cg-cell", "els => els.map(e => e.querySelector('.cg-plain').textContent).join('|')")
    assert re.search(r"[?&]game=", page.url)

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#game")).to_be_visible()
    assert page.eval_on_selector_all("#board .cg-cell", "els => els.map(e => e.dataset.cipher).join('')") == board
    assert page.eval_on_selector_all("#board .cg-cell", "els => els.map(e => e.querySelector('.cg-plain').textContent).join('|')") == shown
    expect(page.locator("#mistakes")).to_have_text("1 / 3")

    # Without the link, the unfinished puzzle is still the one that opens.
    open_cryptogram(page, server)
    expect(page.locator("#game")).to_be_visible()
    assert page.eval_on_selector_all("#board .cg-cell", "els => els.map(e => e.dataset.cipher).join('')") == board


def test_a_solved_puzzle_reopens_at_rest(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    solve_with_hints(page)
    expect(page.locator("#complete")).to_be_visible()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    overlay = page.locator("#complete")
    expect(overlay).to_be_visible()
    expect(overlay).to_have_attribute("data-played", "static")
    assert page.evaluate("Array.from(document.querySelectorAll('#complete, #complete [data-step]')).every((e) => e.getAnimations().length === 0)")
    expect(page.locator("#next-puzzle")).to_be_visible()


def test_pause_hides_the_puzzle_until_resumed(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    expect(page.locator("#pause")).to_be_disabled()  # nothing to pause before the first letter
    page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
    expect(page.locator("#mistakes")).to_have_text("1 / 3")
    page.click("#pause")
    expect(page.locator("#paused-panel")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator("#timer")).not_to_have_class(re.compile("is-running"))
    page.click("#resume")
    expect(page.locator("#paused-panel")).to_be_hidden()
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))


def test_three_mistakes_fail_then_try_again_or_continue(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")

    def three_mistakes():
        for count in (1, 2, 3):
            page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
            expect(page.locator("#mistakes")).to_have_attribute("data-count", str(count))

    three_mistakes()
    expect(page.locator("#game")).to_have_attribute("data-status", "failed")
    panel = page.locator("#failed-panel")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("button", name="Try again")).to_be_visible()
    expect(panel.get_by_role("button", name="New puzzle")).to_be_visible()
    # A lost game is not a paused one: typing says what to do, and the dialog keeps the keyboard.
    page.keyboard.press("A")
    expect(page.locator("#message")).to_have_text("Out of mistakes: choose Continue, Try again or New puzzle.")
    for _ in range(5):
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.getElementById('failed-panel').contains(document.activeElement)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.getElementById('failed-panel').contains(document.activeElement)")

    page.click("#try-again")
    expect(panel).to_be_hidden()
    expect(page.locator("#mistakes")).to_have_text("0 / 3")
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")

    three_mistakes()
    expect(panel).to_be_visible()
    page.click("#continue")
    expect(page.locator("#continue-friction")).to_contain_text("Keep going without a mistake limit?")
    page.click("#continue-yes")
    expect(panel).to_be_hidden()
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    expect(page.locator("#mistakes")).to_have_text("3")
    page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
    expect(page.locator("#mistakes")).to_have_text("4")


def test_new_puzzle_after_a_loss_lets_it_go(page, server):
    """New puzzle from the "Out of mistakes" dialog: the start screen, and the lost puzzle stays gone on the
    next visit (and for another device on the same account)."""
    open_cryptogram(page, server)
    start_random(page, "short")
    for count in (1, 2, 3):
        page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
        expect(page.locator("#mistakes")).to_have_attribute("data-count", str(count))
    expect(page.locator("#failed-panel")).to_be_visible()
    page.click("#failed-new")
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#back-row")).to_be_hidden()
    page.goto(server + "/cryptogram")
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#failed-panel")).to_be_hidden()


def test_someone_elses_puzzle_link_says_what_happened(browser, page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    link = page.url
    assert "game=" in link, link
    stranger = browser.new_context()
    other = stranger.new_page()
    try:
        other.goto(link)
        expect(other.locator("#start")).to_be_visible(timeout=15000)
        expect(other.locator("#start-message")).to_contain_text("someone else's puzzle")
        assert "game=" not in other.url
    finally:
        stranger.close()


def test_new_puzzle_returns_to_the_start_screen(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    page.click("#new-puzzle")
    expect(page.locator("#start")).to_be_visible()
    expect(page.locator("#back-to-game")).to_be_visible()
    page.click("#back-to-game")
    expect(page.locator("#game")).to_be_visible()


def test_daily_puzzle_resumes_the_same_game(page, server):
    open_cryptogram(page, server)
    page.click("#play-daily")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#game-title")).to_have_text("Daily puzzle")
    first = page.locator("#board").get_attribute("data-game")
    page.click("#new-puzzle")
    page.click("#play-daily")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#board")).to_have_attribute("data-game", first)


def test_stats_page_shows_solves_and_one_bar_each(page, server):
    open_cryptogram(page, server, "/cryptogram/stats")
    expect(page.locator(".cgs-empty")).to_contain_text("Nothing solved yet")
    expect(page.locator("#tiles [data-stat=solved] dd")).to_have_text("0")
    expect(page.locator(".cgs-calendar .cgs-day")).to_have_count(35)

    open_cryptogram(page, server)
    # A puzzle opened and left without a letter is not "played" (it would lower the win rate).
    start_random(page, "short")
    page.click("#new-puzzle")
    expect(page.locator("#start")).to_be_visible()
    start_random(page, "short")
    solve_with_hints(page)
    expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
    page.click("#next-puzzle")
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    solve_with_hints(page)

    open_cryptogram(page, server, "/cryptogram/stats")
    expect(page.locator("#tiles [data-stat=solved] dd")).to_have_text("2")
    expect(page.locator("#tiles [data-stat=played] dd")).to_have_text("2")
    expect(page.locator("#tiles [data-stat=win-rate] dd")).to_have_text("100 %")
    expect(page.locator("#tiles [data-stat=points] dd")).to_have_text("20")
    expect(page.locator("svg.cgs-chart rect.bar")).to_have_count(2)
    expect(page.locator("svg.cgs-chart title").first).to_contain_text("Solve times")
    expect(page.locator("svg.cgs-chart text.label").first).to_have_text("0:00")
    expect(page.locator(".cgs-empty")).to_have_count(0)
    # One kind of label on the axis: the day, under its first bar (two solves today: one label, no time of day).
    bar_labels = page.locator("svg.cgs-chart .bars text.label").all_text_contents()
    assert len(bar_labels) == 1, bar_labels
    assert not re.search(r"\d{1,2}:\d\d|AM|PM", bar_labels[0]), bar_labels
    # Weeks start on Monday, whatever day the five weeks begin on.
    heads = page.locator(".cgs-calendar .dow").all_text_contents()
    assert heads[0] == page.evaluate("() => new Date(2024, 0, 1).toLocaleDateString(undefined, { weekday: 'short' })"), heads
    first = page.locator(".cgs-calendar .cgs-day").first.get_attribute("data-date")
    column = page.evaluate("(d) => { const [y, m, day] = d.split('-').map(Number); return (new Date(y, m - 1, day).getDay() + 6) % 7; }", first)
    expect(page.locator(".cgs-calendar .cgs-pad")).to_have_count(column)


def test_cryptogram_fits_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"), "start screen scrolls sideways"
        start_random(page, "long")
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"), "the puzzle scrolls sideways"
        keys = page.eval_on_selector_all("#keyboard button", "els => els.map(e => e.getBoundingClientRect()).map(r => [r.left, r.right, r.width])")
        assert len(keys) == 28
        assert all(left >= 0 and right <= 390 and width >= 26 for left, right, width in keys), keys
        # Tapping a key types into the selected cell.
        cipher = selected_cell(page).get_attribute("data-cipher")
        page.tap(f"#keyboard [data-key={cipher}]")
        expect(page.locator("#mistakes")).to_have_text("1 / 3")
        open_cryptogram(page, server, "/cryptogram/stats")
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"), "stats scroll sideways"
    finally:
        context.close()


def test_a_page_that_fell_behind_catches_up(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
    expect(page.locator("#mistakes")).to_have_text("1 / 3")
    # The same person pauses the puzzle in a second tab …
    other = page.context.new_page()
    open_cryptogram(other, server)
    other.click("#pause")
    expect(other.locator("#paused-panel")).to_be_visible()
    # … so the first tab's next letter is refused kindly, and the tab shows the paused puzzle.
    page.keyboard.press("E")
    expect(page.locator("#message")).to_contain_text("paused")
    expect(page.locator("#paused-panel")).to_be_visible()
    other.close()


def test_phone_text_links_are_big_enough_to_tap(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        for path, links in [("/cryptogram", ["← All systems", "Your stats →"]), ("/cryptogram/stats", ["← Back to the puzzle", "All systems"])]:
            page.goto(server + path)
            expect(page.locator("body")).to_have_attribute("data-ready", "true")
            for name in links:
                box = page.locator(".cg-crumbs").get_by_role("link", name=name).bounding_box()
                assert box and box["height"] >= 44, (path, name, box)
        page.goto(server + "/motion")
        box = page.get_by_role("link", name="← All systems").bounding_box()
        assert box and box["height"] >= 44, box
    finally:
        context.close()


# Whether the selected cell is wholly inside the board's visible box, below the top bar and above the keys.
SELECTED_IN_VIEW = """() => {
  const cell = document.querySelector('#board .cg-cell.is-selected');
  if (!cell) return false;
  const r = cell.getBoundingClientRect();
  const board = document.querySelector('#board').getBoundingClientRect();
  const keys = document.querySelector('#keyboard').getBoundingClientRect();
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  return r.top >= Math.max(board.top, bar.bottom) - 1 && r.bottom <= Math.min(board.bottom, keys.top) + 1;
}"""


def started_game(page, length):
    """Starts a random puzzle of `length` and returns the server's game (for its answer)."""
    with page.expect_response(lambda r: r.url.endswith("/api/cryptogram/games") and r.request.method == "POST") as started:
        start_random(page, length)
    body = started.value.json()
    return body.get("game", body)


def test_phone_board_keeps_the_selected_cell_above_the_docked_keys(browser, server):
    """A long quote on a phone: the keys are docked at the bottom of the window, the page itself never scrolls,
    and as the player types right letters down the quote the board scrolls so the selected cell is always in view
    above the keys (it used to sink under them at y≈670)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        game = started_game(page, "long")
        # A quote that needs the board to scroll by more than a row (some long quotes fit the phone's board whole).
        for _ in range(12):
            if page.evaluate("() => { const b = document.querySelector('#board'); return b.scrollHeight > b.clientHeight + 100 }"):
                break
            page.click("#new-puzzle")
            game = started_game(page, "long")
        answer = solution_of(game)
        keys = page.locator("#keyboard").bounding_box()
        assert abs(keys["y"] + keys["height"] - 844) <= 1, keys
        board = page.locator("#board").bounding_box()
        assert board["y"] < 260, board  # board first: one slim status row above it
        def type_right_letter():
            cell = selected_cell(page)
            index = cell.get_attribute("data-index")
            page.tap(f"#keyboard [data-key={answer[cell.get_attribute('data-cipher')]}]")
            expect(page.locator(f"#board .cg-cell[data-index='{index}']")).to_have_class(re.compile("is-shown"))

        # A few right letters, then on down the quote with the › key (typing alone may fill the last rows before the
        # selection gets there): after every step the selected cell is in view above the keys, and the page never moves.
        for _ in range(3):
            type_right_letter()
            page.wait_for_function(SELECTED_IN_VIEW)
        scrolled = False
        for _ in range(150):
            page.tap("#keyboard [data-key=next]")
            page.wait_for_function(SELECTED_IN_VIEW)
            assert page.evaluate("() => scrollY") == 0
            scrolled = scrolled or page.evaluate("() => document.querySelector('#board').scrollTop") > 0
            if scrolled and page.evaluate("() => { const b = document.querySelector('#board'); return b.scrollTop + b.clientHeight >= b.scrollHeight - 2 }"):
                break
        assert scrolled, "the selection never reached the bottom of the board"
        # A right letter typed down there: still in view, and so is the next empty cell it moves on to.
        type_right_letter()
        page.wait_for_function(SELECTED_IN_VIEW)
        expect(page.locator("#mistakes")).to_have_text("0 / 3")
        assert page.evaluate("() => document.documentElement.scrollHeight") <= 844
    finally:
        context.close()


@pytest.mark.parametrize("size", [(1280, 800), (1194, 834)])
def test_a_medium_quote_fits_the_window_with_its_keys(browser, server, size):
    """Laptop and tablet: board, counters and on-screen keys all in the window with no scrolling, the whole
    medium quote shown (cells are sized to the board's height), and a wrong letter's flash in full view."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        started_game(page, "medium")
        assert page.evaluate("() => document.documentElement.scrollHeight") <= height
        bar = page.locator(".topbar").bounding_box()
        for selector in ["#mistakes", "#hints", "#timer", "#hint", "#board", "#keyboard"]:
            box = page.locator(selector).bounding_box()
            assert box["y"] >= bar["y"] + bar["height"] - 1 and box["y"] + box["height"] <= height + 1, (selector, box)
        assert page.evaluate("() => { const b = document.querySelector('#board'); return b.scrollHeight <= b.clientHeight + 1 }")
        cell = selected_cell(page)
        page.keyboard.press(cell.get_attribute("data-cipher"))
        expect(page.locator("#mistakes")).to_have_text("1 / 3")
        page.wait_for_function(SELECTED_IN_VIEW)
    finally:
        context.close()


# Stands in for the system share sheet (headless Chromium on Linux has none): records what the page hands over.
SHARE_SHEET = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, 'share', { configurable: true, value(data) {
  window.__shared.push({ title: data.title, text: data.text, url: data.url,
    files: (data.files || []).map((f) => ({ name: f.name, type: f.type, size: f.size })) });
  return Promise.resolve();
} });
Object.defineProperty(Navigator.prototype, 'canShare', { configurable: true, value(data) { return true; } });
"""


def solve_daily(page):
    """Opens today's daily and solves it with hints; returns the game as the server sent it."""
    with page.expect_response(lambda r: r.url.endswith("/api/cryptogram/games") and r.request.method == "POST") as started:
        page.click("#play-daily")
    expect(page.locator("#game")).to_be_visible()
    solve_with_hints(page)
    expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
    body = started.value.json()
    return body.get("game", body)


def board_ciphers(page):
    return page.eval_on_selector_all("#board .cg-cell", "cells => cells.map((c) => c.dataset.cipher).join('')")


def test_share_shows_the_card_and_a_spoiler_free_message_to_copy_or_download(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        game = solve_daily(page)
        quote = page.locator("#quote-text").text_content() + " " + page.locator("#quote-attribution").text_content()
        page.click("#share-open")
        dialog = page.locator("#share-panel")
        expect(dialog).to_be_visible()
        text = page.locator("#share-text")
        expect(text).to_contain_text(f"{server}/cryptogram?daily={game['date']}")
        expect(text).to_contain_text("Daily puzzle")
        expect(text).to_contain_text("Solved in")
        words = [w.lower() for w in re.findall(r"[A-Za-z]{5,}", quote)]
        assert words and not [w for w in words if w in text.text_content().lower()], "the share gives the quote away"
        page.wait_for_function("() => { const i = document.querySelector('#share-card'); return i.complete && i.naturalWidth === 1080 }")
        assert page.get_attribute("#share-card", "alt").startswith("Share card: Cryptogram")
        download = page.locator("#share-download")
        assert download.get_attribute("download") == f"cryptogram-{game['date']}.png"
        with page.expect_download() as saved:
            download.click()
        assert saved.value.suggested_filename == f"cryptogram-{game['date']}.png"
        # Headless Chromium has no share sheet: the page offers copying instead, and the copy is the message.
        expect(page.locator("#share-native")).to_be_hidden()
        page.click("#share-copy")
        expect(page.locator("#share-status")).to_contain_text("Copied")
        assert page.evaluate("() => navigator.clipboard.readText()") == text.text_content()
        axe = pytest.importorskip("axe_playwright_python.sync_playwright")
        serious = [v for v in axe.Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, serious
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    finally:
        context.close()


def test_share_hands_the_message_link_and_picture_to_the_system_share_sheet(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        game = solve_daily(page)
        page.tap("#share-open")
        expect(page.locator("#share-native")).to_be_visible()
        # The picture is fetched when the dialog opens, so the press hands it over at once.
        page.wait_for_function("() => document.querySelector('#share-card').complete")
        page.tap("#share-native")
        expect(page.locator("#share-status")).to_have_text("Shared.")
        shared = page.evaluate("() => window.__shared")
        assert len(shared) == 1, shared
        assert shared[0]["url"] == f"{server}/cryptogram?daily={game['date']}"
        assert shared[0]["title"].startswith("Cryptogram · Daily puzzle, ") and "Solved in" in shared[0]["text"]
        assert shared[0]["files"] and shared[0]["files"][0]["type"] == "image/png" and shared[0]["files"][0]["size"] > 1000, shared
    finally:
        context.close()


def test_a_daily_link_opens_that_puzzle_for_whoever_follows_it(browser, page, server):
    open_cryptogram(page, server)
    game = solve_daily(page)
    mine = board_ciphers(page)
    friend = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        theirs = friend.new_page()
        open_cryptogram(theirs, server, f"/cryptogram?daily={game['date']}")
        expect(theirs.locator("#game")).to_be_visible()
        expect(theirs.locator("#game")).to_have_attribute("data-status", "playing")
        expect(theirs.locator("#game-title")).to_have_text("Daily puzzle")
        assert board_ciphers(theirs) == mine
        # A day that is not out yet where the friend is: the start screen says so.
        open_cryptogram(theirs, server, "/cryptogram?daily=2999-01-01")
        expect(theirs.locator("#start")).to_be_visible()
        expect(theirs.locator("#start-message")).to_contain_text("not out yet")
    finally:
        friend.close()


def test_tab_follows_the_page_order_and_leaves_the_board_in_one_step(page, server):
    """The board is one stop in the Tab order (arrows and Enter move inside it): Tab from the page starts at the
    skip link, and Tab from a cell goes on to the keys instead of walking every empty cell."""
    open_cryptogram(page, server)
    start_random(page, "medium")
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#game")).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('skip')")
    selected_cell(page).focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#keyboard') !== null"), page.evaluate("() => document.activeElement.outerHTML")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.classList.contains('is-selected')")


def test_a_phone_on_its_side_keeps_board_and_keys_in_the_window(browser, server):
    context = browser.new_context(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        start_random(page, "long")
        assert page.evaluate("() => document.documentElement.scrollHeight") <= 390
        board = page.locator("#board").bounding_box()
        keys = page.locator("#keyboard").bounding_box()
        assert board["height"] >= 200, board
        assert keys["y"] + keys["height"] <= 390 and keys["x"] >= board["x"] + board["width"], (board, keys)
        page.tap(f"#keyboard [data-key={selected_cell(page).get_attribute('data-cipher')}]")
        expect(page.locator("#mistakes")).to_have_text("1 / 3")
        page.wait_for_function(SELECTED_IN_VIEW)
        # Solved: the card scrolls inside itself, and the focused Next Puzzle is inside its visible part.
        solve_with_hints(page)
        expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
        page.wait_for_function("""() => { const b = document.querySelector('#next-puzzle').getBoundingClientRect();
          const c = document.querySelector('#complete').getBoundingClientRect();
          return document.activeElement.id === 'next-puzzle' && b.top >= c.top - 1 && b.bottom <= Math.min(c.bottom, innerHeight) + 1 }""")
    finally:
        context.close()


GAME_STATE = """async (id) => {
  const response = await fetch(`/api/cryptogram/games/${id}`, { headers: { Accept: 'application/json' } });
  return response.json();
}"""


def game_id_of(page):
    match = re.search(r"[?&]game=([0-9A-Fa-f-]+)", page.url)
    assert match, page.url
    return match.group(1)


def advance_server_clock(page, server, seconds):
    answer = page.request.post(server + "/api/test/clock", data={"advanceSeconds": seconds},
                               headers={"X-CompletionKit": "1"})
    assert answer.ok, answer.text()


def start_the_clock(page):
    """A hint starts the puzzle's clock (as the first letter does)."""
    page.click("#hint")
    expect(page.locator("#hints")).to_have_attribute("data-count", "1")
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))


def test_leaving_the_page_pauses_the_clock_and_coming_back_shows_it_paused(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    start_the_clock(page)
    game = game_id_of(page)

    # The player goes to another page: the puzzle is paused on the server as they leave …
    page.goto(server + "/")
    page.wait_for_function(f"({GAME_STATE})('{game}').then((g) => g.isPaused)", polling=100)
    # … and twenty minutes pass before they come back.
    advance_server_clock(page, server, 1200)
    page.go_back()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#paused-panel")).to_be_visible()
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:\d\d$"))
    page.click("#resume")
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))
    away = page.evaluate(GAME_STATE, game)
    assert away["elapsedSeconds"] < 60, away["elapsedSeconds"]
    # The finish card and the stats get the time without the time away.
    solve_with_hints(page)
    expect(page.locator("#complete-stats")).to_contain_text(re.compile(r"Time: 0:\d\d"))


def test_hiding_the_page_pauses_the_clock_until_the_player_is_back(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    start_the_clock(page)
    game = game_id_of(page)

    # The tab goes to the background (another tab, a phone's home screen).
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    page.wait_for_function(f"({GAME_STATE})('{game}').then((g) => g.isPaused)", polling=100)
    advance_server_clock(page, server, 1200)
    page.evaluate("""() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
      document.dispatchEvent(new Event('visibilitychange'));
    }""")
    expect(page.locator("#paused-panel")).to_be_visible()
    expect(page.locator("#message")).to_contain_text("while you were away")
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:\d\d$"))
    page.click("#resume")
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))
    expect(page.locator("#timer")).to_have_text(re.compile(r"^0:\d\d$"))


def test_a_solve_after_continue_is_finished_not_a_win(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    for count in (1, 2, 3):
        page.keyboard.press(selected_cell(page).get_attribute("data-cipher"))
        expect(page.locator("#mistakes")).to_have_attribute("data-count", str(count))
    expect(page.locator("#failed-panel")).to_be_visible()
    page.click("#continue")
    expect(page.locator("#continue-friction")).to_contain_text("finished, not a win")
    page.click("#continue-yes")
    expect(page.locator("#game")).to_have_attribute("data-status", "playing")
    solve_with_hints(page)
    expect(page.locator("#complete")).to_be_visible()
    expect(page.locator("#complete-title")).to_have_text("Finished")
    expect(page.locator("#complete-note")).to_be_visible()
    expect(page.locator("#complete-note")).to_contain_text("not a win")
    page.click("#share-open")
    expect(page.locator("#share-text")).to_contain_text("Finished in")
    expect(page.locator("#share-text")).not_to_contain_text("Solved")
    page.click("#share-close")

    open_cryptogram(page, server, "/cryptogram/stats")
    expect(page.locator("#tiles [data-stat=finished] dd")).to_contain_text("1")
    expect(page.locator("#tiles [data-stat=solved] dd")).to_have_text("0")
    expect(page.locator("#tiles [data-stat=points] dd")).to_have_text("0")
    expect(page.locator("svg.cgs-chart rect.bar.finished")).to_have_count(1)
    expect(page.locator(".cgs-legend")).to_contain_text("Finished after Continue")


def test_start_screen_says_todays_daily_is_solved_and_opens_past_dailies(page, server):
    open_cryptogram(page, server)
    expect(page.locator("#daily-next")).to_contain_text("Next daily in")
    # Unplayed: a play prompt and a play sign on the calendar, never a tick.
    expect(page.locator("#daily-status")).to_be_visible()
    expect(page.locator("#daily-status")).to_have_attribute("data-status", "unplayed")
    expect(page.locator("#daily-status")).to_contain_text("Not played yet")
    expect(page.locator("#daily-status .cg-tick")).to_have_count(0)
    expect(page.locator("#daily-icon .cg-icon-tick")).to_be_hidden()
    expect(page.locator("#daily-icon .cg-icon-play")).to_be_visible()
    expect(page.locator("#archive")).to_be_visible()
    today = page.locator("#archive-days a.is-today")
    expect(today).to_have_count(1)
    expect(today).to_have_attribute("data-status", "unplayed")

    page.click("#play-daily")
    expect(page.locator("#game-title")).to_have_text("Daily puzzle")
    solve_with_hints(page)
    expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
    # Back on the start screen (a solved puzzle is not reopened).
    open_cryptogram(page, server)
    expect(page.locator("#start")).to_be_visible()
    status = page.locator("#daily-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Solved today")
    expect(status.locator(".cg-tick")).to_be_visible()
    expect(page.locator("#daily-icon .cg-icon-tick")).to_be_visible()
    expect(page.locator("#daily-icon .cg-icon-play")).to_be_hidden()
    expect(status.locator(".cg-streak")).to_have_attribute("data-streak", "1")
    expect(status).to_contain_text("1-day streak")
    expect(page.locator("#daily-next")).to_contain_text(re.compile(r"Next daily in (\d+ h|\d+ min|under a minute)"))
    expect(page.locator("#archive-days a.is-today")).to_have_attribute("data-status", "solved")
    expect(page.locator("#archive-days a.is-today")).to_have_class(re.compile("is-on-day"))

    # Last month's dailies are a click away, each a link to its puzzle.
    month = page.locator("#archive-month").text_content()
    page.click("#archive-prev")
    expect(page.locator("#archive-month")).not_to_have_text(month)
    day = page.locator("#archive-days a.cg-day").first
    date = day.get_attribute("data-date")
    assert day.get_attribute("href") == f"/cryptogram?daily={date}"
    expect(day).to_have_attribute("data-status", "unplayed")
    day.click()
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator("#game-title")).to_have_text("Daily puzzle")
    opened = page.evaluate(GAME_STATE, game_id_of(page))
    assert opened["date"] == date and opened["mode"] == "daily", opened


def test_a_shared_daily_link_has_preview_tags_whose_links_ignore_the_host_header(page, server):
    # A request that claims another host: the preview's absolute links still name this server.
    answer = page.request.get(server + "/cryptogram?daily=2026-11-20", headers={"Host": "evil.example"})
    assert answer.ok
    html = answer.text()
    tags = dict(re.findall(r'<meta (?:property|name)="((?:og|twitter):[a-z:_]+)" content="([^"]*)">', html))
    assert tags["og:title"] == "Cryptogram · Daily puzzle, Friday 20 November 2026", tags
    assert tags["og:url"] == f"{server}/cryptogram?daily=2026-11-20", tags
    assert tags["og:image"] == f"{server}/api/cryptogram/dailies/2026-11-20/card.png", tags
    assert tags["twitter:card"] == "summary_large_image"
    assert "evil.example" not in html
    image = page.request.get(tags["og:image"])
    assert image.ok and image.headers["content-type"] == "image/png"
    assert image.body()[:8] == b"\x89PNG\r\n\x1a\n"
    # Without a daily, the page is the plain page; the link still opens the day's puzzle.
    assert "og:url" not in page.request.get(server + "/cryptogram").text()
    open_cryptogram(page, server, "/cryptogram?daily=2026-11-20")
    expect(page.locator("#game-title")).to_have_text("Daily puzzle")


def test_phone_toolbar_names_its_actions_and_reaches_the_stats(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        start_random(page, "short")
        labels = page.locator(".cg-toolbar .cg-label")
        expect(labels).to_have_count(4)
        assert [text.strip() for text in labels.all_inner_texts()] == ["Hint", "Pause", "New", "Stats"], labels.all_inner_texts()
        for index in range(4):
            expect(labels.nth(index)).to_be_visible()
            box = labels.nth(index).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] >= 8, box
        expect(page.get_by_role("button", name="New puzzle")).to_be_visible()
        # The board still starts near the top and the keys stay in the window.
        assert page.locator("#keyboard").bounding_box()["y"] + page.locator("#keyboard").bounding_box()["height"] <= 844
        page.get_by_role("link", name="Stats", exact=True).click()
        expect(page).to_have_url(re.compile(r"/cryptogram/stats$"))
    finally:
        context.close()


def test_a_tapped_key_keeps_no_hover_outline_on_a_touch_screen(browser, server):
    """A phone leaves the last tapped element "hovered", so the keys' and cells' hover looks must not apply where
    nothing hovers. (Headless Chromium does not keep a tap's hover, so the test reads the style sheet's rules and
    the touch screen's media features instead of a tap's look.)"""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_cryptogram(page, server)
        start_random(page, "short")
        rules = page.evaluate("""() => {
          const found = [];
          const walk = (list, media) => {
            for (const rule of list) {
              if (rule instanceof CSSMediaRule) walk(rule.cssRules, rule.conditionText);
              else if (rule.selectorText && /\\.cg-(key|cell)[^,]*:hover/.test(rule.selectorText)) found.push({ selector: rule.selectorText, media });
            }
          };
          for (const sheet of document.styleSheets) if ((sheet.href || '').endsWith('/css/cryptogram.css')) walk(sheet.cssRules, null);
          return found;
        }""")
        assert len(rules) >= 2, rules
        for rule in rules:
            assert rule["media"] and "hover: hover" in rule["media"], rule
            assert not page.evaluate("(media) => matchMedia(media).matches", rule["media"]), rule
        # A tap still types.
        cipher = selected_cell(page).get_attribute("data-cipher")
        page.tap(f"#keyboard [data-key={cipher}]")
        expect(page.locator("#mistakes")).to_have_text("1 / 3")
    finally:
        context.close()


def test_the_calm_switch_shows_the_systems_reduced_motion(reduced_page, server):
    open_cryptogram(reduced_page, server)
    calm = reduced_page.locator("#calm")
    expect(calm).to_be_checked()
    expect(calm).to_be_disabled()
    expect(reduced_page.locator("#calm-help")).to_contain_text("reduced motion")
    open_cryptogram(reduced_page, server, "/cryptogram/stats")
    expect(reduced_page.locator("#calm")).to_be_checked()


def test_the_calm_switch_is_off_and_free_without_reduced_motion(page, server):
    open_cryptogram(page, server)
    expect(page.locator("#calm")).not_to_be_checked()
    expect(page.locator("#calm")).to_be_enabled()


def test_closing_a_second_tab_of_the_same_puzzle_does_not_pause_it_under_the_first(page, server):
    open_cryptogram(page, server)
    start_random(page, "short")
    start_the_clock(page)
    game = game_id_of(page)

    # A second window shows the same puzzle beside the first (both on screen).
    pauses = []
    page.context.on("request", lambda request: pauses.append(request.url) if request.url.endswith("/pause") else None)
    second = page.context.new_page()
    open_cryptogram(second, server, page.url.replace(server, ""))
    assert game_id_of(second) == game
    expect(second.locator("html")).to_have_attribute("data-other-tabs", "1")

    # Closing it leaves the player playing in the first: nothing is paused there.
    second.close(run_before_unload=True)
    page.click("#hint")
    expect(page.locator("#hints")).to_have_attribute("data-count", "2")
    assert pauses == [], pauses
    assert not page.evaluate(GAME_STATE, game)["isPaused"]
    expect(page.locator("#timer")).to_have_class(re.compile("is-running"))
    expect(page.locator("#paused-panel")).to_be_hidden()
