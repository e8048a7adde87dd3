"""Projects' views across lists in the browser: Today (overdue marked in words), Upcoming by day, and search as
you type. The server decides what is today in the time zone the page sends; these tests put the same person in
two time zones a day apart and check both pages show what that zone's day makes of the same tasks."""
import datetime
import json
import os
import pathlib
from zoneinfo import ZoneInfo

import pytest

# 25 hours apart: at every instant Kiritimati's date is a day or two after Pago Pago's.
BEHIND = "Pacific/Pago_Pago"
AHEAD = "Pacific/Kiritimati"
SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))


def day(zone, offset=0):
    return (datetime.datetime.now(ZoneInfo(zone)).date() + datetime.timedelta(days=offset)).isoformat()


def post(context, server, path, body):
    response = context.request.post(
        f"{server}{path}", data=json.dumps(body), headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
    assert response.ok, response.text()
    return response.json()


def seed(context, server):
    """A person with a Garden project and dated tasks, in Pago Pago's calendar."""
    garden = post(context, server, "/api/projects", {"name": "Garden", "color": "green"})
    tasks = {}
    for title, due, project in [
        ("Old bill", day(BEHIND, -3), None), ("Pay rent", day(BEHIND), None), ("Plant bulbs", day(BEHIND, 3), garden["id"]),
        ("Été party", day(BEHIND, 5), garden["id"]), ("Someday", None, garden["id"]),
    ]:
        body = {"title": title, "projectId": project}
        if due:
            body["dueDate"] = due
        if title == "Someday":
            body["notes"] = "ask about the CAFÉ"
        tasks[title] = post(context, server, "/api/tasks", body)["task"]
    return garden, tasks


def open_page(context, server, path="/projects"):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}{path}")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    page._ck_errors = errors
    return page


def rows(page):
    page.wait_for_function("() => document.querySelector('#agenda-body').getAttribute('aria-busy') === 'false'")
    return page.locator("[data-testid=agenda-row] [data-testid=agenda-link]").all_inner_texts()


@pytest.fixture()
def behind(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, timezone_id=BEHIND)
    yield context
    context.close()


def test_today_and_upcoming_follow_the_time_zone_the_page_sends(browser, behind, server):
    garden, tasks = seed(behind, server)
    page = open_page(behind, server)
    # Keyboard first: the Today link in the sidebar, then Enter.
    page.locator("[data-testid=view-today] a").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=agenda-pane]:visible")
    assert rows(page) == ["Old bill", "Pay rent"]
    overdue = page.locator("[data-testid=agenda-row]").first
    assert overdue.get_attribute("data-due") == "overdue"
    # Overdue is said in words, not only in colour.
    assert "Overdue · 3 days late" in overdue.locator("[data-testid=agenda-due]").inner_text()
    assert "Due today" in page.locator("[data-testid=agenda-row]").nth(1).inner_text()
    assert "1 overdue" in page.locator("[data-testid=agenda-summary]").inner_text()
    assert page.url.endswith("/projects?list=today")

    # The same person a day ahead (Kiritimati): the rent is overdue there, and the page says so.
    ahead = browser.new_context(viewport={"width": 1280, "height": 800}, timezone_id=AHEAD, storage_state=behind.storage_state())
    try:
        other = open_page(ahead, server, "/projects?list=today")
        assert rows(other)[:2] == ["Old bill", "Pay rent"]
        assert [other.locator("[data-testid=agenda-row]").nth(i).get_attribute("data-due") for i in range(2)] == ["overdue", "overdue"]
        assert not other._ck_errors
    finally:
        ahead.close()

    # Upcoming: by day, soonest first, with the project each task is in.
    page.locator("[data-testid=view-upcoming] a").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-day]').length === 2")
    days = page.locator("[data-testid=agenda-day]")
    assert [days.nth(i).get_attribute("data-date") for i in range(2)] == [day(BEHIND, 3), day(BEHIND, 5)]
    assert "Plant bulbs" in days.nth(0).inner_text() and "Garden" in days.nth(0).inner_text()

    # Completing from Today with the keyboard: the row stays, ticked; the count in the sidebar follows.
    page.locator("[data-testid=view-today] a").click()
    assert rows(page) == ["Old bill", "Pay rent"]
    page.locator("[data-testid=agenda-link]", has_text="Pay rent").focus()
    page.keyboard.press("x")
    page.wait_for_selector("[data-testid=agenda-row][data-task-id='%s'] [aria-checked=true]" % tasks["Pay rent"]["id"])
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-summary]').textContent.includes('1 task to do')")
    stored = behind.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"]
    assert next(t for t in stored if t["title"] == "Pay rent")["completed"] is True

    # A task's link opens its list with that task under the cursor.
    page.locator("[data-testid=view-upcoming] a").click()
    page.wait_for_selector("[data-testid=agenda-day]")
    page.locator("[data-testid=agenda-link]", has_text="Plant bulbs").click()
    page.wait_for_function(
        "(id) => document.activeElement && document.activeElement.dataset.taskId === id", arg=tasks["Plant bulbs"]["id"])
    assert page.locator("#list-pane").is_visible() and f"list={garden['id']}" in page.url
    # Back returns to the view.
    page.go_back()
    page.wait_for_selector("[data-testid=agenda-day]")
    assert not page._ck_errors


