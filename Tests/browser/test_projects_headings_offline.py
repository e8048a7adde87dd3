"""A heading without a connection: added offline it shows at once, marked as waiting, takes the tasks put under
it (one made offline too), can be renamed, and another heading deleted; a reload offline keeps all of it; back
online every change is sent once, by the id the page proposed, even when an answer is lost on the way."""
import json
import os
import pathlib

import pytest

from projects_shared import call, open_list, post, serious_axe_violations, wait_rows

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))


def move_under(page, row, option):
    """Move… on `row`, then the selector's `option` (a heading is "Project › Heading")."""
    row.locator("[data-testid=move-button]").click()
    page.locator("[data-testid=selector-option]", has_text=option).click()


def task_row(page, title):
    return page.locator("[data-testid=task-row]", has_text=title)


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_a_heading_added_offline_waits_takes_tasks_and_is_sent_once(browser, server, size):
    options = {"is_mobile": True, "has_touch": True} if size[0] < 600 else {}
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, service_workers="allow", **options)
    try:
        garden = post(context, server, "/api/projects", {"name": "Garden", "color": "green"})
        water, dig, weed = (post(context, server, "/api/tasks", {"title": t, "projectId": garden["id"]})["task"] for t in ("Water", "Dig", "Weed"))
        someday = post(context, server, f"/api/projects/{garden['id']}/headings", {"name": "Someday"})["heading"]
        call(context, server, "PATCH", f"/api/tasks/{weed['id']}", {"headingId": someday["id"]})
        page = open_list(context, server, garden)
        wait_rows(page, ["Water", "Dig", "# Someday", "Weed"])
        # A reload offline opens the page from what the service worker kept.
        page.wait_for_function("() => document.body.dataset.offlineReady === 'true' && navigator.serviceWorker.controller !== null")
        writes = []
        page.on("request", lambda r: writes.append((r.method, r.url, r.post_data, r.headers.get("idempotency-key")))
                if ("/headings" in r.url or "/api/tasks" in r.url) and r.method != "GET" else None)

        context.set_offline(True)
        page.locator("[data-testid=add-heading]").click()
        name = page.locator("[data-testid=heading-name-input]")
        name.wait_for()
        assert name.evaluate("(input) => input === document.activeElement")
        name.fill("Spring")
        name.press("Enter")
        wait_rows(page, ["Water", "Dig", "# Someday", "Weed", "# Spring"])
        spring = page.locator("[data-testid=heading-row]", has_text="Spring")
        assert spring.get_attribute("data-waiting") == "true"
        assert spring.locator("[data-testid=heading-waiting]").text_content() == "Waiting to be sent"
        assert page.locator("[data-testid=heading-row]", has_text="Someday").get_attribute("data-waiting") is None
        page.wait_for_function("() => document.body.dataset.outbox === '2'")  # the heading, then its name

        # A task goes under it, and so does one added offline.
        move_under(page, task_row(page, "Water"), "Garden › Spring")
        wait_rows(page, ["Dig", "# Someday", "Weed", "# Spring", "Water"])
        page.locator("#add-task").fill("Sow peas")
        page.locator("#add-task").press("Enter")
        wait_rows(page, ["Dig", "Sow peas", "# Someday", "Weed", "# Spring", "Water"])
        # Marked as waiting, as the heading is; the tasks the server has are not.
        assert task_row(page, "Sow peas").locator("[data-testid=task-waiting]").text_content() == "Waiting to be sent"
        assert task_row(page, "Water").locator("[data-testid=task-waiting]").count() == 0
        move_under(page, task_row(page, "Sow peas"), "Garden › Spring")
        wait_rows(page, ["Dig", "# Someday", "Weed", "# Spring", "Water", "Sow peas"])
        assert spring.locator("[data-testid=heading-count]").text_content() == "2 tasks"

        # Renamed while it still waits; the other heading deleted offline, its task staying under none.
        spring.locator("[data-testid=heading-name]").click()
        rename = page.locator("[data-testid=heading-name-input]")
        rename.fill("Early spring")
        rename.press("Enter")
        wait_rows(page, ["Dig", "# Someday", "Weed", "# Early spring", "Water", "Sow peas"])
        page.locator("[data-testid=heading-row]", has_text="Someday").locator("[data-testid=heading-delete]").click()
        page.locator("#confirm").wait_for()
        page.locator("#confirm-yes").click()
        wait_rows(page, ["Dig", "Weed", "# Early spring", "Water", "Sow peas"])
        page.wait_for_function("() => document.body.dataset.outbox === '7'")
        status = page.locator("[data-testid=sync-status]").text_content()
        assert "You are offline" in status and "add the heading" in status, status
        assert page.locator("[data-testid=error]").text_content() == ""

        # A reload without a connection keeps all of it: the waiting heading, its tasks, the deletion.
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        wait_rows(page, ["Dig", "Weed", "# Early spring", "Water", "Sow peas"])
        waiting = page.locator("[data-testid=heading-row]", has_text="Early spring")
        assert waiting.get_attribute("data-waiting") == "true"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"heading-offline-{size[0]}x{size[1]}.png"), full_page=True)
        assert not serious_axe_violations(page)

        # Back online, the heading's first answer is lost on the way: the page sends it again with the same key
        # and the server answers from its record, so it is added once.
        lost = []

        def lose_first_answer(route):
            if route.request.method == "POST" and not lost:
                lost.append(route.fetch().status)
                route.abort()
            else:
                route.continue_()

        # On the context: the service worker lets writes through to the network, where the context sees them.
        context.route("**/api/projects/*/headings", lose_first_answer)
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'", timeout=30_000)
        assert lost == [201]
        wait_rows(page, ["Dig", "Weed", "# Early spring", "Water", "Sow peas"])
        page.wait_for_function("() => !document.querySelector('[data-testid=heading-row][data-waiting], [data-testid=task-waiting]')")
        assert page.locator("[data-testid=sync-status]").text_content() == ""

        saved = call(context, server, "GET", f"/api/projects/{garden['id']}/tasks")
        assert [h["name"] for h in saved["headings"]] == ["Early spring"], saved["headings"]
        heading_id = saved["headings"][0]["id"]
        posted = [w for w in writes if w[0] == "POST" and w[1].endswith("/headings")]
        assert {json.loads(w[2])["id"] for w in posted if w[2]} == {heading_id}, posted
        assert len({w[3] for w in posted}) == 1 and len(posted) >= 2, posted
        under = {t["title"]: t.get("headingId") for t in saved["tasks"]}
        assert under == {"Water": heading_id, "Sow peas": heading_id, "Dig": None, "Weed": None}, under
        # Every write carried its change's key; seven changes, seven keys.
        assert all(w[3] for w in writes) and len({w[3] for w in writes}) == 7, writes
        assert not page._ck_errors
    finally:
        context.close()
