"""The ring's test bench (/projects/lab): a real test project driven through the API, every ring size, the server's
value beside the ring's, the animation's plot, and a warning when they disagree."""
import json

import pytest

AGREES = "() => document.querySelector('#main').dataset.agrees === 'true' && document.querySelector('#lab-busy').textContent === ''"


@pytest.fixture()
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


def open_bench(context, server, create=True):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._ck_errors = errors
    page.goto(f"{server}/projects/lab")
    page.wait_for_selector("body[data-ready=true]")
    if create:
        page.get_by_role("button", name="Make the test project").click()
        page.wait_for_selector("[data-testid=lab-bench]:not([hidden])")
        page.wait_for_function(AGREES)
    return page


def bench_project(context, server):
    overview = context.request.get(f"{server}/api/projects").json()
    return next(p for p in overview["projects"] if p["name"] == "Ring test bench")


def settle(page, percent):
    page.wait_for_function(
        "(p) => document.querySelector('#lab-expected').textContent === p + '%' && " + AGREES[6:],
        arg=percent)


def test_presets_fill_and_empty_a_real_project_that_moves_in_every_window(context, server):
    lab = open_bench(context, server)
    project = bench_project(context, server)
    assert project["total"] == 20 and project["completed"] == 0

    # The Projects page, open beside the bench, follows the bench's changes live.
    projects = context.new_page()
    projects.goto(f"{server}/projects")
    projects.wait_for_selector(f"[data-testid=project-row][data-project-id='{project['id']}']")
    projects.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'live'")

    lab.get_by_role("button", name="50%", exact=True).click()
    settle(lab, 50)
    assert lab.locator("[data-testid=lab-actual]").text_content() == "50.0%"
    assert lab.locator("[data-testid=lab-warning]").is_hidden()
    stored = bench_project(context, server)
    assert (stored["completed"], stored["total"], stored["percent"]) == (10, 20, 50)
    projects.wait_for_function(
        "(id) => window.__rings.target(id) === 0.5 && window.__rings.value(id) === 0.5", arg=project["id"])

    # The seed's transitions, each ending where the server says.
    for name, percent in [("50 → 100", 100), ("100 → 50", 50), ("50 → 0", 0), ("0 → 50", 50)]:
        lab.get_by_role("button", name=name, exact=True).click()
        settle(lab, percent)
        assert lab.locator("[data-testid=lab-actual]").text_content() == f"{percent}.0%"
    # The plot says the ring never stepped back against its target.
    assert lab.locator("[data-testid=lab-plot]").get_attribute("data-backwards") == "0"
    projects.wait_for_function(
        "(id) => window.__rings.target(id) === 0.5 && !window.__rings.moving(id)", arg=project["id"])
    assert not lab._ck_errors


def test_the_slider_and_every_ring_size_show_the_servers_value(context, server):
    lab = open_bench(context, server)
    slider = lab.locator("[data-testid=lab-slider]")
    slider.focus()
    for _ in range(5):
        lab.keyboard.press("ArrowRight")  # 5 % a step: one task of twenty each
    settle(lab, 25)
    rings = lab.locator("[data-testid=lab-rings] [data-testid=ring]")
    assert sorted(int(size) for size in rings.evaluate_all("(els) => els.map((e) => e.dataset.size)")) == [10, 12, 16, 20, 96]
    assert set(rings.evaluate_all("(els) => els.map((e) => e.getAttribute('aria-valuenow'))")) == {"25"}
    assert set(rings.evaluate_all("(els) => els.map((e) => e.dataset.value)")) == {"0.25"}
    facts = lab.locator("[data-testid=lab-facts]").text_content()
    assert "0.4 s" in facts and "41 samples" in facts


def test_a_burst_of_ten_changes_ends_on_the_servers_value(context, server):
    lab = open_bench(context, server)
    lab.get_by_role("button", name="25%", exact=True).click()
    settle(lab, 25)
    lab.get_by_role("button", name="Burst of ten changes").click()
    lab.wait_for_function("() => document.querySelector('#lab-busy').textContent === ''")
    lab.wait_for_function(AGREES)
    stored = bench_project(context, server)
    assert lab.locator("[data-testid=lab-expected]").text_content() == f"{stored['percent']}%"
    assert float(lab.locator("[data-testid=lab-actual]").get_attribute("data-fraction")) == stored["fraction"]
    # Tasks 1–5 were done and are reopened, 6–10 were open and are done: still five of twenty.
    assert stored["completed"] == 5
    assert "Changes sent15" in lab.locator("[data-testid=lab-facts]").text_content()  # five, then the ten
    assert lab.locator("[data-testid=lab-plot]").get_attribute("data-backwards") == "0"