def test_search_as_you_type_across_projects(behind, server):
    garden, tasks = seed(behind, server)
    response = behind.request.post(
        f"{server}/api/projects/import", data="\n".join(f"Milk {i}" for i in range(60)),
        headers={"Content-Type": "text/plain", "X-CompletionKit": "1"})
    assert response.ok
    page = open_page(behind, server)
    page.keyboard.press("/")
    search = page.locator("[data-testid=search]")
    search.wait_for()
    assert page.evaluate("document.activeElement.id") == "search"
    # Any case, any accents, in the title or in the notes.
    search.type("ÉTÉ")
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-summary]').textContent.includes('ÉTÉ')")
    assert rows(page) == ["Été party"]
    assert "Garden" in page.locator("[data-testid=agenda-row]").inner_text()
    search.fill("cafe")
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-summary]').textContent.includes('cafe')")
    assert rows(page) == ["Someday"]
    # Many matches: a bounded answer that says there are more.
    search.fill("milk")
    page.wait_for_selector("[data-testid=search-more]")
    assert len(rows(page)) == 50
    assert "There are more" in page.locator("[data-testid=agenda-summary]").inner_text()
    # Nothing typed: nothing found, and a word on what to do.
    search.fill("")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-row]').length === 0")
    assert "Type to search" in page.locator("[data-testid=agenda-summary]").inner_text()
    # A result opens the task in its project, from the keyboard.
    search.fill("plant")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-row]').length === 1")
    search.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "(id) => document.activeElement && document.activeElement.dataset.taskId === id", arg=tasks["Plant bulbs"]["id"])
    assert f"list={garden['id']}" in page.url
    # The query is in the address: reloading shows the same results.
    page.go_back()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-row]').length === 1")
    assert "q=plant" in page.url
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-row]').length === 1")
    assert page.locator("[data-testid=search]").input_value() == "plant"
    assert not page._ck_errors


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_views_are_accessible_and_fit(browser, server, size):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, timezone_id=BEHIND, **options)
    try:
        seed(context, server)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for view, query in [("today", ""), ("upcoming", ""), ("search", "&q=e")]:
            page = open_page(context, server, f"/projects?list={view}{query}")
            rows(page)
            page.wait_for_selector("[data-testid=agenda-row]")
            page.screenshot(path=str(SHOTS / f"views-{view}-{size[0]}x{size[1]}.png"))
            assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
            results = axe_module.Axe().run(page)
            serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
            assert not serious, (view, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious])
            if size[0] < 600:
                # On a phone the view is its own screen, with a way back to the lists.
                page.locator("[data-testid=agenda-back]").click()
                page.wait_for_selector("[data-testid=view-today]:visible")
            page.close()
        # A project with its completed tasks hidden.
        garden = next(p for p in context.request.get(f"{server}/api/projects").json()["projects"] if p["name"] == "Garden")
        done = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"][0]
        context.request.patch(f"{server}/api/tasks/{done['id']}", data=json.dumps({"completed": True}),
                              headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
        page = open_page(context, server, f"/projects?list={garden['id']}")
        page.wait_for_selector("[data-testid=task-row]")
        page.locator("[data-testid=hide-completed]").click()
        page.wait_for_function("() => document.querySelector('[data-testid=hidden-note]').textContent === '1 completed task hidden'")
        page.screenshot(path=str(SHOTS / f"hide-completed-{size[0]}x{size[1]}.png"))
        results = axe_module.Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, ("hide", [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious])
    finally:
        context.close()


def test_hiding_completed_tasks_keeps_counts_and_is_remembered(behind, server):
    response = behind.request.post(
        f"{server}/api/projects/import", data="# Garden\n- [x] Buy seeds\n- Dig the beds\n- Water\n- Rake\n",
        headers={"Content-Type": "text/plain", "X-CompletionKit": "1"})
    assert response.ok, response.text()
    garden = next(p for p in behind.request.get(f"{server}/api/projects").json()["projects"] if p["name"] == "Garden")
    page = open_page(behind, server, f"/projects?list={garden['id']}")
    page.wait_for_selector("[data-testid=task-row]")
    titles = lambda: page.locator("[data-testid=task-row] [data-testid=task-title]").all_inner_texts()  # noqa: E731
    assert titles() == ["Buy seeds", "Dig the beds", "Water", "Rake"]
    summary = page.locator("[data-testid=list-summary]").inner_text()

    # From the keyboard: h hides the completed task; the counts and the ring keep counting it.
    page.locator("body").press("h")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=task-row]').length === 3")
    assert titles() == ["Dig the beds", "Water", "Rake"]
    assert page.locator("[data-testid=hide-completed]").get_attribute("aria-pressed") == "true"
    assert page.locator("[data-testid=hidden-note]").inner_text() == "1 completed task hidden"
    assert page.locator("[data-testid=list-summary]").inner_text() == summary == "1 of 4 tasks done · 25%"
    ring = page.locator(f"[data-testid=ring][data-project-id='{garden['id']}']").first
    assert ring.get_attribute("aria-valuenow") == "25"

    # A task ticked here stays in view (ticked) so it never vanishes under the cursor...
    row = page.locator("[data-testid=task-row]", has_text="Dig the beds")
    row.locator("[data-testid=task-check]").click()
    page.wait_for_function("() => document.querySelector('[data-testid=list-summary]').textContent.startsWith('2 of 4')")
    assert titles() == ["Dig the beds", "Water", "Rake"]
    # ...and reordering what is shown keeps the hidden tasks in the list the server orders.
    page.locator("[data-testid=task-row]", has_text="Rake").focus()
    with page.expect_response(lambda r: r.url.endswith("/api/tasks/order")) as ordered:
        page.keyboard.press("Alt+ArrowUp")
    assert ordered.value.ok, ordered.value.text()
    assert titles() == ["Dig the beds", "Rake", "Water"]
    stored = behind.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
    assert [t["title"] for t in stored] == ["Buy seeds", "Dig the beds", "Rake", "Water"]

    # The choice is remembered in this browser: after a reload both completed tasks are hidden.
    page.reload()
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    page.wait_for_function("() => document.querySelectorAll('[data-testid=task-row]').length === 2")
    assert titles() == ["Rake", "Water"]
    assert page.locator("[data-testid=hidden-note]").inner_text() == "2 completed tasks hidden"
    page.locator("[data-testid=hide-completed]").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid=task-row]').length === 4")
    assert page.locator("[data-testid=hide-completed]").get_attribute("aria-pressed") == "false"
    assert not page._ck_errors


