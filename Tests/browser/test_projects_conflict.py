"""Concurrent edits in the browser: a task carries a revision; a title saved in one window while another window
was editing it is not silently overwritten: the second window shows both and the person chooses."""
import json
import os
import pathlib

import pytest

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))
HEADERS = {"Content-Type": "application/json", "X-CompletionKit": "1"}


def open_inbox(context, server):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/projects?list=inbox")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    page.wait_for_selector("[data-testid=task-row]")
    page._ck_errors = errors
    return page


def stored_title(context, server, task):
    tasks = context.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"]
    return next(t["title"] for t in tasks if t["id"] == task["id"])


def shown_title(page, task, title):
    page.wait_for_function(
        "([id, title]) => document.querySelector(`[data-task-id='${id}'] [data-testid=task-title]`)?.textContent === title",
        arg=[task["id"], title])


def rename(page, task, title, commit=True):
    page.locator(f"[data-task-id='{task['id']}'] [data-testid=task-title]").click()
    field = page.locator(f"[data-task-id='{task['id']}'] [data-testid=task-title-input]")
    field.fill(title)
    if commit:
        field.press("Enter")
    return field


def conflict_between_two_windows(context, server, task, theirs, mine):
    first, second = open_inbox(context, server), open_inbox(context, server)
    # The second window begins editing; meanwhile the first saves another title.
    field = rename(second, task, mine, commit=False)
    rename(first, task, theirs)
    # The first window's save has landed.
    first.wait_for_function(
        """async ([id, title]) => {
          const answer = await fetch('/api/projects/inbox/tasks').then((response) => response.json());
          return answer.tasks.find((t) => t.id === id).title === title;
        }""", arg=[task["id"], theirs], polling=100)
    field.press("Enter")
    second.wait_for_selector("[data-testid=conflict][open]")
    assert second.locator("[data-testid=conflict-mine]").inner_text() == mine
    assert second.locator("[data-testid=conflict-theirs]").inner_text() == theirs
    return first, second


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def test_a_conflict_between_two_windows_lets_the_person_choose(context, server):
    response = context.request.post(f"{server}/api/tasks", data=json.dumps({"title": "Water"}), headers=HEADERS)
    task = response.json()["task"]

    # Keep mine: the second window's title is saved on the revision it was shown, and reaches the first.
    first, second = conflict_between_two_windows(context, server, task, "Water roses", "Water beds")
    second.locator("[data-testid=conflict-keep-mine]").click()
    shown_title(second, task, "Water beds")
    shown_title(first, task, "Water beds")
    assert stored_title(context, server, task) == "Water beds"
    first.close()
    second.close()

    # Take theirs: nothing is written; the second window shows what was saved.
    first, second = conflict_between_two_windows(context, server, task, "Water daily", "Water weekly")
    second.locator("[data-testid=conflict-take-theirs]").click()
    shown_title(second, task, "Water daily")
    assert stored_title(context, server, task) == "Water daily"
    assert not first._ck_errors and not second._ck_errors


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_the_conflict_dialog_is_accessible_and_fits(browser, server, size):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        task = context.request.post(f"{server}/api/tasks", data=json.dumps({"title": "Water"}), headers=HEADERS).json()["task"]
        _, second = conflict_between_two_windows(context, server, task, "Water the roses by the gate", "Water the beds")
        assert second.evaluate("document.documentElement.scrollWidth") <= size[0]
        SHOTS.mkdir(parents=True, exist_ok=True)
        second.screenshot(path=str(SHOTS / f"conflict-{size[0]}x{size[1]}.png"))
        results = axe_module.Axe().run(second)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
    finally:
        context.close()


