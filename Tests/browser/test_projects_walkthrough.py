"""What a walk-through of Projects found, each fixed and held here: a double-click makes one thing, a change
refused after being signed out elsewhere is put back, changes of several tasks wait offline like one task's,
text typed into a project archived elsewhere is kept and said, long names and words fit, and smaller things."""
import json
import os
import pathlib
import uuid

import pytest

from projects_shared import HEADERS, call, drawn_rows, open_list, post, serious_axe_violations, wait_rows

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))
SIZES = [(390, 844), (1194, 834), (1280, 800)]


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def projects(context, server):
    return call(context, server, "GET", "/api/projects")["projects"]


def slowed(page, pattern, method="POST"):
    """Holds requests of `method` to `pattern` until the returned release() is called (then lets them all go)."""
    held = []

    def hold(route):
        if route.request.method == method:
            held.append(route)
        else:
            route.continue_()
    page.route(pattern, hold)

    def release():
        count = len(held)
        for route in held:
            route.continue_()
        page.unroute(pattern)
        return count
    return held, release


# MARK: A double-click makes one

def test_a_double_click_on_add_heading_makes_one_heading_whose_typed_name_is_saved(context, server):
    garden = post(context, server, "/api/projects", {"name": "Garden " + uuid.uuid4().hex[:6]})
    post(context, server, "/api/tasks", {"title": "Water", "projectId": garden["id"]})
    page = open_list(context, server, garden)
    wait_rows(page, ["Water"])

    page.locator("[data-testid=add-heading]").dblclick()
    name = page.locator("[data-testid=heading-name-input]")
    name.wait_for()
    name.fill("Spring")
    name.press("Enter")
    wait_rows(page, ["Water", "# Spring"])
    headings = call(context, server, "GET", f"/api/projects/{garden['id']}/tasks")["headings"]
    assert [heading["name"] for heading in headings] == ["Spring"]

    # Two presses while the server has not answered the first: still one heading.
    held, release = slowed(page, "**/headings")
    page.locator("[data-testid=add-heading]").click()
    page.locator("[data-testid=add-heading]").click()
    page.wait_for_timeout(300)  # lets a second request start, if the page would send one
    assert release() == 1
    name.wait_for()
    name.fill("Summer")
    name.press("Enter")
    wait_rows(page, ["Water", "# Spring", "# Summer"])
    headings = call(context, server, "GET", f"/api/projects/{garden['id']}/tasks")["headings"]
    assert [heading["name"] for heading in headings] == ["Spring", "Summer"]
    assert not page._ck_errors


def test_a_double_click_on_new_project_makes_one_and_enter_on_its_name_goes_to_add_a_task(context, server):
    post(context, server, "/api/tasks", {"title": "Inbox thing"})
    page = open_list(context, server, {"id": "inbox"})
    before = len(projects(context, server))
    page.locator("[data-testid=new-project]").dblclick()
    name = page.locator("[data-testid=project-name]")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'project-name'")
    name.fill("Holiday")
    name.press("Enter")
    # Named: the next thing to type is the first task.
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'add-task'")
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=project-row]')].some((row) => row.textContent.includes('Holiday'))")
    assert len(projects(context, server)) == before + 1

    # Pressed again while the server has not answered: one more project, not two.
    held, release = slowed(page, "**/api/projects")
    page.locator("[data-testid=new-project]").click()
    page.locator("[data-testid=new-project]").click()
    page.wait_for_timeout(300)  # lets a second request start, if the page would send one
    assert release() == 1
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'project-name'")
    assert len(projects(context, server)) == before + 2
    assert not page._ck_errors


