"""Waldabenteuer (/kids): the Labyrinth (behind the Rätsel sign) through the real page.

The child puts a finger on START and drags it along the stone path to ZIEL. The tests read the maze the server
sent (its answer is public to the page anyway), find the one way through with a breadth-first search over
the stone paths, and drag the mouse along it, mapping maze points to the screen from the maze picture's box.
The page judges nothing: leaving the path, the coin and the next level all come from the server. No sleeps:
every wait is on the page's state.
"""
import math
import pathlib
import re
from collections import deque

import pytest
from playwright.sync_api import expect

from test_kids import choose_player, kids_state, main, wait_for_next_level

SIZES = [{"width": 390, "height": 844}, {"width": 1194, "height": 834}, {"width": 1280, "height": 800}]
SIZE_IDS = ["phone", "tablet", "laptop"]
SHOTS = pathlib.Path("/tmp/labyrinth-shots")
OFF_PATH = "Da komme ich nicht durch."


# MARK: Helpers

def board(page):
    return page.locator("[data-testid=labyrinth]")


def open_labyrinth(page):
    page.click("[data-testid=sign][data-activity=raetsel]")
    expect(main(page)).to_have_attribute("data-screen", "activitySelection")
    page.click("[data-testid=game-card][data-game=labyrinth]")
    expect(main(page)).to_have_attribute("data-screen", "playing")
    expect(page.locator(".screen-activity")).to_have_attribute("data-game", "labyrinth")
    expect(board(page)).to_be_visible()
    expect(board(page)).to_have_attribute("data-disabled", "false")


def maze_of(page, server):
    view = kids_state(page, server)
    assert view["level"]["game"] == "labyrinth", view["level"]
    return view["level"]["labyrinth"]


def way_through(maze):
    """The cell middles from START to ZIEL: a breadth-first search over the stone paths."""
    def key(point):
        return (round(point[0], 3), round(point[1], 3))

    links = {}
    for x1, y1, x2, y2 in maze["segments"]:
        a, b = key((x1, y1)), key((x2, y2))
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    start, goal = key(maze["start"]), key(maze["goal"])
    previous = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == goal:
            break
        for there in links.get(here, []):
            if there not in previous:
                previous[there] = here
                queue.append(there)
    assert goal in previous, "the maze has no way from START to ZIEL"
    way = [goal]
    while previous[way[-1]] is not None:
        way.append(previous[way[-1]])
    return list(reversed(way))


def distance_to_path(maze, point):
    px, py = point
    best = math.inf
    for x1, y1, x2, y2 in maze["segments"]:
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        t = 0 if length == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length))
        best = min(best, math.hypot(px - (x1 + t * dx), py - (y1 + t * dy)))
    return best


def off_path_point(maze):
    """A point of the forest floor well away from every stone path, as near START as there is one."""
    sx, sy = maze["start"]
    candidates = [(x, y) for x in range(10, int(maze["width"]), 10) for y in range(10, int(maze["height"]), 10)
                  if distance_to_path(maze, (x, y)) > maze["tolerance"] + 25
                  and math.hypot(x - sx, y - sy) > maze["startRadius"] + 25]
    assert candidates
    return min(candidates, key=lambda p: math.hypot(p[0] - sx, p[1] - sy))


def to_screen(page, maze):
    """Maze point → page point, from the maze picture's box (turned a quarter when the page stands it upright)."""
    svg = page.locator("[data-testid=labyrinth] svg")
    box = svg.bounding_box()
    rotated = board(page).get_attribute("data-rotated") == "true"
    width, height = maze["width"], maze["height"]
    if rotated:
        scale = box["width"] / height
        return lambda p: (box["x"] + (height - p[1]) * scale, box["y"] + p[0] * scale)
    scale = box["width"] / width
    return lambda p: (box["x"] + p[0] * scale, box["y"] + p[1] * scale)


def drag(page, maze, points):
    """One finger trace: down on the first point, along the others, up on the last."""
    screen = to_screen(page, maze)
    x, y = screen(points[0])
    page.mouse.move(x, y)
    page.mouse.down()
    for previous, point in zip(points, points[1:]):
        (ax, ay), (bx, by) = screen(previous), screen(point)
        page.mouse.move(bx, by, steps=max(2, int(math.hypot(bx - ax, by - ay) / 12)))
    page.mouse.up()