def test_a_ring_that_missed_a_change_is_flagged(context, server):
    """With the live stream cut, a change made elsewhere leaves the ring behind: the check against the server says so."""
    lab = open_bench(context, server)
    project = bench_project(context, server)
    lab.close()
    lab = context.new_page()
    lab.route("**/api/projects/events", lambda route: route.abort())
    lab.goto(f"{server}/projects/lab")
    lab.wait_for_selector("[data-testid=lab-bench]:not([hidden])")
    lab.wait_for_function(AGREES)
    task = context.request.get(f"{server}/api/projects/{project['id']}/tasks").json()["tasks"][0]
    changed = context.request.patch(
        f"{server}/api/tasks/{task['id']}", data=json.dumps({"completed": True}), headers={"Content-Type": "application/json"})
    assert changed.ok
    lab.get_by_role("button", name="Check against the server").click()
    warning = lab.locator("[data-testid=lab-warning]")
    warning.wait_for()
    assert "server says 5%" in warning.text_content()
    assert lab.locator("[data-testid=lab-actual]").text_content() == "0.0%"


def test_the_projects_page_links_to_the_bench_and_the_bench_deletes_its_project(context, server):
    lab = open_bench(context, server)
    projects = context.new_page()
    projects.goto(f"{server}/projects")
    projects.get_by_role("link", name="Open the ring test bench").click()
    projects.wait_for_url(f"{server}/projects/lab")
    projects.wait_for_selector("[data-testid=lab-bench]:not([hidden])")
    lab.get_by_role("button", name="Delete the test project").click()
    lab.wait_for_selector("[data-testid=lab-setup]:not([hidden])")
    # The other window hears of it through the live stream.
    projects.wait_for_selector("[data-testid=lab-setup]:not([hidden])")
    assert "deleted" in projects.locator("[data-testid=error]").text_content()
    overview = context.request.get(f"{server}/api/projects").json()
    assert not any(p["name"] == "Ring test bench" for p in overview["projects"])


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_no_serious_accessibility_problems_on_the_bench(browser, server, size):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        lab = open_bench(context, server)
        lab.get_by_role("button", name="75%", exact=True).click()
        settle(lab, 75)
        results = axe_module.Axe().run(lab)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
        assert lab.evaluate("document.documentElement.scrollWidth") <= size[0]
    finally:
        context.close()


# MARK: A list of 10,000 tasks

BIG = 10000


def import_big_inbox(context, server):
    for part in range(2):  # the import takes at most 5,000 tasks at once
        lines = "".join(f"Inbox task {part * 5000 + i + 1}\n" for i in range(5000))
        response = context.request.post(
            f"{server}/api/projects/import", data=lines, headers={"Content-Type": "text/plain", "X-CompletionKit": "1"})
        assert response.ok, response.text()


def test_a_list_of_ten_thousand_tasks_opens_scrolls_and_changes_one_row(routed_context, server):
    context = routed_context
    import_big_inbox(context, server)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/projects?list=inbox")
    page.wait_for_selector("[data-testid=task-row]")
    page.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'live'")
    rows = page.locator("[data-testid=task-row]")
    # Only the rows near the screen are in the document, each saying where it is in the whole list.
    assert rows.count() < 200
    assert rows.first.get_attribute("aria-setsize") == str(BIG)
    assert rows.first.get_attribute("aria-posinset") == "1"
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > BIG * 30  # the scroll height stands for every row

    # To the end, as the End key would.
    page.keyboard.press("End")
    page.wait_for_selector(f"[data-testid=task-row][aria-posinset='{BIG}']")
    last = page.locator(f"[data-testid=task-row][aria-posinset='{BIG}']")
    assert "Inbox task 10000" in last.text_content()
    assert abs(page.evaluate("document.documentElement.scrollHeight") - height) < height * 0.05  # stable

    # Toggling one row changes that row only: one row replaced, none when its own live update arrives.
    page.evaluate("""() => {
      window.__added = 0;
      window.__rowObserver = new MutationObserver((records) => {
        for (const record of records) window.__added += [...record.addedNodes].filter((n) => n.dataset && n.dataset.taskId).length;
      });
      window.__rowObserver.observe(document.getElementById('task-list'), { childList: true });
      for (const row of document.querySelectorAll('[data-testid=task-row]')) row.__kept = true;
    }""")
    last.locator("[data-testid=task-check]").click()
    page.wait_for_function("() => document.querySelector('#list-summary').textContent.startsWith('1 of 10000 tasks done')")
    page.wait_for_function(
        "() => document.querySelector(\"[data-testid=task-row][aria-posinset='10000']\").dataset.completed === 'true'")
    # The live update of this change arrives too; wait until the server's revision was seen, then check nothing re-rendered.
    inbox = context.request.get(f"{server}/api/projects/inbox/tasks").json()["inbox"]
    assert inbox["completed"] == 1 and inbox["total"] == BIG
    page.wait_for_function("(r) => document.querySelector('#list-summary').textContent.startsWith('1 of') && window.__added <= 1", arg=inbox["revision"])
    kept = page.evaluate("[...document.querySelectorAll('[data-testid=task-row]')].filter((r) => !r.__kept).map((r) => r.getAttribute('aria-posinset'))")
    assert kept == [str(BIG)], kept
    assert page.evaluate("window.__added") == 1

    # Keyboard: from the last row, k moves up to the row before it.
    last = page.locator(f"[data-testid=task-row][aria-posinset='{BIG}']")
    last.focus()
    page.keyboard.press("k")
    page.wait_for_function("() => document.activeElement.getAttribute('aria-posinset') === '9999'")
    # And back to the top: the first row is drawn again when scrolled to.
    page.keyboard.press("Home")
    page.wait_for_selector("[data-testid=task-row][aria-posinset='1']")

    # Coming back shows the rows kept from this visit while the server's answer is on its way.
    page.goto("about:blank")
    held = []
    page.route("**/api/projects/inbox/tasks", lambda route: held.append(route))
    page.goto(f"{server}/projects?list=inbox")
    page.wait_for_selector("[data-testid=task-row][aria-posinset='1']")
    assert page.locator("#task-list").get_attribute("aria-busy") == "true"
    page.wait_for_function("() => document.querySelector('#list-summary').textContent.startsWith('1 of 10000')")
    assert len(held) == 1  # the answer has not come yet
    held[0].continue_()
    page.wait_for_function("() => document.querySelector('#task-list').getAttribute('aria-busy') === 'false'")
    assert page.locator("[data-testid=task-row]").first.get_attribute("aria-setsize") == str(BIG)
    assert not errors


