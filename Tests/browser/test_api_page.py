"""The /api page: the server's OpenAPI document, readable by people."""
import json
import pathlib

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

DOCUMENT = json.loads((pathlib.Path(__file__).resolve().parents[2] / "Public" / "openapi.json").read_text())
OPERATIONS = sum(1 for item in DOCUMENT["paths"].values() for method in item if method in ("get", "post", "put", "patch", "delete"))


def serious(page):
    return [v["id"] for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]


def test_every_operation_is_listed_and_the_filter_narrows_them(page, server):
    page.goto(server + "/api")
    expect(page.locator("#ad-title")).to_contain_text(DOCUMENT["info"]["title"])
    expect(page.locator("#ad-filter-count")).to_have_text(f"{OPERATIONS} operations.")
    expect(page.locator("details.ad-op")).to_have_count(OPERATIONS)
    page.fill("#ad-filter-input", "tasks order")
    expect(page.locator("#ad-filter-count")).to_contain_text(f"1 of {OPERATIONS}")
    expect(page.locator("details.ad-op:visible")).to_have_count(1)
    expect(page.locator("details.ad-op:visible")).to_contain_text("/api/tasks/order")
    page.fill("#ad-filter-input", "no such thing anywhere")
    expect(page.locator("#ad-empty")).to_be_visible()
    assert serious(page) == []


def test_a_deep_link_opens_its_operation_with_its_schemas(browser, server):
    for width, height in [(390, 844), (1194, 834), (1280, 800)]:
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server + "/api#createTask")
        operation = page.locator("details#createTask")
        expect(operation).to_have_attribute("open", "")
        expect(operation).to_contain_text("TaskCreateRequest")
        expect(operation).to_contain_text("X-CompletionKit")
        expect(operation.locator(":scope > summary")).to_be_in_viewport()
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert not overflow, f"the page scrolls sideways at {width}×{height}"
        assert serious(page) == [], f"{width}×{height}"
        assert not errors, errors
        context.close()
