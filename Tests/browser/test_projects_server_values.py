"""Projects shows the server's labels, limits and ring geometry, and keeps no copy of its own.

Each test changes the values in the server's real answer to GET /api/projects (the rest of the answer, and every
other request, is the server's own) and checks the page shows the changed values: a page that went back to
its own copy would show the old ones.
"""
import json

import pytest

from test_projects import start, toggle, wait_for_ring


def rewrite_overview(page, change):
    """Lets `change` edit the body of every GET /api/projects answer before the page reads it."""
    def handle(route):
        if route.request.method != "GET":
            return route.continue_()
        response = route.fetch()
        body = response.json()
        change(body)
        route.fulfill(response=response, body=json.dumps(body), content_type="application/json")
    page.route("**/api/projects", handle)


def open_list(context, server, project_id, change=None):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page._ck_errors = errors
    if change:
        rewrite_overview(page, change)
    page.goto(f"{server}/projects?list={project_id}")
    page.wait_for_selector("body[data-ready=true]", state="attached")
    page.wait_for_selector("[data-testid=task-row]")
    return page


@pytest.fixture()
def context(browser):
    # Every test here rewrites GET /api/projects with page.route, which a service worker's answer would bypass.
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    yield context
    context.close()


def test_the_page_shows_the_servers_labels_and_takes_its_limits(context, server):
    garden, tasks = start(context, server)
    dig = next(t for t in tasks if t["title"] == "Dig the beds")
    response = context.request.patch(
        f"{server}/api/tasks/{dig['id']}", data=json.dumps({"priority": "high"}), headers={"Content-Type": "application/json"})
    assert response.ok, response.text()
    real = context.request.get(f"{server}/api/projects").json()

    # The server's own values reach the fields.
    page = open_list(context, server, garden["id"])
    assert page.eval_on_selector("#add-task", "e => e.maxLength") == real["limits"]["title"]
    assert page.eval_on_selector("#project-name", "e => e.maxLength") == real["limits"]["name"]
    assert page.eval_on_selector("#project-notes", "e => e.maxLength") == real["limits"]["notes"]
    page.close()

    def change(body):
        body["colorLabels"] = [{"value": c["value"], "label": f"Colour {c['value']}"} for c in body["colorLabels"]]
        body["priorities"] = [{"value": p["value"], "label": f"Urgency {p['value']}"} for p in body["priorities"]]
        body["limits"] = {**body["limits"], "name": 17, "title": 42, "notes": 99}

    page = open_list(context, server, garden["id"], change)
    assert page.eval_on_selector("#add-task", "e => e.maxLength") == 42
    assert page.eval_on_selector("#project-name", "e => e.maxLength") == 17
    assert page.eval_on_selector("#project-notes", "e => e.maxLength") == 99
    # The colour picker names each colour as the server does.
    names = page.eval_on_selector_all("#swatches .pj-swatch", "ls => ls.map((l) => [l.dataset.color, l.querySelector('.vh').textContent])")
    assert names and all(label == f"Colour {color}" for color, label in names), names
    # A task's priority marker and the priority menu use the server's words.
    row = page.locator("[data-testid=task-row]", has_text="Dig the beds")
    assert "Urgency high" in row.get_by_test_id("task-priority-marker").text_content()
    row.get_by_test_id("task-expand").click()
    options = row.locator("[data-testid=task-priority] option")
    assert options.evaluate_all("os => os.map((o) => [o.value, o.textContent])") == [
        [p["value"], f"Urgency {p['value']}"] for p in real["priorities"]]
    assert row.get_by_test_id("task-notes").get_attribute("maxlength") == "99"
    # Renaming a task takes the server's title limit.
    row.get_by_test_id("task-title").click()
    assert page.get_by_test_id("task-title-input").get_attribute("maxlength") == "42"
    assert not page._ck_errors


def alpha_at(page, selector, x, y):
    """The opacity (0–255) of one pixel of a ring's canvas, in CSS pixels from its corner."""
    return page.eval_on_selector(
        selector, "(c, [x, y]) => c.getContext('2d').getImageData(Math.floor(x * c.width / c.clientWidth), Math.floor(y * c.height / c.clientHeight), 1, 1).data[3]",
        [x, y])


def test_the_ring_is_drawn_with_the_servers_geometry(context, server):
    _, _ = start(context, server)
    overview = context.request.get(f"{server}/api/projects").json()
    kitchen = next(p for p in overview["projects"] if p["name"] == "Kitchen")
    door = context.request.get(f"{server}/api/projects/{kitchen['id']}/tasks").json()["tasks"][0]
    toggle(context, server, door["id"], True)  # a finished project: the pie is a whole disc
    ring = "#head-mark canvas"

    # The header's ring is 20 px: with the server's geometry (pie 0.56 of the size, inner ring 0.6) a point
    # 7.5 px right of the centre lies between the pie and the outer ring, so it stays clear.
    page = open_list(context, server, kitchen["id"])
    wait_for_ring(page, kitchen["id"], 1)
    shape = overview["ring"]["geometry"]
    assert shape["pie"] * 20 / 2 < 7 and shape["innerRing"] * 20 / 2 + shape["outerStroke"] / 2 <= 7
    assert alpha_at(page, ring, 10.5, 10.5) > 200  # the centre: the pie is drawn
    assert alpha_at(page, ring, 17.5, 10.5) == 0
    page.close()

    # A wider pie from the server reaches that point.
    def change(body):
        body["ring"]["geometry"] = {**body["ring"]["geometry"], "pie": 0.9}

    page = open_list(context, server, kitchen["id"], change)
    wait_for_ring(page, kitchen["id"], 1)
    assert alpha_at(page, ring, 10.5, 10.5) > 200
    assert alpha_at(page, ring, 17.5, 10.5) > 200
    assert not page._ck_errors