def test_n_in_today_and_upcoming_adds_a_dated_task_to_the_inbox(behind, server):
    seed(behind, server)
    page = open_page(behind, server, "/projects?list=today")
    assert rows(page) == ["Old bill", "Pay rent"]
    # n goes to Today's own field (never the hidden list's), and the task is due on the server's today.
    page.locator("#agenda-title").focus()
    page.keyboard.press("n")
    assert page.evaluate("document.activeElement.id") == "agenda-add"
    page.keyboard.type("Call the vet")
    page.keyboard.press("Enter")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=agenda-link]')].some((a) => a.textContent === 'Call the vet')")
    assert page.evaluate("document.activeElement.id") == "agenda-add"  # ready for the next one
    inbox = behind.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"]
    assert next(t for t in inbox if t["title"] == "Call the vet")["dueDate"] == day(BEHIND)
    assert page.locator("[data-testid=agenda-add-day]").is_hidden()

    # Upcoming: due the day beside the field, tomorrow unless another is chosen.
    page.locator("[data-testid=view-upcoming] a").click()
    page.wait_for_selector("[data-testid=agenda-day]")
    page.wait_for_function("(d) => document.querySelector('[data-testid=agenda-add-day]').value === d", arg=day(BEHIND, 1))
    page.locator("#agenda-title").focus()
    page.keyboard.press("n")
    assert page.evaluate("document.activeElement.id") == "agenda-add"
    page.keyboard.type("Book flights")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-testid=agenda-day][data-date='{day(BEHIND, 1)}'] >> text=Book flights")
    page.locator("[data-testid=agenda-add-day]").fill(day(BEHIND, 9))
    page.locator("[data-testid=agenda-add]").fill("Renew passport")
    page.locator("[data-testid=agenda-add]").press("Enter")
    page.wait_for_selector(f"[data-testid=agenda-day][data-date='{day(BEHIND, 9)}'] >> text=Renew passport")

    # Search has no field of its own: n opens the Inbox, ready to type.
    page.locator("[data-testid=view-search] a").click()
    page.locator("[data-testid=search]").wait_for()
    page.locator("#agenda-title").focus()
    page.keyboard.press("n")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'add-task'")
    assert "list=inbox" in page.url
    assert not page._ck_errors