def import_lines(context, server, text):
    response = context.request.post(
        f"{server}/api/projects/import", data=text, headers={"Content-Type": "text/plain", "X-CompletionKit": "1"})
    assert response.ok, response.text()


def test_a_long_list_opens_with_its_first_page_and_the_rest_follows(context, server):
    import_lines(context, server, "# Long\n" + "".join(f"Project task {i + 1}\n" for i in range(300)))
    import_lines(context, server, "".join(f"Inbox task {i + 1}\n" for i in range(250)))
    long_id = next(p["id"] for p in context.request.get(f"{server}/api/projects").json()["projects"] if p["name"] == "Long")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/tasks" in request.url else None)
    # The rest of each list waits here until the test lets it go.
    held = []
    page.route(lambda url: "/tasks?after=" in url, lambda route: held.append(route))

    # The project: its first page shows, counted as the whole list, with a word that the rest is coming.
    page.goto(f"{server}/projects?list={long_id}")
    page.wait_for_function("() => !document.querySelector('[data-testid=list-rest]').hidden")
    assert any(url.endswith(f"/api/projects/{long_id}/tasks?limit=100") for url in asked), asked
    assert page.locator("[data-testid=list-rest]").text_content() == "Loading the other 200 tasks…"
    first = page.locator("[data-testid=task-row]").first
    assert "Project task 1" in first.text_content()
    assert first.get_attribute("aria-setsize") == "300"
    assert page.locator("#list-summary").text_content().startswith("0 of 300 tasks done")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > 300 * 30  # the scroll bar is already as long as the whole list
    assert len(held) == 1 and f"/api/projects/{long_id}/tasks?after=" in held[0].request.url
    # The rest arrives: every row is there, in order, and the word goes.
    held.pop().continue_()
    page.wait_for_function("() => document.querySelector('[data-testid=list-rest]').hidden")
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=task-row][aria-posinset='300']")
    assert "Project task 300" in page.locator("[data-testid=task-row][aria-posinset='300']").text_content()
    assert "Project task 299" in page.locator("[data-testid=task-row][aria-posinset='299']").text_content()

    # The Inbox: a task completed while the rest is on its way changes the list between the pages; the server
    # refuses the stale second page (409 list_changed) and the page reads the list whole again.
    page.evaluate("scrollTo(0, 0)")
    page.locator("[data-testid=inbox-row] a").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=list-rest]').hidden")
    assert page.locator("[data-testid=list-rest]").text_content() == "Loading the other 150 tasks…"
    page.locator("[data-testid=task-row]").first.locator("[data-testid=task-check]").click()
    page.wait_for_function("() => document.querySelector('#list-summary').textContent.startsWith('1 of 250 tasks done')")
    refused = []
    page.on("response", lambda response: refused.append(response.status) if "/tasks?after=" in response.url else None)
    assert len(held) == 1
    held.pop().continue_()
    page.wait_for_function("() => document.querySelector('[data-testid=list-rest]').hidden")
    assert refused == [409]
    page.keyboard.press("End")
    page.wait_for_selector("[data-testid=task-row][aria-posinset='250']")
    assert "Inbox task 250" in page.locator("[data-testid=task-row][aria-posinset='250']").text_content()
    page.evaluate("scrollTo(0, 0)")
    page.wait_for_selector("[data-testid=task-row][aria-posinset='1']")
    assert page.locator("[data-testid=task-row][aria-posinset='1']").get_attribute("data-completed") == "true"
    assert page.locator("#error").text_content() == ""
    assert not errors
