"""Projects without a connection across a reload: the service worker (Public/projects-sw.js) keeps the page and the
person's lists, the changes made offline wait on top of them and are sent once when the connection returns, and
what it kept is never shown to another person."""
import json
import os
import pathlib
import uuid

import pytest

from test_projects import start

SHOTS = pathlib.Path(os.environ.get("CK_SHOTS", "/tmp/projects-shots"))


def open_online(context, server, path="/projects"):
    """Opens the page online and waits until a reload would open it offline (the worker serves it, lists kept)."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}{path}")
    page.wait_for_selector("[data-testid=project-row]", state="attached")
    page.wait_for_function("() => document.body.dataset.offlineReady === 'true' && navigator.serviceWorker.controller !== null")
    page._ck_errors = errors
    return page


def row(page, title):
    return page.locator("[data-testid=task-row]", has_text=title)


def register(browser, server, text):
    """A saved account (username and password) with its own list, made in a browser of its own."""
    name = "off" + uuid.uuid4().hex[:10]
    context = browser.new_context()
    try:
        context.request.get(f"{server}/api/me")
        made = context.request.post(f"{server}/api/account/register", data=json.dumps({"username": name, "password": "correct horse"}),
                                    headers={"Content-Type": "application/json"})
        assert made.ok, made.text()
        imported = context.request.post(f"{server}/api/projects/import", data=text, headers={"Content-Type": "text/plain", "X-CompletionKit": "1"})
        assert imported.ok, imported.text()
    finally:
        context.close()
    return name


@pytest.mark.parametrize("size", [(390, 844), (1194, 834), (1280, 800)])
def test_a_reload_offline_opens_the_kept_lists_with_the_waiting_changes_then_sends_them_once(browser, server, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, service_workers="allow")
    try:
        garden, _ = start(context, server)
        page = open_online(context, server, f"/projects?list={garden['id']}")
        row(page, "Water").wait_for()
        # The Inbox opened once online, so it is kept too.
        page.goto(f"{server}/projects?list=inbox")
        row(page, "Call Mum").wait_for()
        page.goto(f"{server}/projects?list={garden['id']}")
        row(page, "Water").wait_for()
        writes = []
        page.on("request", lambda r: writes.append((r.method, r.url, r.headers.get("idempotency-key"))) if "/api/tasks" in r.url and r.method != "GET" else None)

        context.set_offline(True)
        row(page, "Water").locator("[data-testid=task-check]").click()
        page.wait_for_function("() => document.body.dataset.outbox === '1'")
        page.locator("#add-task").fill("Buy twine")
        page.locator("#add-task").press("Enter")
        page.wait_for_function("() => document.body.dataset.outbox === '2'")

        # A reload without a connection: the page opens (not the browser's "No internet" page) with the lists
        # kept and the two waiting changes shown over them.
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        row(page, "Buy twine").wait_for()
        assert row(page, "Water").get_attribute("data-completed") == "true"
        assert row(page, "Dig the beds").count() == 1
        assert page.locator("[data-testid=project-row]", has_text="Kitchen").count() == 1
        status = page.locator("[data-testid=sync-status]").text_content()
        assert "You are offline" in status and "2 changes waiting to be sent" in status, status
        page.wait_for_function("() => document.querySelector('[data-testid=live-status]').textContent === 'Offline'")
        assert page.locator("[data-testid=error]").text_content() == ""
        # Another list opens offline from what was kept too.
        page.goto(f"{server}/projects?list=inbox")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        row(page, "Call Mum").wait_for()
        page.goto(f"{server}/projects?list={garden['id']}")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        row(page, "Buy twine").wait_for()

        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"offline-reload-{size[0]}x{size[1]}.png"))
        axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
        results = axe_module.Axe().run(page)
        serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
        assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]

        # Back online: both changes reach the server, each once, and the page says nothing waits.
        context.set_offline(False)
        page.wait_for_function("() => document.body.dataset.outbox === '0'")
        page.wait_for_function("() => document.querySelector('#list-summary').textContent.startsWith('2 of 4 tasks done')")
        listed = context.request.get(f"{server}/api/projects/{garden['id']}/tasks").json()["tasks"]
        assert [t["title"] for t in listed].count("Buy twine") == 1, listed
        assert next(t for t in listed if t["title"] == "Water")["completed"]
        # Every try carried its change's Idempotency-Key (a try that failed offline went again with the same key).
        assert all(w[2] for w in writes) and len({w[2] for w in writes}) == 2, writes
        assert page.locator("[data-testid=sync-status]").text_content() == ""
        assert not page._ck_errors
    finally:
        context.close()


def test_what_was_kept_is_never_shown_to_another_person(browser, server):
    other = register(browser, server, "# Holidays\n- Pack the tent\n")
    context = browser.new_context(service_workers="allow")
    try:
        start(context, server)
        page = open_online(context, server)
        assert page.locator("[data-testid=project-row]", has_text="Garden").count() == 1

        # The worker serves the Projects page only: the home page and the other systems' pages are not its.
        home = context.new_page()
        for path in ("/", "/cryptogram", "/kids"):
            home.goto(f"{server}{path}")
            assert home.evaluate("navigator.serviceWorker.controller") is None, path

        # Another person signs in on the home page, then the browser goes offline: Projects does not open the
        # first person's lists (it has nothing kept for this one yet).
        home.goto(f"{server}/")
        home.locator("#tab-login").click()
        home.locator("#login-form input[name=username]").fill(other)
        home.locator("#login-form input[name=password]").fill("correct horse")
        home.locator("#login-form button[type=submit]").click()
        home.wait_for_function("() => document.querySelector('[data-who]').textContent.includes('Signed in as')")
        context.set_offline(True)
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        assert page.locator("[data-testid=error]").text_content() != ""
        assert "Garden" not in page.locator("body").inner_text()
        assert "Call Mum" not in page.locator("body").inner_text()

        # Online again the page is this person's; offline after that it opens with their lists and only theirs.
        context.set_offline(False)
        page.reload()
        page.wait_for_selector("[data-testid=project-row]", state="attached")
        page.wait_for_function("() => document.body.dataset.offlineReady === 'true'")
        context.set_offline(True)
        page.reload()
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        page.locator("[data-testid=project-row]", has_text="Holidays").wait_for(state="attached")
        assert "Garden" not in page.locator("body").inner_text()
    finally:
        context.close()


def test_a_sign_in_the_page_did_not_see_still_drops_what_was_kept(browser, server):
    """A sign-in made without the home page (another tool on this browser): the first answer naming the new person
    drops what was kept for the one before."""
    other = register(browser, server, "# Holidays\n- Pack the tent\n")
    context = browser.new_context(service_workers="allow")
    try:
        garden, _ = start(context, server)
        page = open_online(context, server, f"/projects?list={garden['id']}")
        row(page, "Water").wait_for()
        signed_in = context.request.post(f"{server}/api/account/login", data=json.dumps({"username": other, "password": "correct horse"}),
                                         headers={"Content-Type": "application/json", "X-CompletionKit": "1"})
        assert signed_in.ok, signed_in.text()
        page.reload()
        page.locator("[data-testid=project-row]", has_text="Holidays").wait_for(state="attached")
        # The list the page opens offline is the Inbox: the new person's is empty, the first person's had "Call Mum".
        context.set_offline(True)
        page.goto(f"{server}/projects?list=inbox")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        page.locator("[data-testid=project-row]", has_text="Holidays").wait_for(state="attached")
        text = page.locator("body").inner_text()
        assert "Garden" not in text and "Call Mum" not in text
        # Nothing of the first person's is kept any more, not even the Garden list no page of this person asks for.
        kept = page.evaluate("""async () => {
            const urls = [];
            for (const name of await caches.keys()) {
              if (!name.startsWith('projects-data-')) continue;
              for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
            }
            return urls;
        }""")
        assert kept and not [url for url in kept if garden["id"] in url], kept
    finally:
        context.close()


def test_a_new_version_of_the_worker_drops_the_caches_of_the_old_one(browser, server):
    context = browser.new_context(service_workers="allow")
    try:
        start(context, server)
        home = context.new_page()
        home.goto(f"{server}/")
        home.evaluate("""async () => {
            await (await caches.open('projects-shell-v0')).put('/projects', new Response('an old shell'));
            await (await caches.open('projects-data-v0')).put('/api/projects', new Response('{}'));
        }""")
        page = open_online(context, server)
        names = page.evaluate("caches.keys()")
        assert "projects-shell-v0" not in names and "projects-data-v0" not in names, names
        assert any(name.startswith("projects-shell-v") for name in names), names
        # Online, the page is the server's: what the worker keeps is the network's answer, not an old copy.
        kept = page.evaluate("""async () => {
            const name = (await caches.keys()).find((n) => n.startsWith('projects-shell-v'));
            return (await (await (await caches.open(name)).match('/projects')).text());
        }""")
        assert kept == context.request.get(f"{server}/projects").text()
    finally:
        context.close()


def test_changes_waiting_for_one_person_are_neither_shown_to_nor_sent_as_another(browser, server):
    other = register(browser, server, "# Holidays\n- Pack the tent\n")
    context = browser.new_context(service_workers="allow")
    try:
        garden, _ = start(context, server)
        page = open_online(context, server, f"/projects?list={garden['id']}")
        # The server cannot be reached for writes: the first person's change waits in this browser.
        page.route("**/api/tasks**", lambda route: route.abort() if route.request.method != "GET" else route.continue_())
        row(page, "Water").locator("[data-testid=task-check]").click()
        page.wait_for_function("() => document.body.dataset.outbox === '1'")
        assert "Water" in page.locator("[data-testid=sync-status]").text_content()

        # Another person signs in on this browser's home page and opens Projects: nothing of the first person's waits.
        home = context.new_page()
        home.goto(f"{server}/")
        home.locator("#tab-login").click()
        home.locator("#login-form input[name=username]").fill(other)
        home.locator("#login-form input[name=password]").fill("correct horse")
        home.locator("#login-form button[type=submit]").click()
        home.wait_for_function("() => document.querySelector('[data-who]').textContent.includes('Signed in as')")
        page.unroute("**/api/tasks**")
        page.reload()
        page.locator("[data-testid=project-row]", has_text="Holidays").wait_for(state="attached")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        assert page.evaluate("document.body.dataset.outbox") == "0"
        assert "Water" not in page.locator("[data-testid=sync-status]").text_content()
        # Nothing was sent into this person's account, and the first person's change is still kept for them.
        mine = context.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"]
        assert mine == [], mine
        kept = json.loads(page.evaluate("localStorage.getItem('completionkit.projects.outbox')"))
        assert [change["title"] for change in kept] == ["Water"], kept
    finally:
        context.close()