def test_an_archived_projects_tasks_leave_today_in_every_window(behind, server):
    garden, tasks = seed(behind, server)
    behind.request.patch(f"{server}/api/tasks/{tasks['Plant bulbs']['id']}", data=json.dumps({"dueDate": day(BEHIND)}),
                         headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
    page = open_page(behind, server, "/projects?list=today")
    assert rows(page) == ["Old bill", "Pay rent", "Plant bulbs"]
    other = open_page(behind, server, f"/projects?list={garden['id']}")
    other.locator("#archive-project").click()
    # The first window's Today follows the archive live: Garden's task is put away with its project.
    page.wait_for_function("() => document.querySelectorAll('[data-testid=agenda-row]').length === 2")
    assert rows(page) == ["Old bill", "Pay rent"]
    page.locator("[data-testid=view-upcoming] a").click()
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-summary]').textContent.startsWith('Nothing due after today')")
    assert rows(page) == []
    # Unarchived, it is back.
    behind.request.patch(f"{server}/api/projects/{garden['id']}", data=json.dumps({"archived": False}),
                         headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=agenda-link]')].some((a) => a.textContent === 'Été party')")
    assert not page._ck_errors and not other._ck_errors


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_an_overdue_task_in_a_project_list_says_overdue_as_today_does(browser, server, size):
    """The server marks the rows of a project's list (in the page's time zone) as Today marks them; the page shows
    the same words, not a plain date."""
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, timezone_id=BEHIND, **options)
    try:
        garden = post(context, server, "/api/projects", {"name": "Garden", "color": "green"})
        late = post(context, server, "/api/tasks", {"title": "Prune roses", "projectId": garden["id"], "dueDate": day(BEHIND, -2)})["task"]
        soon = post(context, server, "/api/tasks", {"title": "Plant bulbs", "projectId": garden["id"], "dueDate": day(BEHIND, 3)})["task"]
        done = post(context, server, "/api/tasks", {"title": "Rake", "projectId": garden["id"], "dueDate": day(BEHIND, -4)})["task"]
        context.request.patch(f"{server}/api/tasks/{done['id']}", data=json.dumps({"completed": True}),
                              headers={"Content-Type": "application/json", "X-CompletionKit": "1"})

        today = open_page(context, server, "/projects?list=today")
        rows(today)
        today_words = today.locator(f"[data-testid=agenda-row][data-task-id='{late['id']}'] [data-testid=agenda-due]").inner_text()
        assert "Overdue · 2 days late" in today_words
        today.close()

        page = open_page(context, server, f"/projects?list={garden['id']}")
        page.wait_for_selector("[data-testid=task-row]")
        due = page.locator(f"[data-testid=task-row][data-task-id='{late['id']}'] [data-testid=task-due-date]")
        assert due.get_attribute("data-due") == "overdue"
        assert "Overdue · 2 days late" in due.inner_text()
        assert due.evaluate("(e) => getComputedStyle(e).color") == page.evaluate(
            "() => { const s = document.createElement('span'); s.className = 'pj-entry-due is-overdue'; document.body.append(s);"
            " const c = getComputedStyle(s).color; s.remove(); return c; }")
        # Not overdue: a later date, and a done task whose date has passed, keep their plain date.
        for task in (soon, done):
            other = page.locator(f"[data-testid=task-row][data-task-id='{task['id']}'] [data-testid=task-due-date]")
            assert other.get_attribute("data-due") is None and "Overdue" not in other.inner_text()
        # Completing it from the list takes the mark away (the server's answer says it is no longer overdue).
        page.locator(f"[data-testid=task-row][data-task-id='{late['id']}'] [data-testid=task-check]").click()
        page.wait_for_function(
            "(id) => !document.querySelector(`[data-task-id='${id}'] [data-due=overdue]`)", arg=late["id"])
        page.locator(f"[data-testid=task-row][data-task-id='{late['id']}'] [data-testid=task-check]").click()
        page.wait_for_selector(f"[data-testid=task-row][data-task-id='{late['id']}'] [data-due=overdue]")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"overdue-in-project-{size[0]}x{size[1]}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
        results = axe_module.Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
        assert not page._ck_errors
    finally:
        context.close()
