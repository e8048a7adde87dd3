"""Archiving a project in the browser: it leaves the sidebar's list for "Archived" in every open window, keeps
its ring and counts, takes no new task, and comes back when unarchived."""
import json
import os
import pathlib

import pytest

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))
HEADERS = {"Content-Type": "application/json", "X-CompletionKit": "1"}


def post(context, server, path, body):
    response = context.request.post(f"{server}{path}", data=json.dumps(body), headers=HEADERS)
    assert response.ok, response.text()
    return response.json()


def seed(context, server):
    garden = post(context, server, "/api/projects", {"name": "Garden", "color": "green"})
    post(context, server, "/api/projects", {"name": "House", "color": "blue"})
    dig = post(context, server, "/api/tasks", {"title": "Dig", "projectId": garden["id"]})["task"]
    post(context, server, "/api/tasks", {"title": "Sow", "projectId": garden["id"]})
    context.request.patch(f"{server}/api/tasks/{dig['id']}", data=json.dumps({"completed": True}), headers=HEADERS)
    return garden


def open_page(context, server, path):
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}{path}")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    page._ck_errors = errors
    return page


def listed(page, selector):
    return page.locator(f"{selector} [data-testid=project-row] .pj-nav-name").all_inner_texts()


def test_archive_leaves_the_list_in_every_window_and_comes_back(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        garden = seed(context, server)
        first = open_page(context, server, f"/projects?list={garden['id']}")
        second = open_page(context, server, "/projects")
        second.wait_for_function("() => document.querySelectorAll('#project-nav [data-testid=project-row]').length === 2")
        assert not second.locator("[data-testid=archived]").is_visible()

        first.locator("[data-testid=archive-project]").click()
        for page in (first, second):
            page.wait_for_function("() => !document.querySelector('[data-testid=archived]').hidden")
            assert listed(page, "#project-nav") == ["House"]
        assert first.locator("[data-testid=archive-project]").inner_text() == "Unarchive"
        assert first.locator("#add-task").is_disabled()
        # The ring and counts mean what they did: 1 of 2 done, 50 %.
        assert first.locator("#list-summary").inner_text() == "1 of 2 tasks done · 50%"
        second.locator("[data-testid=archived-summary]").click()
        assert listed(second, "#archived-nav") == ["Garden"]
        row = second.locator("#archived-nav [data-testid=project-row]")
        assert row.locator("[data-testid=active-count]").inner_text().split()[0] == "1"
        # A task cannot be moved into it.
        second.locator("[data-testid=inbox-row] a").click()
        post(context, server, "/api/tasks", {"title": "Call"})
        second.wait_for_selector("[data-testid=task-row]")
        second.locator("[data-testid=move-button]").first.click()
        options = second.locator("[data-testid=selector-option]").all_inner_texts()
        assert "House" in options and "Garden" not in options
        second.keyboard.press("Escape")

        first.locator("[data-testid=archive-project]").click()
        for page in (first, second):
            page.wait_for_function("() => document.querySelector('[data-testid=archived]').hidden")
            assert sorted(listed(page, "#project-nav")) == ["Garden", "House"]
        assert not first.locator("#add-task").is_disabled()
        assert not first._ck_errors and not second._ck_errors
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_archived_list_is_accessible_and_fits(browser, server, size):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, **options)
    try:
        garden = seed(context, server)
        context.request.patch(f"{server}/api/projects/{garden['id']}", data=json.dumps({"archived": True}), headers=HEADERS)
        page = open_page(context, server, "/projects" if size[0] < 600 else f"/projects?list={garden['id']}")
        page.wait_for_function("() => !document.querySelector('[data-testid=archived]').hidden")
        # The open project is an archived one (wider screens open it): its list is open to show it.
        if not page.locator("[data-testid=archived]").evaluate("details => details.open"):
            page.locator("[data-testid=archived-summary]").click()
        page.wait_for_selector("#archived-nav [data-testid=project-row]")
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"archived-{size[0]}x{size[1]}.png"), full_page=True)
        results = axe_module.Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
    finally:
        context.close()