def solve(page, server, coins_after):
    maze = maze_of(page, server)
    drag(page, maze, way_through(maze))
    expect(main(page)).to_have_attribute("data-coins", str(coins_after))
    expect(page.locator("[data-testid=coin-bar]")).to_have_attribute("data-coins", str(coins_after))


# MARK: Playing

def test_following_the_stone_path_to_ziel_earns_a_coin_and_the_next_level(page, server):
    choose_player(page, server)
    open_labyrinth(page)
    expect(page.locator(".screen-activity")).to_have_attribute("data-level", "1")
    svg = page.locator("[data-testid=labyrinth] svg")
    expect(svg).to_have_attribute("role", "img")
    expect(svg).to_have_attribute("aria-label", "Labyrinth: Fahre mit dem Finger vom Start zum Ziel")
    expect(page.locator(".labyrinth-start-text")).to_have_text("START")
    expect(page.locator(".labyrinth-sign-text")).to_have_text("ZIEL")
    maze = maze_of(page, server)
    # Every stone path is drawn as wide as the corridor the server allows.
    expect(page.locator(".labyrinth-path")).to_have_attribute("stroke-width", str(maze["tolerance"] * 2).removesuffix(".0"))

    solve(page, server, 1)
    expect(main(page)).to_have_attribute("data-screen", "levelComplete")
    wait_for_next_level(page, 2)
    expect(board(page)).to_have_attribute("data-level", "2")
    expect(board(page)).to_have_attribute("data-state", "ready")
    solve(page, server, 2)
    wait_for_next_level(page, 3)


def test_leaving_the_path_clears_the_line_and_bennie_says_so_then_the_child_tries_again(page, server):
    choose_player(page, server)
    open_labyrinth(page)
    maze = maze_of(page, server)
    page.evaluate("() => { window.__mazeSvg = document.querySelector('[data-testid=labyrinth] svg'); }")

    drag(page, maze, [maze["start"], off_path_point(maze)])
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", OFF_PATH)
    expect(board(page)).to_have_attribute("data-state", "cleared")
    expect(page.locator(".labyrinth-trace:not(.is-fading)")).to_have_attribute("points", "")
    expect(main(page)).to_have_attribute("data-coins", "0")
    expect(main(page)).to_have_attribute("data-screen", "playing")
    # Same level, same maze: the page kept the drawing it had (no rebuild for an answer that changed nothing).
    assert kids_state(page, server)["level"]["labyrinth"] == maze
    assert page.evaluate("() => window.__mazeSvg === document.querySelector('[data-testid=labyrinth] svg')")

    # Not starting at START is no step along the path either: the line clears again, no coin.
    goal = maze["goal"]
    way = way_through(maze)
    assert len(way) >= 4, way  # START in the left column, ZIEL in the right one
    drag(page, maze, [way[-2], goal])
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", "Wo ist der Anfang?")
    expect(board(page)).to_have_attribute("data-state", "cleared")
    expect(main(page)).to_have_attribute("data-coins", "0")

    solve(page, server, 1)
    wait_for_next_level(page, 2)


def test_a_short_stroke_on_the_path_gets_a_kind_word_instead_of_silence(page, server):
    """Lifting the finger on the path before ZIEL costs nothing; the line goes, and Bennie encourages the child
    to go on from START (it once went without a word or a sign)."""
    choose_player(page, server)
    open_labyrinth(page)
    maze = maze_of(page, server)
    way = way_through(maze)
    drag(page, maze, way[:2])
    speech = page.locator("[data-testid=speech]")
    expect(speech).to_have_attribute("data-line", "Weiter so! Vom Start bis zum Ziel.")
    expect(speech).to_be_visible()
    expect(board(page)).to_have_attribute("data-state", "cleared")
    expect(main(page)).to_have_attribute("data-coins", "0")
    line = speech.get_attribute("data-line")
    assert not re.search(r"falsch|fehler", line, re.IGNORECASE), line
    assert all(len(sentence.split()) <= 7 for sentence in re.split(r"[.!?]", line) if sentence.strip()), line
    solve(page, server, 1)


