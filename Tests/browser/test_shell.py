"""The home page and accounts, as a person uses them."""
import re
import uuid

import pytest

from playwright.sync_api import expect


def test_home_lists_motion_and_starts_as_guest(page, server):
    page.goto(server + "/")
    expect(page.locator("h1")).to_contain_text("moment you finish")
    card = page.locator('[data-system="motion"]')
    expect(card).to_be_visible()
    expect(card).to_contain_text("Motion")
    expect(page.locator("#account-status")).to_contain_text("playing as Guest")
    expect(page.locator("#health")).to_contain_text("sqlite")


def test_looking_around_makes_no_account_and_the_first_write_does(page, server):
    for path in ["/", "/cryptogram", "/cryptogram/stats", "/projects", "/challenges", "/motion", "/api"]:
        page.goto(server + path)
        expect(page.locator("[data-who]")).to_have_text("Playing as Guest")
    assert not [c for c in page.context.cookies() if c["name"] == "ck_session"], "reading made an account"
    # Adding a task is the first write: it makes the guest, and the header names it.
    page.goto(server + "/projects")
    page.get_by_test_id("add-task").fill("Water the plants")
    page.get_by_test_id("add-task").press("Enter")
    expect(page.locator("[data-who]")).to_have_text(re.compile(r"^Playing as Guest [0-9A-F]{4}$"))
    assert [c for c in page.context.cookies() if c["name"] == "ck_session"]


def test_save_account_sign_out_and_sign_in(page, server):
    name = "ada_" + uuid.uuid4().hex[:8]
    page.goto(server + "/")
    expect(page.locator("#save-form")).to_be_visible()
    page.fill("#save-form input[name=username]", name)
    page.fill("#save-form input[name=password]", "short")
    page.click("#save-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("at least 8 characters")
    # The server's rules, said in the page: a password of spaces only is refused kindly.
    page.fill("#save-form input[name=password]", "        ")
    page.click("#save-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("only spaces")

    page.fill("#save-form input[name=password]", "correct horse battery")
    page.click("#save-form button[type=submit]")
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")
    expect(page.locator("[data-who]")).to_contain_text("Signed in as")

    page.click("#logout")
    expect(page.locator("#account-status")).to_contain_text("playing as Guest")

    page.fill("#login-form input[name=username]", name)
    page.fill("#login-form input[name=password]", "wrong password")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("do not match")
    page.fill("#login-form input[name=password]", "correct horse battery")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")


def test_home_works_on_a_phone(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + "/")
    expect(page.locator('[data-system="motion"]')).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert not overflow, "the home page scrolls sideways on a phone"
    context.close()


def test_sign_in_warns_a_guest_and_sign_out_everywhere_ends_other_browsers(browser, server):
    first, second = browser.new_context(), browser.new_context()
    try:
        page = first.new_page()
        page.goto(server + "/")
        page.click("#tab-login")
        expect(page.locator("#login-note")).to_be_visible()
        expect(page.locator("#login-note")).to_contain_text("leaves what you did here as a guest behind")
        name = "every_" + uuid.uuid4().hex[:8]
        page.click("#tab-save")
        page.fill("#save-form input[name=username]", name)
        page.fill("#save-form input[name=password]", "correct horse battery")
        page.click("#save-form button[type=submit]")
        expect(page.locator("#account-status")).to_contain_text(f"@{name}")
        # The same account signed in on another browser.
        assert second.request.post(f"{server}/api/account/login", data={"username": name, "password": "correct horse battery"}).ok
        assert second.request.get(f"{server}/api/account/tokens").ok
        page.click("#logout-everywhere")
        expect(page.locator("#account-message")).to_contain_text("signed out on every device")
        expect(page.locator("#account-status")).to_contain_text("playing as Guest")
        assert second.request.get(f"{server}/api/account/tokens").status == 401
    finally:
        first.close()
        second.close()


@pytest.mark.parametrize("path", ["/", "/motion", "/cryptogram", "/cryptogram/stats", "/kids", "/projects", "/challenges"])
def test_no_page_breaks_the_content_security_policy(browser, server, path):
    context = browser.new_context()
    try:
        context.add_init_script("""window.__violations = [];
          document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));""")
        page = context.new_page()
        response = page.goto(server + path)
        assert "script-src 'self'" in response.headers.get("content-security-policy", "")
        page.wait_for_load_state("networkidle")
        assert page.evaluate("window.__violations") == []
    finally:
        context.close()
