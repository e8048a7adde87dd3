"""Waldabenteuer (/kids): Puzzle Matching ("Puzzle", behind the Rätsel sign) through the real page.

The child reads the ZIEL grid and copies it into the DU grid; the tests do the same, reading the ZIEL cells'
data attributes (what the page drew from the server's view). The page judges nothing: the live check, the
coin and the next level all come from the server. No sleeps: every wait is on the page's state.
"""
import pathlib
import re

import pytest
from playwright.sync_api import expect

from test_kids import celebrate_and_continue, choose_player, main, wait_for_next_level

SIZES = [{"width": 390, "height": 844}, {"width": 1194, "height": 834}, {"width": 1280, "height": 800}]
SIZE_IDS = ["phone", "tablet", "laptop"]
SHOTS = pathlib.Path("/tmp/puzzle-shots")

BOXES = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.getClientRects().length)
  .map((e) => { const r = e.getBoundingClientRect();
    return { name: e.dataset.testid || e.dataset.tool || e.dataset.cell || e.className,
             left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; })"""


# MARK: Helpers

def stage(page):
    return page.locator("[data-testid=puzzle]")


def du_cell(page, index):
    return page.locator(f"[data-testid=puzzle-cells] .puzzle-cell[data-cell='{index}']")


def ziel(page):
    """The ZIEL grid as the page shows it: a leaf id (or "") per cell, row by row."""
    return page.eval_on_selector_all("[data-testid=puzzle-target] .puzzle-cell", "cells => cells.map(c => c.dataset.leaf)")


def du(page):
    return page.eval_on_selector_all("[data-testid=puzzle-cells] .puzzle-cell", "cells => cells.map(c => c.dataset.leaf)")


def offered(page):
    return page.eval_on_selector_all("[data-testid=puzzle-colour]", "buttons => buttons.map(b => b.dataset.tool)")


def open_puzzle(page):
    page.click("[data-testid=sign][data-activity=raetsel]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=game-card][data-game=puzzleMatching]")
    expect(main(page)).to_have_attribute("data-screen", "playing")
    expect(page.locator(".screen-activity")).to_have_attribute("data-game", "puzzleMatching")
    expect(stage(page)).to_be_visible()
    expect(du_cell(page, 0)).to_be_enabled()


def pick(page, tool):
    """Takes a leaf colour (or "eraser") in hand."""
    button = page.locator(f"[data-testid=puzzle] button[data-tool='{tool}']")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(stage(page)).to_have_attribute("data-tool", tool)


def paint(page, index, colour):
    if stage(page).get_attribute("data-tool") != colour:
        pick(page, colour)
    du_cell(page, index).click()


def copy_ziel(page, level, coins_after):
    """Copies the ZIEL grid cell by cell (each leaf seen on the DU grid before the next), then waits for the coin."""
    wait_for_next_level(page, level)
    expect(du_cell(page, 0)).to_be_enabled()
    target = ziel(page)
    assert any(target), target
    filled = [index for index, leaf in enumerate(target) if leaf]
    for position, index in enumerate(filled):
        paint(page, index, target[index])
        if position < len(filled) - 1:
            expect(du_cell(page, index)).to_have_attribute("data-leaf", target[index])
            expect(du_cell(page, index)).to_have_attribute("data-match", "true")
    expect(main(page)).to_have_attribute("data-coins", str(coins_after))


# MARK: Playing

def test_a_child_copies_the_pattern_and_earns_the_coin(page, server):
    choose_player(page, server)
    open_puzzle(page)
    expect(page.locator(".puzzle-target h2")).to_have_text("ZIEL")
    expect(page.locator(".puzzle-mine h2")).to_have_text("DU")
    size = int(stage(page).get_attribute("data-size"))
    assert size == 3, size
    expect(page.locator("[data-testid=puzzle-target] .puzzle-cell")).to_have_count(size * size)
    expect(page.locator("[data-testid=puzzle-cells] .puzzle-cell")).to_have_count(size * size)
    target = ziel(page)
    assert du(page) == [""] * (size * size)
    leaves = offered(page)
    assert len(leaves) >= 2 and set(filter(None, target)) <= set(leaves), (leaves, target)
    # The first colour is in hand at the start; the cells say what they hold.
    expect(stage(page)).to_have_attribute("data-tool", leaves[0])
    expect(page.locator(f"[data-testid=puzzle-colour][data-tool='{leaves[0]}']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-testid=puzzle-eraser]")).to_have_attribute("aria-pressed", "false")
    expect(du_cell(page, 1)).to_have_attribute("aria-label", "Reihe 1, Feld 2: leer")

    filled = [index for index, leaf in enumerate(target) if leaf]
    first, second = filled[0], filled[1]

    # A leaf of another colour: no match, and nothing that says wrong.
    other = next(leaf for leaf in leaves if leaf != target[first])
    paint(page, first, other)
    cell = du_cell(page, first)
    expect(cell).to_have_attribute("data-leaf", other)
    expect(cell).to_have_attribute("data-match", "false")
    expect(cell).not_to_have_class("is-match")
    label = page.locator(f"[data-testid=puzzle-colour][data-tool='{other}']").get_attribute("title")
    row, column = first // size + 1, first % size + 1
    expect(cell).to_have_attribute("aria-label", f"Reihe {row}, Feld {column}: {label}")
    assert "204, 0, 0" not in cell.evaluate("el => getComputedStyle(el).borderColor + getComputedStyle(el).boxShadow")
    expect(main(page)).to_have_attribute("data-coins", "0")

    # The right colour on another cell: it matches, softly.
    paint(page, second, target[second])
    expect(du_cell(page, second)).to_have_attribute("data-match", "true")
    expect(du_cell(page, second)).to_have_class("puzzle-cell is-match")

    # The eraser empties the cell in the wrong colour.
    pick(page, "eraser")
    expect(page.locator(f"[data-testid=puzzle-colour][data-tool='{leaves[0]}']")).to_have_attribute("aria-pressed", "false")
    cell.click()
    expect(cell).to_have_attribute("data-leaf", "")
    expect(cell).to_have_attribute("aria-label", f"Reihe {row}, Feld {column}: leer")
    expect(stage(page)).to_have_attribute("data-filled", "1")

    # Reset asks first: "Nein, weiterspielen" keeps the leaves, "Neu anfangen" clears them.
    page.click("[data-testid=puzzle-reset]")
    dialog = page.locator("[data-testid=confirm]")
    expect(dialog).to_be_visible()
    expect(page.locator("[data-testid=confirm-no]")).to_have_text("Nein, weiterspielen")
    expect(dialog.locator(".dialog-title")).to_have_text("Neu anfangen?")
    expect(dialog.locator(".dialog-text")).to_have_text("Alle Blätter kommen weg.")
    expect(page.locator("[data-testid=confirm-yes]")).to_have_text("Neu anfangen")
    page.click("[data-testid=confirm-no]")
    expect(dialog).to_have_count(0)
    expect(du_cell(page, second)).to_have_attribute("data-leaf", target[second])
    page.click("[data-testid=puzzle-reset]")
    page.click("[data-testid=confirm-yes]")
    expect(dialog).to_have_count(0)
    expect(stage(page)).to_have_attribute("data-filled", "0")
    assert du(page) == [""] * (size * size)

    # Copying ZIEL earns the coin; the next level starts empty, with the first colour in hand again.
    copy_ziel(page, 1, 1)
    expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("data-filled", "1")
    wait_for_next_level(page, 2)
    expect(stage(page)).to_have_attribute("data-level", "2")
    expect(stage(page)).to_have_attribute("data-filled", "0")
    expect(stage(page)).to_have_attribute("data-tool", offered(page)[0])
    assert du(page) == [""] * (int(stage(page).get_attribute("data-size")) ** 2)


def test_five_puzzles_bring_the_celebration(page, server):
    choose_player(page, server)
    open_puzzle(page)
    for coins in range(1, 6):
        copy_ziel(page, coins, coins)
        if coins < 5:
            expect(page.locator("[data-testid=celebration]")).to_be_hidden()
    celebrate_and_continue(page, 5)
    wait_for_next_level(page, 6)
    expect(du_cell(page, 0)).to_be_enabled()
    assert du(page) == [""] * (int(stage(page).get_attribute("data-size")) ** 2)


def test_the_grid_is_kept_between_answers(page, server):
    """A tap changes one cell: the grid's buttons stay the same elements (nothing is rebuilt, nothing flickers)."""
    choose_player(page, server)
    open_puzzle(page)
    page.evaluate("() => { window.__cell = document.querySelector(\"[data-testid=puzzle-cells] [data-cell='0']\"); }")
    target = ziel(page)
    empty = next(index for index, leaf in enumerate(target) if not leaf)
    paint(page, empty, offered(page)[0])
    expect(du_cell(page, empty)).to_have_attribute("data-leaf", offered(page)[0])
    # An extra leaf where ZIEL has none: no match.
    expect(du_cell(page, empty)).to_have_attribute("data-match", "false")
    assert page.evaluate("() => window.__cell === document.querySelector(\"[data-testid=puzzle-cells] [data-cell='0']\")")


def test_the_third_wrong_leaf_brings_a_hint(page, server):
    """Phase 12's hint: after the third wrong leaf in a level, the first cell still missing its leaf glows gold
    in DU and in ZIEL while Bennie points at it; the glow goes after the server's few seconds."""
    choose_player(page, server)
    open_puzzle(page)
    target = ziel(page)
    empty = [index for index, leaf in enumerate(target) if not leaf]
    missing = next(index for index, leaf in enumerate(target) if leaf)
    colour = offered(page)[0]
    for index in empty[:2]:
        paint(page, index, colour)
        expect(du_cell(page, index)).to_have_attribute("data-leaf", colour)
    expect(page.locator(".puzzle-cell.is-hint")).to_have_count(0)
    paint(page, empty[2], colour)
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", "Schau mal, hier!")
    expect(du_cell(page, missing)).to_have_class(re.compile(r"\bis-hint\b"))
    expect(page.locator(f"[data-testid=puzzle-target] .puzzle-cell[data-cell='{missing}']")).to_have_class(re.compile(r"\bis-hint\b"))
    expect(page.locator(".puzzle-cell.is-hint")).to_have_count(0, timeout=10000)


def test_a_second_tab_joins_the_puzzle_in_play(page, server):
    """A parent opens the game in another tab while the child plays: the new tab shows the same level, and the
    child's first tab plays on (its leaves stay, its next tap lands). A reload is a launch again."""
    choose_player(page, server)
    open_puzzle(page)
    target = ziel(page)
    filled = [index for index, leaf in enumerate(target) if leaf]
    paint(page, filled[0], target[filled[0]])
    expect(du_cell(page, filled[0])).to_have_attribute("data-match", "true")

    second = page.context.new_page()
    second.goto(server + "/kids")
    expect(main(second)).to_have_attribute("data-ready", "true", timeout=15000)
    expect(main(second)).to_have_attribute("data-screen", "playing")
    expect(second.locator(".screen-activity")).to_have_attribute("data-game", "puzzleMatching")
    expect(second.locator(f"[data-testid=puzzle-cells] .puzzle-cell[data-cell='{filled[0]}']")).to_have_attribute("data-leaf", target[filled[0]])
    second.close()

    page.bring_to_front()
    expect(main(page)).to_have_attribute("data-screen", "playing")
    if len(filled) > 1:
        paint(page, filled[1], target[filled[1]])
        expect(du_cell(page, filled[1])).to_have_attribute("data-match", "true")
    expect(du_cell(page, filled[0])).to_have_attribute("data-match", "true")

    page.reload()
    expect(main(page)).to_have_attribute("data-screen", "playerSelection", timeout=20000)


# MARK: Sizes, screenshots, accessibility

@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_puzzle_fits_every_screen(browser, server, size):
    phone = size["width"] < 600
    context = browser.new_context(viewport=size, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        choose_player(page, server)
        open_puzzle(page)
        page.wait_for_function("() => document.querySelectorAll('#stage > .screen').length === 1")
        assert page.evaluate("() => scrollY === 0 && document.documentElement.scrollWidth <= innerWidth + 1")
        targets = page.evaluate(BOXES, "[data-testid=puzzle] .puzzle-tool")
        assert len(targets) >= 4, targets
        assert all(box["width"] >= 96 and box["height"] >= 96 for box in targets), targets
        cells = page.evaluate(BOXES, "[data-testid=puzzle-cells] .puzzle-cell")
        assert all(box["width"] >= 96 and box["height"] >= 96 for box in cells), cells
        # The page told the server how large a grid this screen holds with 96 px cells (3 on a phone, 6 on a
        # tablet or laptop), and a grid that large would indeed get cells of 96 px or more.
        fits = int(main(page).get_attribute("data-puzzle-room"))
        assert fits == (3 if phone else 6), fits
        expect(main(page)).to_have_attribute("data-puzzle-room", str(fits))
        page.wait_for_function("(fits) => fetch('/api/kids/state').then((r) => r.json()).then((b) => b.view.largestPuzzleGrid === fits)", arg=fits)
        page.evaluate("(n) => document.querySelector('[data-testid=puzzle]').style.setProperty('--n', String(n)) || document.querySelector('[data-testid=puzzle-cells]').style.setProperty('--n', String(n))", fits)
        widest = page.evaluate(BOXES, "[data-testid=puzzle-cells] .puzzle-cell")
        assert all(box["width"] >= 96 for box in widest[:fits]), widest
        page.evaluate("() => { for (const e of document.querySelectorAll('[data-testid=puzzle], [data-testid=puzzle-cells]')) e.style.setProperty('--n', '3'); }")
        # Everything is in the window, without scrolling.
        parts = page.evaluate(BOXES, "[data-testid=puzzle-target], [data-testid=puzzle-cells], [data-testid=puzzle] .puzzle-tool")
        outside = [box for box in parts if box["top"] < 0 or box["left"] < 0
                   or box["bottom"] > size["height"] or box["right"] > size["width"]]
        assert not outside, outside
        # Nothing lies on top of anything else.
        boxes = page.evaluate(BOXES, "[data-testid=puzzle-target], [data-testid=puzzle-cells], [data-testid=puzzle] .puzzle-tool, .top-bar button, .coin-bar")
        overlaps = [(a["name"], b["name"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                    if a["left"] < b["right"] - 1 and b["left"] < a["right"] - 1 and a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1]
        assert not overlaps, overlaps
        # ZIEL beside DU on tablet and laptop; stacked (ZIEL smaller, above) on a phone.
        zbox = page.locator("[data-testid=puzzle-target]").bounding_box()
        dbox = page.locator("[data-testid=puzzle-cells]").bounding_box()
        assert zbox["width"] < dbox["width"], (zbox, dbox)
        if phone:
            assert zbox["y"] + zbox["height"] <= dbox["y"], (zbox, dbox)
        else:
            assert zbox["x"] + zbox["width"] <= dbox["x"], (zbox, dbox)

        # A couple of leaves (one right, one where ZIEL has none), so the picture shows the live check.
        target = ziel(page)
        right = next(index for index, leaf in enumerate(target) if leaf)
        paint(page, right, target[right])
        expect(du_cell(page, right)).to_have_attribute("data-match", "true")
        spare = next(index for index, leaf in enumerate(target) if not leaf)
        paint(page, spare, offered(page)[-1])
        expect(du_cell(page, spare)).to_have_attribute("data-leaf", offered(page)[-1])
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"puzzle-{size['width']}x{size['height']}.png"))
        page.click("[data-testid=puzzle-reset]")
        expect(page.locator("[data-testid=confirm]")).to_be_visible()
        buttons = page.evaluate(BOXES, "[data-testid=confirm] button")
        assert all(box["width"] >= 96 and box["height"] >= 96 for box in buttons), buttons
        page.screenshot(path=str(SHOTS / f"puzzle-{size['width']}x{size['height']}-reset.png"))
        page.click("[data-testid=confirm-no]")
    finally:
        context.close()
    assert not errors, errors


def test_reduced_motion_draws_the_puzzle_without_animations(reduced_page, server):
    page = reduced_page
    choose_player(page, server)
    expect(main(page)).to_have_attribute("data-motion", "reduced")
    open_puzzle(page)
    target = ziel(page)
    index = next(i for i, leaf in enumerate(target) if leaf)
    paint(page, index, target[index])
    expect(du_cell(page, index)).to_have_attribute("data-match", "true")
    running = page.evaluate("""() => document.getAnimations()
      .filter((a) => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.closest('[data-testid=puzzle]')).length""")
    assert running == 0
    assert du_cell(page, index).evaluate("el => getComputedStyle(el.querySelector('.leaf')).transitionDuration") == "0s"


def test_no_serious_accessibility_problems_on_the_puzzle(page, server):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    axe = axe_module.Axe()
    choose_player(page, server)
    open_puzzle(page)
    target = ziel(page)
    index = next(i for i, leaf in enumerate(target) if leaf)
    paint(page, index, target[index])
    expect(du_cell(page, index)).to_have_attribute("data-match", "true")
    found = {}

    def check(name):
        page.wait_for_function("() => document.querySelectorAll('#stage > .screen').length === 1")
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)")
        results = axe.run(page)
        found[name] = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:4])
                       for v in results.response["violations"] if v["impact"] in ("serious", "critical")]

    check("puzzle")
    pick(page, "eraser")
    check("puzzle (eraser)")
    page.click("[data-testid=puzzle-reset]")
    expect(page.locator("[data-testid=confirm]")).to_be_visible()
    check("puzzle (reset question)")
    page.click("[data-testid=confirm-no]")
    problems = {name: issues for name, issues in found.items() if issues}
    assert not problems, problems
