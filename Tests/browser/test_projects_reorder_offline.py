"""Reordering tasks without a connection: Alt+↓/↑ or a drag offline moves the rows at once, the new order waits (several of
one list folded into the last), a reload offline keeps it, and back online it is sent once, after the changes made
before it. An order the server refuses because the list changed elsewhere meanwhile is said kindly, and the list
shows the order saved."""
import json
import os
import pathlib

import pytest

from projects_shared import call, open_list, post, serious_axe_violations, wait_rows

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))


def task_row(page, title):
    return page.locator("[data-testid=task-row]", has_text=title)


def step(page, title, key):
    """Alt+`key` on the task row `title`, focused as the keyboard leaves it."""
    task_row(page, title).focus()
    page.keyboard.press(key)


def status(page):
    return page.locator("[data-testid=sync-status]").text_content()


def groceries(context, server):
    project = post(context, server, "/api/projects", {"name": "Groceries", "color": "green"})
    for title in ("Milk", "Bread", "Eggs"):
        post(context, server, "/api/tasks", {"title": title, "projectId": project["id"]})
    return project


def groceries_ready_offline(context, server):
    """Groceries with its three tasks, its list open, and the page ready to work without a connection."""
    project = groceries(context, server)
    page = open_list(context, server, project)
    wait_rows(page, ["Milk", "Bread", "Eggs"])
    page.wait_for_function("() => document.body.dataset.offlineReady === 'true' && navigator.serviceWorker.controller !== null")
    return project, page


def milk_moved_down_offline(context, page):
    """Offline, Alt+↓ on Milk: the rows show the new order at once and one change waits."""
    context.set_offline(True)
    step(page, "Milk", "Alt+ArrowDown")
    wait_rows(page, ["Bread", "Milk", "Eggs"])
    page.wait_for_function("() => document.body.dataset.outbox === '1'")


def saved_titles(context, server, project):
    return [t["title"] for t in call(context, server, "GET", f"/api/projects/{project['id']}/tasks")["tasks"]]


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_a_reorder_offline_shows_at_once_survives_a_reload_and_is_sent_once(browser, server, size):
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, service_workers="allow", **options)
    try:
        project, page = groceries_ready_offline(context, server)

        milk_moved_down_offline(context, page)
        assert "1 change waiting to be sent: reorder “Groceries”." in status(page), status(page)
        assert page.locator("[data-testid=error]").text_content() == ""
        # A second move of the same list is folded into the first: one order waits, the last.
        step(page, "Milk", "Alt+ArrowDown")
        wait_rows(page, ["Bread", "Eggs", "Milk"])
        assert page.evaluate("document.body.dataset.outbox") == "1"
        # A task added offline, then moved: the add waits first, the (folded) order after it names the new task.
        page.locator("#add-task").fill("Butter")
        page.locator("#add-task").press("Enter")
        wait_rows(page, ["Bread", "Eggs", "Milk", "Butter"])
        step(page, "Butter", "Alt+ArrowUp")
        wait_rows(page, ["Bread", "Eggs", "Butter", "Milk"])
        page.wait_for_function("() => document.body.dataset.outbox === '2'")
        assert "2 changes waiting to be sent: add “Butter”, reorder “Groceries”." in status(page), status(page)
        assert page.locator("[data-testid=error]").text_content() == ""

        # A reload without a connection keeps the order and what waits.
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        wait_rows(page, ["Bread", "Eggs", "Butter", "Milk"])
        assert page.evaluate("document.body.dataset.outbox") == "2"
        assert "You are offline" in status(page) and "reorder “Groceries”" in status(page), status(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"reorder-offline-{size[0]}x{size[1]}.png"))
        page.locator("[data-testid=sync-status]").screenshot(path=str(SHOTS / f"reorder-offline-status-{size[0]}x{size[1]}.png"))
        assert not serious_axe_violations(page)

        # Back online: the add, then the order, each sent once (on the context: writes pass the service worker).
        sent = []

        def record(route):
            sent.append((route.request.method, route.request.url.split("/api/", 1)[1], route.request.post_data))
            route.continue_()

        context.route("**/api/tasks**", record)
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=30_000)
        wait_rows(page, ["Bread", "Eggs", "Butter", "Milk"])
        assert saved_titles(context, server, project) == ["Bread", "Eggs", "Butter", "Milk"]
        writes = [(method, path) for method, path, _ in sent if method != "GET"]
        assert writes == [("POST", "tasks"), ("PUT", "tasks/order")], sent
        ordered = json.loads(next(body for method, _, body in sent if method == "PUT"))
        assert not any(i.startswith("offline-") for i in ordered["ids"]) and ordered["projectId"] == project["id"], ordered
        page.wait_for_function("() => document.querySelector('[data-testid=sync-status]').textContent === ''")
        assert page.locator("[data-testid=error]").text_content() == ""
        assert not page._ck_errors
    finally:
        context.close()