def test_a_double_click_on_make_the_test_project_makes_one_bench(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{server}/projects/lab")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        page.locator("#create-bench").dblclick()
        page.locator("#bench").wait_for()
        page.wait_for_function("() => document.querySelector('#lab-busy').textContent === ''")
        benches = [project for project in projects(context, server) if project["name"] == "Ring test bench"]
        assert len(benches) == 1, benches
        # "Add an open task" double-clicked adds one task.
        total = benches[0]["total"]
        page.locator("#lab-add").dblclick()
        page.wait_for_function("() => document.querySelector('#lab-busy').textContent === ''")
        bench = next(project for project in projects(context, server) if project["id"] == benches[0]["id"])
        assert bench["total"] == total + 1, bench
    finally:
        context.close()


# MARK: Signed out elsewhere

def signed_in_list(browser, server, size=(1280, 800)):
    """A new account with a project of three tasks, open in a page; answers (context, page, project, name)."""
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    name = f"walk{uuid.uuid4().hex[:8]}"
    assert context.request.post(f"{server}/api/account/register", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=HEADERS).ok
    errands = post(context, server, "/api/projects", {"name": "Errands"})
    for title in ("Post", "Bank", "Shop"):
        post(context, server, "/api/tasks", {"title": title, "projectId": errands["id"]})
    page = open_list(context, server, errands)
    wait_rows(page, ["Post", "Bank", "Shop"])
    return context, page, errands, name


def sign_out_everywhere(browser, server, name):
    elsewhere = browser.new_context()
    try:
        assert elsewhere.request.post(f"{server}/api/account/login", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=HEADERS).ok
        assert elsewhere.request.post(f"{server}/api/account/logout-everywhere", headers=HEADERS).status == 204
    finally:
        elsewhere.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_a_tick_refused_after_signing_out_elsewhere_is_put_back_and_the_banner_is_the_one_message(browser, server, size):
    context, page, errands, name = signed_in_list(browser, server, size)
    try:
        sign_out_everywhere(browser, server, name)
        page.locator("[data-testid=task-row]", has_text="Bank").locator("[data-testid=task-check]").click()
        banner = page.locator("[data-testid=session-ended]")
        banner.wait_for()
        # Nothing was saved: the row shows it open again, as the summary counts it.
        page.wait_for_function("() => [...document.querySelectorAll('[data-testid=task-row]')].every((row) => row.dataset.completed === 'false')")
        assert page.locator("[data-testid=task-row]", has_text="Bank").locator("[data-testid=task-check]").get_attribute("aria-checked") == "false"
        assert "0 of 3 tasks done" in page.locator("#list-summary").text_content()
        # The banner is the one message: no second error, no retrying, no "live".
        assert page.locator("#error").text_content() == ""
        assert page.locator("#sync-status").text_content() == ""
        assert page.locator("#live-status").get_attribute("data-state") == "off"
        # A later refresh (a change told by another tab) does not start a retry loop either.
        page.evaluate("() => window.dispatchEvent(new Event('online'))")
        assert page.locator("#sync-status").text_content() == ""
        page.screenshot(path=str(SHOTS / f"walk-signed-out-{size[0]}x{size[1]}.png"))
        assert serious_axe_violations(page) == []
        assert not page._ck_errors
    finally:
        context.close()


def test_a_live_stream_refused_after_signing_out_elsewhere_says_so_before_any_change(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        name = f"walk{uuid.uuid4().hex[:8]}"
        assert context.request.post(f"{server}/api/account/register", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=HEADERS).ok
        errands = post(context, server, "/api/projects", {"name": "Errands"})
        # A stream that ends soon after it opens (as a proxy or a network change ends one): EventSource opens it again.
        context.route("**/api/projects/events", lambda route: route.fulfill(
            status=200, headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"}, body="retry: 200\n\n"))
        # Such a stream is "live" only for the moment between its opening and its end, which a busy machine may never
        # show between two frames: the page is waited for as ready, not as live.
        page = open_list(context, server, errands, live=False)
        sign_out_everywhere(browser, server, name)
        # The next time it opens, the server refuses it: the page says so at once and does not claim "live".
        context.unroute("**/api/projects/events")
        page.locator("[data-testid=session-ended]").wait_for()
        page.wait_for_function("() => document.querySelector('#live-status').dataset.state === 'off'")
        assert page.locator("#live-status").text_content() == "Not live"
        assert page.locator("#sync-status").text_content() == ""
        assert not page._ck_errors
    finally:
        context.close()


# MARK: Offline

def test_offline_several_selected_tasks_are_completed_at_once_and_sent_once_when_back(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        errands = post(context, server, "/api/projects", {"name": "Errands"})
        for title in ("Post", "Bank", "Shop", "Keys"):
            post(context, server, "/api/tasks", {"title": title, "projectId": errands["id"]})
        page = open_list(context, server, errands)
        other = open_list(context, server, errands)  # another tab of this browser
        wait_rows(page, ["Post", "Bank", "Shop", "Keys"])
        sent = []
        page.on("request", lambda request: sent.append(request.headers.get("idempotency-key")) if request.url.split("?")[0].endswith("/api/tasks/batch") else None)

        context.set_offline(True)
        page.wait_for_function("() => navigator.onLine === false")
        for title in ("Bank", "Shop"):
            page.locator("[data-testid=task-row]", has_text=title).click(modifiers=["Shift"])
        page.locator("[data-testid=pick-complete]").click()
        # Shown at once, kept, and said; no error.
        page.wait_for_function("() => document.body.dataset.outbox === '1'")
        done = lambda p: p.evaluate("() => [...document.querySelectorAll('[data-testid=task-row]')].filter((row) => row.dataset.completed === 'true').map((row) => row.textContent.trim())")
        assert [title[:4] for title in done(page)] == ["Bank", "Shop"], done(page)
        assert page.locator("#error").text_content() == ""
        assert "complete 2 tasks" in page.locator("[data-testid=sync-status]").text_content()
        # The other tab names the change and draws it too.
        other.wait_for_function("() => document.querySelector('[data-testid=sync-status]').textContent.includes('complete 2 tasks')")
        other.wait_for_function("() => [...document.querySelectorAll('[data-testid=task-row]')].filter((row) => row.dataset.completed === 'true').length === 2")
        page.screenshot(path=str(SHOTS / "walk-offline-batch-1280x800.png"))

        # A heading added offline waits behind the batch, shown at once and marked so, with its name.
        page.locator("body").press("g")
        name = page.locator("[data-testid=heading-name-input]")
        name.wait_for()
        name.fill("Later")
        name.press("Enter")
        page.wait_for_function("() => document.body.dataset.outbox === '3'")
        assert page.locator("[data-testid=heading-row][data-waiting=true]").count() == 1
        assert page.locator("#error").text_content() == ""

        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'")
        page.wait_for_function("() => document.querySelector('#error').textContent === ''")
        tasks = call(context, server, "GET", f"/api/projects/{errands['id']}/tasks")["tasks"]
        assert sorted(task["title"] for task in tasks if task["completed"]) == ["Bank", "Shop"]
        assert [h["name"] for h in call(context, server, "GET", f"/api/projects/{errands['id']}/tasks")["headings"]] == ["Later"]
        page.wait_for_function("() => document.querySelector('#list-summary').textContent.includes('2 of 4')")
        # Every try carried the batch's one key (the one while offline never reached the server).
        assert sent and len(set(sent)) == 1, sent
        assert not page._ck_errors and not other._ck_errors
    finally:
        context.close()


# MARK: Archived elsewhere

def test_text_typed_into_a_project_archived_in_another_window_is_kept_and_the_page_says_why(context, server):
    errands = post(context, server, "/api/projects", {"name": "Shared errands"})
    here, there = open_list(context, server, errands), open_list(context, server, errands)
    assert "Type one above" in here.locator("[data-testid=list-empty]").text_content()
    here.locator("[data-testid=add-task]").fill("Post the letter")
    there.locator("[data-testid=archive-project]").click()
    here.wait_for_function("() => document.querySelector('#error').textContent.includes('archived in another window')")
    assert "Post the letter" in here.locator("#error").text_content()
    add = here.locator("[data-testid=add-task]")
    assert add.input_value() == "Post the letter"
    assert add.is_disabled()
    hint = here.locator("[data-testid=list-empty]").text_content()
    assert "Type one above" not in hint and "archived" in hint, hint
    here.screenshot(path=str(SHOTS / "walk-archived-elsewhere-1280x800.png"))
    assert serious_axe_violations(here) == []
    # Unarchived, the kept words go in with Enter.
    here.locator("[data-testid=archive-project]").click()
    here.wait_for_function("() => !document.querySelector('#add-task').disabled")
    add.press("Enter")
    wait_rows(here, ["Post the letter"])
    assert not here._ck_errors and not there._ck_errors


# MARK: Long names, long words, limits

def overview_limits(context, server):
    return call(context, server, "GET", "/api/projects")["limits"]


def no_sideways_scroll(page):
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def overlaps(page, first, second):
    """Whether the boxes of two elements (selectors) overlap."""
    return page.evaluate("""([a, b]) => {
        const x = document.querySelector(a).getBoundingClientRect(), y = document.querySelector(b).getBoundingClientRect();
        return x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
    }""", [first, second])


@pytest.mark.parametrize("size", SIZES)
def test_long_names_and_words_fit_with_the_whole_name_reachable(browser, server, size):
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        limits = overview_limits(context, server)
        words = "Renovate the kitchen and the downstairs bathroom before the family visit in December "
        name = (words * 5)[: limits["name"]].strip()
        project = post(context, server, "/api/projects", {"name": name})
        heading = post(context, server, f"/api/projects/{project['id']}/headings", {"name": "Y" * limits["name"]})["heading"]
        post(context, server, "/api/tasks", {"title": "Tiles", "projectId": project["id"]})
        page = open_list(context, server, project)
        page.locator("[data-testid=heading-row]").wait_for()

        field = page.locator("[data-testid=project-name]")
        # Ends with an ellipsis where the field ends, the whole name in its title, never under the buttons.
        assert field.evaluate("(input) => getComputedStyle(input).textOverflow") == "ellipsis"
        assert field.get_attribute("title") == name
        assert not overlaps(page, "#project-name", "#archive-project")
        assert not overlaps(page, "#project-name", "#delete-project")
        nav = page.locator(f"[data-project-id='{project['id']}'] .pj-nav-name")
        assert nav.get_attribute("title") == name
        # The long unbroken heading wraps inside its row, clear of its Delete button.
        assert not overlaps(page, "[data-testid=heading-name]", "[data-testid=heading-delete]")
        assert no_sideways_scroll(page)
        page.screenshot(path=str(SHOTS / f"walk-long-names-{size[0]}x{size[1]}.png"))
        assert serious_axe_violations(page) == []

        # Text pasted past a limit (the server's, given to the field) is said, not cut without a word.
        add = page.locator("[data-testid=add-task]")
        add.focus()
        page.keyboard.insert_text("pack " * 130)
        assert len(add.input_value()) == limits["title"]
        error = page.locator("#error").text_content()
        assert f"at most {limits['title']} characters" in error, error
        page.screenshot(path=str(SHOTS / f"walk-long-paste-{size[0]}x{size[1]}.png"))

        # A long word searched for wraps on any screen: the page does not scroll sideways.
        page.goto(f"{server}/projects?list=search")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        search = page.locator("[data-testid=search]")
        search.fill("a" * min(200, limits.get("search") or 200))
        page.wait_for_function("() => document.querySelector('#agenda-summary').textContent.startsWith('No task matches')")
        assert no_sideways_scroll(page)
        page.screenshot(path=str(SHOTS / f"walk-long-search-{size[0]}x{size[1]}.png"))
        assert not page._ck_errors
    finally:
        context.close()


# MARK: Smaller things

def test_with_completed_hidden_several_ticked_at_once_stay_in_sight_like_one_tick(context, server):
    errands = post(context, server, "/api/projects", {"name": "Errands"})
    for title in ("Post", "Bank", "Shop", "Keys"):
        post(context, server, "/api/tasks", {"title": title, "projectId": errands["id"]})
    page = open_list(context, server, errands)
    wait_rows(page, ["Post", "Bank", "Shop", "Keys"])
    page.locator("[data-testid=hide-completed]").click()
    # One tick: it stays, ticked.
    page.locator("[data-testid=task-row]", has_text="Post").locator("[data-testid=task-check]").click()
    page.wait_for_function("() => document.querySelector('#list-summary').textContent.includes('1 of 4')")
    wait_rows(page, ["Post", "Bank", "Shop", "Keys"])
    # Several through the selection: the same.
    for title in ("Bank", "Shop"):
        page.locator("[data-testid=task-row]", has_text=title).click(modifiers=["Shift"])
    page.locator("[data-testid=pick-complete]").click()
    page.wait_for_function("() => document.querySelector('#list-summary').textContent.includes('3 of 4')")
    wait_rows(page, ["Post", "Bank", "Shop", "Keys"])
    assert "stay until you leave the list" in page.locator("[data-testid=hidden-note]").text_content()
    # Opened again, the completed ones are hidden.
    page.locator("[data-list=inbox] a, a[data-list=inbox]").first.click()
    page.locator(f"[data-project-id='{errands['id']}'] a").click()
    wait_rows(page, ["Keys"])
    assert "3 completed tasks hidden" in page.locator("[data-testid=hidden-note]").text_content()
    assert not page._ck_errors


def test_the_undo_toast_wraps_its_words_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        garden = post(context, server, "/api/projects", {"name": "Garden"})
        post(context, server, "/api/tasks", {"title": "Water the bed of tomatoes by the back fence before the sun is up", "projectId": garden["id"]})
        page = open_list(context, server, garden)
        page.locator("[data-testid=task-check]").first.click()
        toast = page.locator("#undo-toast")
        toast.wait_for()
        text = toast.locator(".pj-toast-text")
        page.wait_for_function("() => document.querySelector('#undo-toast .pj-toast-text').textContent.includes('back fence')")
        # Nothing cut: the text's whole width and height are in its box.
        assert text.evaluate("(el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight")
        assert no_sideways_scroll(page)
        # The toast fades in: axe reads its colours once it is fully there.
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
        page.screenshot(path=str(SHOTS / "walk-toast-390x844.png"))
        assert serious_axe_violations(page) == []
        assert not page._ck_errors
    finally:
        context.close()


def test_upcoming_never_opened_online_says_offline_that_it_needs_a_first_visit(context, server):
    post(context, server, "/api/tasks", {"title": "Inbox thing"})
    page = open_list(context, server, {"id": "inbox"})
    context.set_offline(True)
    page.wait_for_function("() => navigator.onLine === false")
    page.locator("a[data-list=upcoming]").click()
    error = page.locator("[data-testid=agenda-error]")
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-error]').textContent !== ''")
    assert "Open it once while online" in error.text_content(), error.text_content()
    page.screenshot(path=str(SHOTS / "walk-upcoming-offline-1280x800.png"))
    context.set_offline(False)
    page.wait_for_function("() => document.querySelector('[data-testid=agenda-error]').textContent === ''")
    page.wait_for_function("() => document.querySelector('#agenda-body').getAttribute('aria-busy') === 'false' && document.querySelector('#agenda-summary').textContent !== ''")
    assert not page._ck_errors