def test_a_priority_or_due_date_changed_elsewhere_is_a_choice_too(context, server):
    """Priority and due-date edits name the revision they were made on, as title and notes do: a window that has
    not heard of a change saved elsewhere is asked, in words (the server's priority label, a day), not overwritten."""
    task = context.request.post(f"{server}/api/tasks", data=json.dumps({"title": "Water"}), headers=HEADERS).json()["task"]
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # This window hears of nothing done elsewhere: its copy of the task stays at the revision it loaded.
    page.route("**/api/projects/events*", lambda route: route.abort())
    page.goto(f"{server}/projects?list=inbox")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    row = page.locator(f"[data-task-id='{task['id']}']")
    row.locator("[data-action=expand]").click()
    select = row.locator("[data-testid=task-priority]")
    select.wait_for()

    # Elsewhere: the priority is set to low and saved.
    saved = context.request.patch(
        f"{server}/api/tasks/{task['id']}", data=json.dumps({"priority": "low"}), headers=HEADERS)
    assert saved.ok, saved.text()

    # Here: high, on the old revision. The person is asked, and sees both values by name.
    select.select_option("high")
    page.wait_for_selector("[data-testid=conflict][open]")
    labels = {option["value"]: option["label"] for option in context.request.get(f"{server}/api/projects").json()["priorities"]}
    assert page.locator("[data-testid=conflict-mine]").inner_text() == labels["high"]
    assert page.locator("[data-testid=conflict-theirs]").inner_text() == labels["low"]
    assert "priority" in page.locator("#conflict-text").inner_text()
    page.locator("[data-testid=conflict-keep-mine]").click()
    page.wait_for_function(
        """async (id) => {
          const answer = await fetch('/api/projects/inbox/tasks').then((response) => response.json());
          return answer.tasks.find((t) => t.id === id).priority === 'high';
        }""", arg=task["id"], polling=100)

    # A due date set elsewhere meanwhile: clearing it here asks first; taking theirs keeps the saved day.
    revision = context.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"][0]["revision"]
    saved = context.request.patch(
        f"{server}/api/tasks/{task['id']}", data=json.dumps({"dueDate": "2031-05-06"}), headers=HEADERS)
    assert saved.ok and saved.json()["task"]["revision"] > revision
    page.locator(f"[data-task-id='{task['id']}'] [data-testid=task-due]").fill("2031-07-08")
    page.locator(f"[data-task-id='{task['id']}'] [data-testid=task-due]").press("Enter")
    page.wait_for_selector("[data-testid=conflict][open]")
    assert "due date" in page.locator("#conflict-text").inner_text()
    # Days in words, as the page writes them elsewhere (the browser's language; this context is English).
    assert "May" in page.locator("[data-testid=conflict-theirs]").inner_text()
    assert "July" in page.locator("[data-testid=conflict-mine]").inner_text()
    page.locator("[data-testid=conflict-take-theirs]").click()
    stored = context.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"][0]
    assert stored["dueDate"] == "2031-05-06" and stored["priority"] == "high"
    assert not errors


def test_an_offline_edit_that_meets_a_change_made_elsewhere_asks_when_it_is_sent(browser, server):
    """A title changed while one window was offline, and changed again in another window meanwhile: when the
    first window is back online its kept change is a choice, as it is between two online windows."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        task = context.request.post(f"{server}/api/tasks", data=json.dumps({"title": "Call Ada"}), headers=HEADERS).json()["task"]
        page = open_inbox(context, server)
        context.set_offline(True)
        rename(page, task, "Call Ada (offline)")
        page.wait_for_function("() => document.body.dataset.outbox === '1'")
        # Elsewhere (this context's request API is not the page's, and is not offline).
        other = browser.new_context()
        try:
            other.add_cookies(context.cookies())
            saved = other.request.patch(f"{server}/api/tasks/{task['id']}", data=json.dumps({"title": "Call Ada (elsewhere)"}), headers=HEADERS)
            assert saved.ok, saved.text()
        finally:
            other.close()
        context.set_offline(False)
        page.wait_for_selector("[data-testid=conflict][open]")
        assert page.locator("[data-testid=conflict-mine]").inner_text() == "Call Ada (offline)"
        assert page.locator("[data-testid=conflict-theirs]").inner_text() == "Call Ada (elsewhere)"
        page.locator("[data-testid=conflict-keep-mine]").click()
        shown_title(page, task, "Call Ada (offline)")
        page.wait_for_function("() => document.body.dataset.outbox === '0'")
        assert stored_title(context, server, task) == "Call Ada (offline)"
        assert not page._ck_errors
    finally:
        context.close()


def test_a_heading_renamed_in_two_windows_lets_the_person_choose(context, server):
    """Defect 13: a heading's rename carries the name it began on; renamed elsewhere meanwhile, the window shows
    both names and the person chooses, as for a task's title (the last save no longer silently wins)."""
    garden = context.request.post(f"{server}/api/projects", data=json.dumps({"name": "Trip"}), headers=HEADERS).json()
    heading = context.request.post(
        f"{server}/api/projects/{garden['id']}/headings", data=json.dumps({"name": "Documents"}), headers=HEADERS).json()["heading"]
    path = f"{server}/api/projects/{garden['id']}/headings/{heading['id']}"

    def stored_name():
        return context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["headings"][0]["name"]

    for theirs, mine, choice, kept in [("Papers", "Tickets", "keep-mine", "Tickets"), ("Passports", "Visas", "take-theirs", "Passports")]:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server}/projects?list={garden['id']}")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        shown = stored_name()
        page.locator("[data-testid=heading-name]").click()
        field = page.locator("[data-testid=heading-name-input]")
        field.fill(mine)
        # Elsewhere, while this window's field is open: renamed and saved (this window hears of it live).
        saved = context.request.patch(path, data=json.dumps({"name": theirs, "baseName": shown}), headers=HEADERS)
        assert saved.ok, saved.text()
        field.press("Enter")
        page.wait_for_selector("[data-testid=conflict][open]")
        assert page.locator("[data-testid=conflict-mine]").inner_text() == mine
        assert page.locator("[data-testid=conflict-theirs]").inner_text() == theirs
        assert shown in page.locator("#conflict-text").inner_text()
        page.locator(f"[data-testid=conflict-{choice}]").click()
        page.wait_for_function(
            "(name) => document.querySelector('[data-testid=heading-name]')?.textContent.trim() === name", arg=kept)
        assert stored_name() == kept
        assert not errors
        page.close()