def test_an_order_kept_offline_that_meets_a_list_changed_elsewhere_is_said_kindly_and_the_saved_order_shows(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="allow")
    try:
        project, page = groceries_ready_offline(context, server)

        context.set_offline(True)
        # By dragging this time: Eggs' handle to above the middle of Bread.
        handle = task_row(page, "Eggs").locator("[data-testid=drag-handle]")
        handle.hover()
        box = handle.bounding_box()
        target = task_row(page, "Bread").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        for part in range(1, 11):
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + (target["y"] + 4 - box["y"]) * part / 10)
        page.mouse.up()
        wait_rows(page, ["Milk", "Eggs", "Bread"])
        page.wait_for_function("() => document.body.dataset.outbox === '1'")
        # Meanwhile another device (the same person, online) adds a task to the list: the kept order no longer
        # names every task of it.
        elsewhere = browser.new_context(storage_state=context.storage_state())
        try:
            post(elsewhere, server, "/api/tasks", {"title": "Jam", "projectId": project["id"]})
        finally:
            elsewhere.close()

        answers = []

        def record(route):
            response = route.fetch()
            answers.append((response.status, response.json().get("code")))
            route.fulfill(response=response)

        context.route("**/api/tasks/order", record)
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=30_000)
        # The server's answer, once; the page says it in words and shows the list as saved, the new task too.
        assert answers == [(400, "order_mismatch")], answers
        page.wait_for_function("() => document.querySelector('[data-testid=sync-status]').textContent.includes('Your new order')")
        assert status(page) == ("Your new order of “Groceries” was not saved: the list changed elsewhere meanwhile, "
                                "so it shows the order saved there."), status(page)
        wait_rows(page, ["Milk", "Bread", "Eggs", "Jam"])
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "reorder-refused-1280x800.png"))
        assert saved_titles(context, server, project) == ["Milk", "Bread", "Eggs", "Jam"]
        assert not serious_axe_violations(page)
        assert not page._ck_errors
    finally:
        context.close()


def test_an_order_whose_answer_is_lost_is_sent_again_and_the_list_keeps_that_order(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="allow")
    try:
        project, page = groceries_ready_offline(context, server)

        milk_moved_down_offline(context, page)

        # Back online, the server saves the order but its answer never reaches the page (the connection drops on the
        # way back): the page keeps the change, sends it again later, and the same order is set once more.
        answers = []

        def lose_the_first_answer(route):
            response = route.fetch()
            answers.append(response.status)
            if len(answers) == 1:
                route.abort("connectionreset")
            else:
                route.fulfill(response=response)

        context.route("**/api/tasks/order", lose_the_first_answer)
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=30_000)
        assert answers == [204, 204], answers
        assert saved_titles(context, server, project) == ["Bread", "Milk", "Eggs"]
        wait_rows(page, ["Bread", "Milk", "Eggs"])
        page.wait_for_function("() => document.querySelector('[data-testid=sync-status]').textContent === ''")
        assert page.locator("[data-testid=error]").text_content() == ""
        assert not page._ck_errors
    finally:
        context.close()