def test_the_third_miss_shows_the_way_for_a_moment(page, server):
    """Phase 12's hint: after the third miss in a level Bennie shows the way through as golden footsteps,
    START to ZIEL, and they go again after the server's few seconds."""
    choose_player(page, server)
    open_labyrinth(page)
    maze = maze_of(page, server)
    for _ in range(2):
        drag(page, maze, [maze["start"], off_path_point(maze)])
        expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", OFF_PATH)
        expect(board(page)).to_have_attribute("data-state", "cleared")
    expect(page.locator(".labyrinth-way")).to_have_count(0)
    drag(page, maze, [maze["start"], off_path_point(maze)])
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", "Ich zeige dir den Weg.")
    expect(board(page)).to_have_attribute("data-hint", "way")
    way = page.locator(".labyrinth-way")
    expect(way).to_have_count(1)
    drawn = way.get_attribute("points").split(" ")
    assert len(drawn) == len(way_through(maze)), (drawn, way_through(maze))
    expect(page.locator(".labyrinth-way")).to_have_count(0, timeout=10000)
    expect(main(page)).to_have_attribute("data-coins", "0")


def test_with_reduced_motion_the_line_goes_at_once(reduced_page, server):
    page = reduced_page
    choose_player(page, server)
    expect(main(page)).to_have_attribute("data-motion", "reduced")
    open_labyrinth(page)
    maze = maze_of(page, server)
    page.evaluate("""() => { window.__fading = 0; new MutationObserver((records) => { for (const r of records)
      for (const n of r.addedNodes) if (n.classList && n.classList.contains('is-fading')) window.__fading += 1; })
      .observe(document.querySelector('.labyrinth-traces'), { childList: true }); }""")
    drag(page, maze, [maze["start"], off_path_point(maze)])
    expect(page.locator("[data-testid=speech]")).to_have_attribute("data-line", OFF_PATH)
    expect(board(page)).to_have_attribute("data-state", "cleared")
    expect(page.locator(".labyrinth-trace")).to_have_count(1)
    expect(page.locator(".labyrinth-trace")).to_have_attribute("points", "")
    assert page.evaluate("window.__fading") == 0


def test_a_long_trace_is_thinned_to_what_the_server_takes(page, server):
    choose_player(page, server)
    open_labyrinth(page)
    maze = maze_of(page, server)
    # Up and down the first path many times, then on to ZIEL: far more than 4,000 points in one trace. The
    # pointer events go to the maze in the page itself (thousands of mouse moves would only make it slow).
    way = way_through(maze)
    (ax, ay), (bx, by) = way[0], way[1]
    to_and_fro = []
    for _ in range(30):
        to_and_fro += [(ax + (bx - ax) * i / 100, ay + (by - ay) * i / 100) for i in range(101)]
        to_and_fro += [(bx + (ax - bx) * i / 100, by + (ay - by) * i / 100) for i in range(101)]
    for here, there in zip(way, way[1:]):
        to_and_fro += [(here[0] + (there[0] - here[0]) * i / 20, here[1] + (there[1] - here[1]) * i / 20) for i in range(21)]
    assert len(to_and_fro) > 6000
    screen = to_screen(page, maze)
    page.evaluate("""(points) => {
      const svg = document.querySelector('[data-testid=labyrinth] svg');
      const event = (type, [x, y]) => svg.dispatchEvent(new PointerEvent(type, {
        pointerId: 7, pointerType: 'touch', isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true }));
      event('pointerdown', points[0]);
      for (const point of points.slice(1)) event('pointermove', point);
      event('pointerup', points[points.length - 1]);
    }""", [screen(point) for point in to_and_fro])
    expect(main(page)).to_have_attribute("data-coins", "1")
    assert board(page).get_attribute("data-points") == "4000"


# MARK: Sizes, pictures, accessibility

