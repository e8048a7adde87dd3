"""Projects in the browser: several tasks selected with the keyboard, completed or moved in one request."""
import json
import os
import pathlib
import uuid

import pytest

from test_projects import open_projects, start, wait_for_ring

LIST = "# Garden\n- Seeds\n- Dig\n- Water\n- Weed\n# Shed\n- Oil the saw\n"
SHOTS = pathlib.Path(os.environ.get("SCREENSHOT_DIR", "/tmp/ck-shots"))


def rows(page):
    return page.locator("[data-testid=task-row] [data-testid=task-title]").all_inner_texts()


def open_garden(page, garden):
    page.locator(f"[data-testid=project-row][data-project-id='{garden['id']}']").click()
    page.locator("[data-testid=task-row]").first.wait_for()


def test_select_three_with_the_keyboard_complete_them_and_move_two(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        garden, tasks = start(context, server, LIST)
        shed = next(p for p in context.request.get(f"{server}/api/projects").json()["projects"] if p["name"] == "Shed")
        first = open_projects(context, server)
        second = open_projects(context, server)
        open_garden(first, garden)
        batches = []
        first.on("request", lambda request: batches.append(request) if "/api/tasks/batch" in request.url else None)

        # s selects the row under the cursor; j moves on; the bar counts and is announced.
        first.locator("[data-testid=task-row]").first.focus()
        first.keyboard.press("s")
        first.keyboard.press("j")
        first.keyboard.press("j")
        first.keyboard.press("Shift+S")  # Seeds to Water
        bar = first.locator("[data-testid=pick-bar]")
        bar.wait_for()
        assert first.locator("[data-testid=pick-count]").inner_text() == "3 selected"
        first.wait_for_function("() => document.querySelector('#announcer').textContent.includes('3 tasks selected')")
        picked = first.locator("[data-testid=task-row][data-picked=true] [data-testid=task-title]").all_inner_texts()
        assert picked == ["Seeds", "Dig", "Water"]

        # Esc clears; select again and complete from the bar with the keyboard.
        first.keyboard.press("Escape")
        bar.wait_for(state="hidden")
        assert first.locator("[data-testid=task-row][data-picked=true]").count() == 0
        first.keyboard.press("s")
        first.keyboard.press("k")
        first.keyboard.press("s")
        first.keyboard.press("k")
        first.keyboard.press("s")
        # The row that does not change is not drawn again (its node stays).
        first.evaluate("() => { window.__weed = [...document.querySelectorAll('[data-testid=task-row]')].find((r) => r.textContent.includes('Weed')); }")
        first.locator("[data-testid=pick-complete]").focus()
        first.keyboard.press("Enter")
        first.wait_for_function("() => document.querySelectorAll('[data-testid=task-row][data-completed=true]').length === 3")
        bar.wait_for(state="hidden")
        wait_for_ring(first, garden["id"], 3 / 4)
        assert first.evaluate("() => window.__weed.isConnected && window.__weed.dataset.completed === 'false'")
        assert len(batches) == 1 and batches[0].headers.get("idempotency-key")
        first.wait_for_function("() => document.querySelector('#announcer').textContent === 'Completed 3 tasks.'")
        # The other window follows with one live update: its ring says 3 of 4.
        wait_for_ring(second, garden["id"], 3 / 4)
        stored = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
        assert [t["completed"] for t in stored] == [True, True, True, False]

        # Move two to Shed: Ctrl-click and Cmd-click select, the bar's Move to… opens the project selector.
        first.locator("[data-testid=task-row]", has_text="Weed").locator("[data-testid=task-title]").click(modifiers=["Control"])
        first.locator("[data-testid=task-row]", has_text="Seeds").locator("[data-testid=task-title]").click(modifiers=["Meta"])
        assert first.locator("[data-testid=pick-count]").inner_text() == "2 selected"
        first.locator("[data-testid=pick-move]").click()
        first.locator(f"[data-testid=selector-option][data-project-id='{shed['id']}']").click()
        first.wait_for_function("() => document.querySelectorAll('[data-testid=task-row]').length === 2")
        assert rows(first) == ["Dig", "Water"]
        shed_tasks = context.request.get(f"{server}/api/projects/{shed['id']}/tasks").json()["tasks"]
        assert [t["title"] for t in shed_tasks] == ["Oil the saw", "Seeds", "Weed"]
        wait_for_ring(second, shed["id"], 1 / 3)
        wait_for_ring(second, garden["id"], 1)

        # A single task still completes with x as before.
        first.locator("[data-testid=task-row]", has_text="Dig").focus()
        first.keyboard.press("x")
        first.wait_for_function("() => document.querySelector('[data-testid=task-row][data-completed=false]') !== null")
        assert not first._ck_errors and not second._ck_errors
    finally:
        context.close()


def test_a_refused_batch_changes_nothing_says_so_and_keeps_the_selection(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        garden, tasks = start(context, server, LIST)
        page = open_projects(context, server)
        open_garden(page, garden)
        page.locator("[data-testid=task-row]").first.focus()
        page.keyboard.press("s")
        page.keyboard.press("j")
        page.keyboard.press("s")

        # The request names one more task, deleted before it arrives (the server must refuse all of it).
        def with_a_gone_task(route):
            body = json.loads(route.request.post_data)
            body["taskIds"].append(str(uuid.uuid4()))
            route.continue_(post_data=json.dumps(body))
        page.route("**/api/tasks/batch*", with_a_gone_task)
        page.locator("[data-testid=pick-complete]").click()
        page.wait_for_function("() => document.querySelector('#error').textContent.includes('not found')")
        stored = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
        assert not any(t["completed"] for t in stored)
        assert page.locator("[data-testid=pick-count]").inner_text() == "2 selected"
        assert page.locator("[data-testid=task-row][data-completed=true]").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_the_selection_bar_at_every_size_is_accessible(browser, server, size):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        garden, _ = start(context, server, LIST)
        page = open_projects(context, server)
        if size[0] < 760:
            page.locator(f"[data-testid=project-row][data-project-id='{garden['id']}']").click()
            page.locator("[data-testid=task-row]").first.wait_for()
        else:
            open_garden(page, garden)
        page.locator("[data-testid=task-row]").first.focus()
        page.keyboard.press("s")
        page.keyboard.press("j")
        page.keyboard.press("s")
        page.locator("[data-testid=pick-bar]").wait_for()
        box = page.locator("[data-testid=pick-bar]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], box
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"selection-{size[0]}x{size[1]}.png"))
        results = axe_module.Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
    finally:
        context.close()


def test_a_batch_is_not_on_the_undo_list_and_an_earlier_change_it_overtook_is_refused(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        garden, tasks = start(context, server, LIST)
        page = open_projects(context, server)
        open_garden(page, garden)
        toast = page.locator("[data-testid=undo-toast]")
        seeds = page.locator("[data-testid=task-row]", has_text="Seeds")

        # One task completed with x: the toast offers to undo it.
        seeds.focus()
        page.keyboard.press("x")
        page.wait_for_function("() => document.querySelector('[data-testid=undo-text]').textContent === 'Completed “Seeds”'")
        assert toast.is_visible()

        # A batch reopens it: the toast's offer goes (a batch is not on the undo list).
        page.keyboard.press("s")
        assert page.locator("[data-testid=pick-complete]").inner_text() == "Reopen"
        page.locator("[data-testid=pick-complete]").click()
        page.wait_for_function("() => document.querySelector('#announcer').textContent === 'Reopened 1 task.'")
        assert toast.is_hidden()

        # z reaches the completion before the batch: refused as stale, and Seeds stays as the batch left it.
        seeds.focus()
        page.keyboard.press("z")
        page.wait_for_function("() => document.querySelector('[data-testid=undo-text]').textContent.includes('has changed since')")
        assert not page.locator("[data-testid=undo-button]").is_visible()
        stored = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
        assert [t["completed"] for t in stored if t["title"] == "Seeds"] == [False]
        assert seeds.get_attribute("data-completed") == "false"
        assert not page._ck_errors
    finally:
        context.close()


def long_press(page, locator):
    """Touches the middle of `locator` and holds until the page has taken the platform's long press (the
    selection bar shows), then lifts the finger: a real touch sequence, the gesture recognised by Chromium."""
    box = locator.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    try:
        page.wait_for_selector("[data-testid=pick-bar]:visible")
    finally:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()


def test_on_a_phone_a_long_press_selects_and_taps_add_more(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        garden, tasks = start(context, server, LIST)
        page = open_projects(context, server)
        open_garden(page, garden)
        seeds = page.locator("[data-testid=task-row]", has_text="Seeds")
        long_press(page, seeds.locator("[data-testid=task-title]"))
        assert page.locator("[data-testid=pick-count]").inner_text() == "1 selected"
        assert page.locator("[data-testid=pick-hint]").is_visible()
        # Now a tap selects (even on the check: nothing is completed by it), and a second tap unselects.
        page.locator("[data-testid=task-row]", has_text="Water").locator("[data-testid=task-title]").tap()
        page.locator("[data-testid=task-row]", has_text="Weed").locator("[data-testid=task-check]").tap()
        page.wait_for_function("() => document.querySelector('[data-testid=pick-count]').textContent === '3 selected'")
        page.locator("[data-testid=task-row]", has_text="Water").locator("[data-testid=task-title]").tap()
        page.wait_for_function("() => document.querySelector('[data-testid=pick-count]').textContent === '2 selected'")
        stored = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
        assert not any(t["completed"] for t in stored)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "projects-touch-selection-390x844.png"))
        page.locator("[data-testid=pick-complete]").tap()
        page.wait_for_selector("[data-testid=pick-bar]", state="hidden")
        stored = {t["title"]: t["completed"] for t in context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]}
        assert stored == {"Seeds": True, "Dig": False, "Water": False, "Weed": True}
        # With nothing selected, a tap is a tap again: it opens nothing and selects nothing.
        page.locator("[data-testid=task-row]", has_text="Dig").locator("[data-testid=task-check]").tap()
        page.wait_for_function(
            "async (id) => (await fetch(`/api/projects/${id}/tasks`).then((r) => r.json())).tasks.find((t) => t.title === 'Dig').completed",
            arg=garden["id"], polling=100)
        assert page.locator("[data-testid=pick-bar]").is_hidden()
        assert not page._ck_errors
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_the_selection_bar_stays_in_reach_while_a_long_list_scrolls(browser, server, size):
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        garden, _ = start(context, server, "# Garden\n" + "".join(f"- Task {i}\n" for i in range(60)))
        page = open_projects(context, server)
        open_garden(page, garden)
        first = page.locator("[data-testid=task-row]").first
        first.focus()
        page.keyboard.press("s")
        page.wait_for_selector("[data-testid=pick-bar]:visible")
        page.mouse.wheel(0, 1500)
        page.wait_for_function("() => window.scrollY > 1000")
        # Every control of the bar is the topmost thing where it is drawn: nothing sticky covers it.
        for control in ["pick-count", "pick-complete", "pick-move", "pick-clear"]:
            covered = page.evaluate(
                """(id) => { const el = document.querySelector(`[data-testid=${id}]`); const box = el.getBoundingClientRect();
                   const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
                   return el.contains(top) ? null : (top && (top.id || top.className)); }""", control)
            assert covered is None, (control, covered)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"projects-pick-bar-scrolled-{size[0]}x{size[1]}.png"))
        page.locator("[data-testid=pick-complete]").click()
        page.wait_for_selector("[data-testid=pick-bar]", state="hidden")
        assert not page._ck_errors
    finally:
        context.close()
