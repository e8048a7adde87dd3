"""Headings in the browser, continued: several selected tasks moved under a heading of any project at once
(the selection bar's Move…, from the keyboard), and adding, renaming and deleting a heading taken back with
Ctrl+Z or the toast, in every window."""
import os
import pathlib

import pytest

from projects_shared import call, open_list, post, serious_axe_violations, wait_rows

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))


def seed(context, server):
    garden = post(context, server, "/api/projects", {"name": "Garden", "color": "green"})
    shed = post(context, server, "/api/projects", {"name": "Shed", "color": "blue"})
    tasks = [post(context, server, "/api/tasks", {"title": title, "projectId": garden["id"]})["task"] for title in ("Water", "Dig", "Weed")]
    spring = post(context, server, f"/api/projects/{garden['id']}/headings", {"name": "Spring"})["heading"]
    tools = post(context, server, f"/api/projects/{shed['id']}/headings", {"name": "Tools"})["heading"]
    return garden, shed, tasks, spring, tools


def listed(context, server, project):
    return call(context, server, "GET", f"/api/projects/{project['id']}/tasks")


def focused_text(page):
    return page.evaluate("() => document.activeElement.textContent.trim()")


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def test_selected_tasks_move_under_a_heading_of_another_project_or_their_own_from_the_keyboard(context, server):
    garden, shed, (water, dig, weed), spring, tools = seed(context, server)
    page, other = open_list(context, server, garden), open_list(context, server, shed)
    wait_rows(page, ["Water", "Dig", "Weed", "# Spring"])
    batches = []
    page.on("request", lambda request: batches.append(request.post_data_json) if "/api/tasks/batch" in request.url else None)

    # Water and Dig selected with s, j, s; the bar's Move… lists every project's headings after it.
    page.locator("[data-testid=task-row]").first.focus()
    page.keyboard.press("s")
    page.keyboard.press("j")
    page.keyboard.press("s")
    page.locator("[data-testid=pick-move]").focus()
    page.keyboard.press("Enter")
    page.locator("#selector").wait_for()
    options = page.locator("[data-testid=selector-option]").all_inner_texts()
    assert [o.split("\n")[0].replace(" (current)", "") for o in options] == ["Inbox (No Project)", "Garden", "Garden › Spring", "Shed", "Shed › Tools"]
    # Arrow keys reach a heading of another project; Enter moves both there.
    assert focused_text(page).startswith("Garden")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    assert focused_text(page) == "Shed › Tools"
    page.keyboard.press("Enter")
    wait_rows(page, ["Weed", "# Spring"])
    assert batches == [{"taskIds": [water["id"], dig["id"]], "projectId": shed["id"], "headingId": tools["id"]}]
    page.wait_for_function("() => document.querySelector('#announcer').textContent.includes('under “Tools” in Shed')")
    # The other window, on Shed, draws them under Tools.
    wait_rows(other, ["# Tools", "Water", "Dig"])
    stored = listed(context, server, shed)["tasks"]
    assert [(t["title"], t["headingId"]) for t in stored] == [("Water", tools["id"]), ("Dig", tools["id"])]

    # A task of the open project goes under its own project's heading the same way.
    page.locator("[data-testid=task-row]").first.focus()
    page.keyboard.press("s")
    page.locator("[data-testid=pick-move]").click()
    page.locator("[data-testid=selector-option]", has_text="Garden › Spring").click()
    wait_rows(page, ["# Spring", "Weed"])
    assert listed(context, server, garden)["tasks"][0]["headingId"] == spring["id"]
    assert not page._ck_errors and not other._ck_errors


def test_a_heading_deleted_in_the_meantime_refuses_the_move_and_moves_nothing(context, server):
    garden, shed, (water, dig, weed), spring, tools = seed(context, server)
    page = open_list(context, server, garden)
    wait_rows(page, ["Water", "Dig", "Weed", "# Spring"])
    page.locator("[data-testid=task-row]").first.focus()
    page.keyboard.press("s")
    page.keyboard.press("j")
    page.keyboard.press("s")
    page.locator("[data-testid=pick-move]").click()
    page.locator("#selector").wait_for()
    # Tools goes in another window while the menu is open.
    call(context, server, "DELETE", f"/api/projects/{shed['id']}/headings/{tools['id']}")
    page.locator("[data-testid=selector-option]", has_text="Shed › Tools").click()
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('heading was not found')")
    assert page.locator("[data-testid=pick-count]").inner_text() == "2 selected"
    assert listed(context, server, shed)["tasks"] == []
    assert [t["title"] for t in listed(context, server, garden)["tasks"]] == ["Water", "Dig", "Weed"]


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_the_move_menu_with_headings_at_every_size(browser, server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        garden, shed, tasks, spring, tools = seed(context, server)
        post(context, server, f"/api/projects/{garden['id']}/headings", {"name": "Before the first frost"})
        page = open_list(context, server, garden)
        wait_rows(page, ["Water", "Dig", "Weed", "# Spring", "# Before the first frost"])
        page.locator("[data-testid=task-row]").first.focus()
        page.keyboard.press("s")
        page.keyboard.press("j")
        page.keyboard.press("s")
        page.locator("[data-testid=pick-move]").click()
        page.locator("#selector").wait_for()
        page.locator("[data-testid=selector-option]", has_text="Shed › Tools").wait_for()
        for option in page.locator("[data-testid=selector-option]").all():
            box = option.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], box
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"move-headings-{size[0]}x{size[1]}.png"))
        assert not serious_axe_violations(page)
        assert not page._ck_errors
    finally:
        context.close()