@pytest.mark.parametrize("viewport", SIZES, ids=SIZE_IDS)
def test_the_whole_maze_fits_without_scrolling(browser, server, viewport):
    phone = viewport["width"] < 600
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        choose_player(page, server)
        open_labyrinth(page)
        # The selection screen has faded out and the fonts are there: the picture is what the child sees.
        page.wait_for_function("() => document.fonts.status === 'loaded' && !document.querySelector('.screen.is-leaving')")
        fits = page.evaluate("""() => {
          const r = document.querySelector('[data-testid=labyrinth] svg').getBoundingClientRect();
          return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
                   innerWidth, innerHeight, scrollY, scrollWidth: document.documentElement.scrollWidth };
        }""")
        assert fits["scrollY"] == 0, fits
        assert fits["left"] >= 0 and fits["top"] >= 0, fits
        assert fits["right"] <= fits["innerWidth"] and fits["bottom"] <= fits["innerHeight"], fits
        assert fits["scrollWidth"] <= fits["innerWidth"] + 1, fits
        # Big and clear: the maze uses most of the screen's width or height.
        assert fits["width"] >= 0.85 * (viewport["width"] - 40) or fits["height"] >= 0.6 * viewport["height"], fits
        # START is a 96 px target: on this level, and at this screen's scale for the hardest tolerance too
        # (the smallest cells: 5 × 4 of the 800 × 560 maze space; START's radius is 0.6 of a cell).
        start_px = int(board(page).get_attribute("data-start-px"))
        assert start_px >= 96, start_px
        scale = start_px / (2 * maze_of(page, server)["startRadius"])
        assert 2 * 0.6 * min(800 / 5, 560 / 4) * scale >= 96, scale
        # START, a stone a little wider than its cell, lies inside the wooden frame (it once hung over it), and
        # the frame itself fits the screen.
        inside = page.evaluate("""() => {
          const stone = document.querySelector('.labyrinth-start').getBoundingClientRect();
          const frame = document.querySelector('[data-testid=labyrinth-frame]').getBoundingClientRect();
          return { stone: [stone.left, stone.top, stone.right, stone.bottom], frame: [frame.left, frame.top, frame.right, frame.bottom] };
        }""")
        stone, frame = inside["stone"], inside["frame"]
        assert stone[0] >= frame[0] - 0.5 and stone[1] >= frame[1] - 0.5, inside
        assert stone[2] <= frame[2] + 0.5 and stone[3] <= frame[3] + 0.5, inside
        assert frame[0] >= 0 and frame[1] >= 0 and frame[2] <= viewport["width"] and frame[3] <= viewport["height"], inside
        # The buttons of the top bar stay where they were, above the maze.
        home = page.locator(".screen-activity [data-testid=home-button]").bounding_box()
        assert home["y"] + home["height"] <= fits["top"] + 1, (home, fits)
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = f"{viewport['width']}x{viewport['height']}"
        page.screenshot(path=str(SHOTS / f"labyrinth-{name}.png"))

        # The line over the path while the finger moves, in the same picture.
        maze = maze_of(page, server)
        way = way_through(maze)
        screen = to_screen(page, maze)
        page.mouse.move(*screen(way[0]))
        page.mouse.down()
        for point in way[1:3]:
            page.mouse.move(*screen(point), steps=8)
        expect(board(page)).to_have_attribute("data-state", "tracing")
        page.screenshot(path=str(SHOTS / f"labyrinth-{name}-tracing.png"))
        for point in way[3:]:
            page.mouse.move(*screen(point), steps=8)
        page.mouse.up()
        expect(main(page)).to_have_attribute("data-coins", "1")
        wait_for_next_level(page, 2)
        page.screenshot(path=str(SHOTS / f"labyrinth-{name}-level-2.png"))
    finally:
        context.close()
    assert not errors, errors


def test_no_serious_accessibility_problems_on_the_labyrinth(page, server):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    choose_player(page, server)
    open_labyrinth(page)
    results = axe_module.Axe().run(page)
    serious = [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:4])
               for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert not serious, serious
    # The maze takes no keyboard focus: Tab goes on through the page's buttons and never sticks in the maze.
    for _ in range(4):
        page.keyboard.press("Tab")
        assert page.evaluate("() => !document.activeElement.closest('[data-testid=labyrinth]')")
