"""What the Projects browser tests share: the API through a context's own cookie, a page opened on a list,
the rows as drawn, and the accessibility check."""
import json

import pytest

HEADERS = {"Content-Type": "application/json", "X-CompletionKit": "1"}


def call(context, server, method, path, body=None):
    """A request as the context's person (its cookie); asserts it succeeded and answers the JSON (None for 204)."""
    response = context.request.fetch(
        f"{server}{path}", method=method, data=json.dumps(body) if body is not None else None, headers=HEADERS)
    assert response.ok, response.text()
    return response.json() if response.status != 204 else None


def post(context, server, path, body):
    return call(context, server, "POST", path, body)


def open_list(context, server, project, live=True):
    """A page on `project`'s list, ready and (unless `live` is False: a test that cuts the stream) live, collecting
    its script errors in `page._ck_errors`."""
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/projects?list={project['id']}")
    page.wait_for_function("() => document.body.dataset.ready === 'true'")
    if live:
        page.wait_for_function("() => document.querySelector('[data-testid=live-status]').dataset.state === 'live'")
    page._ck_errors = errors
    return page


def drawn_rows(page):
    """The task list's rows in order: a task's title, or "# name" for a heading."""
    return page.evaluate("""() => [...document.querySelectorAll('#task-list > li')].map((row) => row.dataset.headingId
        ? '# ' + row.querySelector('[data-testid=heading-name], [data-testid=heading-name-input]').textContent.trim()
        : row.querySelector('[data-testid=task-title]').textContent.trim())""")


def wait_rows(page, expected):
    """Waits until the task list draws exactly these rows (see drawn_rows)."""
    page.wait_for_function(
        """(expected) => JSON.stringify([...document.querySelectorAll('#task-list > li')].map((row) => row.dataset.headingId
            ? '# ' + (row.querySelector('[data-testid=heading-name]')?.textContent.trim() ?? '…')
            : row.querySelector('[data-testid=task-title]')?.textContent.trim())) === JSON.stringify(expected)""",
        arg=expected)


def serious_axe_violations(page):
    """What axe-core finds serious or critical on the page as it is (the test skips without axe)."""
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe_module.Axe().run(page)
    serious = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    return [(v["id"], v["help"], [n["target"] for n in v["nodes"]]) for v in serious]