def undo_text(page, text):
    page.wait_for_function("(text) => document.querySelector('[data-testid=undo-text]').textContent === text", arg=text)


def test_a_deleted_heading_comes_back_with_its_tasks_from_the_toast_and_a_rename_with_ctrl_z_in_every_window(context, server):
    garden, shed, (water, dig, weed), spring, tools = seed(context, server)
    summer = post(context, server, f"/api/projects/{garden['id']}/headings", {"name": "Summer"})["heading"]
    for task in (dig, weed):
        call(context, server, "PATCH", f"/api/tasks/{task['id']}", {"headingId": spring["id"]})
    first, second = open_list(context, server, garden), open_list(context, server, garden)
    rows = ["Water", "# Spring", "Dig", "Weed", "# Summer"]
    wait_rows(first, rows)
    wait_rows(second, rows)

    # Deleting Spring: its tasks go to the top; the toast offers the heading back.
    first.locator(f"[data-heading-id='{spring['id']}'] [data-testid=heading-delete]").click()
    first.locator("#confirm-yes").click()
    wait_rows(first, ["Water", "Dig", "Weed", "# Summer"])
    undo_text(first, "Deleted heading “Spring”")
    wait_rows(second, ["Water", "Dig", "Weed", "# Summer"])
    first.locator("[data-testid=undo-button]").click()
    undo_text(first, "Undone: Deleted heading “Spring”.")
    # Back at its place, above Summer, with both tasks under it, in both windows and on the server.
    wait_rows(first, rows)
    wait_rows(second, rows)
    stored = listed(context, server, garden)
    assert [h["id"] for h in stored["headings"]] == [spring["id"], summer["id"]]
    assert [(t["title"], t.get("headingId")) for t in stored["tasks"]] == [("Water", None), ("Dig", spring["id"]), ("Weed", spring["id"])]

    # Renamed in the second window, taken back there with Ctrl+Z from the list; the first follows.
    second.locator(f"[data-heading-id='{summer['id']}'] [data-testid=heading-name]").click()
    rename = second.locator("[data-testid=heading-name-input]")
    rename.fill("High summer")
    rename.press("Enter")
    undo_text(second, "Renamed heading “Summer” to “High summer”")
    wait_rows(first, ["Water", "# Spring", "Dig", "Weed", "# High summer"])
    second.locator(f"[data-task-id='{water['id']}']").focus()
    second.keyboard.press("Control+z")
    undo_text(second, "Undone: Renamed heading “Summer” to “High summer”.")
    wait_rows(second, rows)
    wait_rows(first, rows)

    # Adding one with g and taking it back with z removes it.
    first.locator(f"[data-task-id='{water['id']}']").focus()
    first.keyboard.press("g")
    name = first.locator("[data-testid=heading-name-input]")
    name.fill("Autumn")
    name.press("Enter")
    wait_rows(first, rows + ["# Autumn"])
    first.locator(f"[data-task-id='{water['id']}']").focus()
    first.keyboard.press("z")
    undo_text(first, "Undone: Added heading “Autumn”.")
    wait_rows(first, rows)
    wait_rows(second, rows)
    assert not first._ck_errors and not second._ck_errors


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_the_undo_toast_after_a_heading_deletion_at_every_size(browser, server, size):
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        garden, shed, (water, dig, weed), spring, tools = seed(context, server)
        call(context, server, "PATCH", f"/api/tasks/{dig['id']}", {"headingId": spring["id"]})
        page = open_list(context, server, garden)
        wait_rows(page, ["Water", "Weed", "# Spring", "Dig"])
        page.locator("[data-testid=heading-delete]").click()
        page.locator("#confirm-yes").click()
        undo_text(page, "Deleted heading “Spring”")
        page.wait_for_function("() => document.querySelector('[data-testid=undo-toast]').getAnimations().every(a => a.playState === 'finished')")
        box = page.locator("[data-testid=undo-toast]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] and box["y"] + box["height"] <= size[1]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"heading-undo-toast-{size[0]}x{size[1]}.png"))
        assert not serious_axe_violations(page)
        assert not page._ck_errors
    finally:
        context.close()
