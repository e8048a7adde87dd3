"""The home page's account area: recovery codes shown once, "Forgot password?", password change, new codes, and
the same from the command line."""
import json
import pathlib
import re
import subprocess
import sys
import uuid

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from ckserver import ROOT, binary  # noqa: E402

SHOTS = pathlib.Path("/tmp/account-shots")
CODE = re.compile(r"^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$")


def save_account(page, server, name, password="correct horse battery"):
    page.goto(server + "/")
    page.fill("#save-form input[name=username]", name)
    page.fill("#save-form input[name=password]", password)
    page.click("#save-form button[type=submit]")
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")


def shown_codes(page):
    expect(page.locator("#codes-panel")).to_be_visible()
    expect(page.locator("#codes-list li")).to_have_count(10)
    codes = page.locator("#codes-list li").all_inner_texts()
    assert all(CODE.match(code) for code in codes), codes
    return codes


def serious(page):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    return [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in axe.Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")]


def test_saving_shows_ten_codes_once_to_copy_or_download_and_forgot_password_uses_one(page, server):
    name = "codes_" + uuid.uuid4().hex[:8]
    save_account(page, server, name)
    expect(page.locator("#codes-panel")).to_contain_text("Write these down now")
    codes = shown_codes(page)
    expect(page.locator("#codes-title")).to_be_focused()
    # The download holds every code.
    with page.expect_download() as download:
        page.click("#codes-download")
    text = pathlib.Path(download.value.path()).read_text()
    assert all(code in text for code in codes)
    page.click("#codes-done")
    expect(page.locator("#codes-panel")).to_be_hidden()
    assert page.locator("#codes-list li").count() == 0, "the codes stayed in the page"
    # Shown once: a reload does not bring them back.
    page.reload()
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")
    expect(page.locator("#codes-panel")).to_be_hidden()

    page.click("#logout")
    page.click("#tab-login")
    page.click("#forgot")
    expect(page.locator("#recover-form")).to_be_visible()
    expect(page.locator("#login-form")).to_be_hidden()
    page.fill("#recover-form input[name=username]", name)
    page.fill("#recover-form input[name=code]", codes[0].upper())
    # The server's rules, said in the page.
    page.fill("#recover-form input[name=newPassword]", "password1")
    page.click("#recover-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("most common")
    page.fill("#recover-form input[name=newPassword]", "a brand new phrase")
    page.click("#recover-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("new password is set")
    expect(page.locator("#account-message")).to_contain_text("9 recovery codes are left")
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")

    # The same code a second time: refused kindly.
    page.click("#logout")
    page.click("#tab-login")
    page.click("#forgot")
    page.fill("#recover-form input[name=username]", name)
    page.fill("#recover-form input[name=code]", codes[0])
    page.fill("#recover-form input[name=newPassword]", "yet another phrase")
    page.click("#recover-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("used already")
    page.click("#recover-form [data-show=login]")
    expect(page.locator("#login-form")).to_be_visible()
    page.fill("#login-form input[name=username]", name)
    page.fill("#login-form input[name=password]", "a brand new phrase")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#account-status")).to_contain_text(f"@{name}")


def test_changing_the_password_signs_out_other_browsers_and_keeps_this_one(browser, server):
    first, second = browser.new_context(), browser.new_context()
    try:
        page = first.new_page()
        name = "change_" + uuid.uuid4().hex[:8]
        save_account(page, server, name)
        page.click("#codes-done")
        assert second.request.post(f"{server}/api/account/login", data={"username": name, "password": "correct horse battery"}).ok
        page.click("#password-details summary")
        page.fill("#password-form input[name=currentPassword]", "not my password")
        page.fill("#password-form input[name=newPassword]", "a brand new phrase")
        page.click("#password-form button[type=submit]")
        expect(page.locator("#account-message")).to_contain_text("current password is not right")
        # The answer sits under the form it answers, not under the next fold ("Recovery codes").
        expect(page.locator("#password-details #account-message")).to_have_count(1)
        assert second.request.get(f"{server}/api/account/tokens").ok
        page.fill("#password-form input[name=currentPassword]", "correct horse battery")
        page.fill("#password-form input[name=newPassword]", f"{name}-forever")
        page.click("#password-form button[type=submit]")
        expect(page.locator("#account-message")).to_contain_text("must not contain your username")
        page.fill("#password-form input[name=currentPassword]", "correct horse battery")
        page.fill("#password-form input[name=newPassword]", "a brand new phrase")
        page.click("#password-form button[type=submit]")
        expect(page.locator("#account-message")).to_contain_text("Your password is changed. 1 other sign-in was ended.")
        expect(page.locator("#password-form input[name=currentPassword]")).to_have_value("")
        expect(page.locator("#account-status")).to_contain_text(f"@{name}")
        assert second.request.get(f"{server}/api/account/tokens").status == 401

        # New codes need the password and replace the old ones.
        page.click("#codes-details summary")
        expect(page.locator("#codes-status")).to_have_text("You have 10 unused recovery codes.")
        page.fill("#new-codes-form input[name=password]", "a brand new phrase")
        page.click("#new-codes-form button[type=submit]")
        shown_codes(page)
        expect(page.locator("#account-message")).to_contain_text("old ones no longer work")
    finally:
        first.close()
        second.close()


def test_the_command_line_changes_and_recovers_a_password(browser, server):
    context = browser.new_context()
    try:
        name = "clipw_" + uuid.uuid4().hex[:8]
        saved = context.request.post(f"{server}/api/account/register", data=json.dumps({"username": name, "password": "correct horse"}),
                                     headers={"Content-Type": "application/json"})
        assert saved.ok, saved.text()
        codes = saved.json()["recoveryCodes"]
        env = {"PATH": "/usr/bin:/bin", "COMPLETIONKIT_SERVER": server}
        login = subprocess.run([str(binary()), "login", "--username", name], input="correct horse\n", capture_output=True,
                               text=True, cwd=ROOT, env=env, timeout=60)
        assert login.returncode == 0, login.stderr
        env["COMPLETIONKIT_TOKEN"] = login.stdout.splitlines()[0].strip()

        common = subprocess.run([str(binary()), "password"], input="correct horse\nqwertyuiop\n", capture_output=True, text=True,
                                cwd=ROOT, env=env, timeout=60)
        assert common.returncode == 1 and "most common" in common.stderr and "(password_too_common)" in common.stderr
        changed = subprocess.run([str(binary()), "password"], input="correct horse\nfresh phrase here\n", capture_output=True,
                                 text=True, cwd=ROOT, env=env, timeout=60)
        assert changed.returncode == 0, changed.stderr
        assert "sign in again" in changed.stdout
        # The browser session was signed out, and so was the token.
        assert context.request.get(f"{server}/api/account/tokens").status == 401
        after = subprocess.run([str(binary()), "tasks"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert after.returncode == 1 and "sign in again" in after.stderr

        del env["COMPLETIONKIT_TOKEN"]
        recovered = subprocess.run([str(binary()), "recover", "--username", name], input=f"{codes[2]}\nrecovered phrase\n",
                                   capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert recovered.returncode == 0, recovered.stderr
        assert "9 recovery codes are left" in recovered.stdout
        env["COMPLETIONKIT_TOKEN"] = recovered.stdout.splitlines()[0].strip()
        tasks = subprocess.run([str(binary()), "tasks"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert tasks.returncode == 0, tasks.stderr
        again = subprocess.run([str(binary()), "recover", "--username", name], input=f"{codes[2]}\nanother phrase\n",
                               capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
        assert again.returncode == 1 and "(invalid_recovery_code)" in again.stderr
    finally:
        context.close()


@pytest.mark.parametrize("width,height", [(390, 844), (1194, 834), (1280, 800)])
def test_the_account_area_fits_and_passes_axe_at_every_size(browser, server, width, height):
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 600, has_touch=width < 600)
    try:
        page = context.new_page()
        save_account(page, server, f"shot{width}_" + uuid.uuid4().hex[:6])
        shown_codes(page)
        page.locator("#password-details summary").click()
        page.locator("#account").scroll_into_view_if_needed()
        assert not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"), "the page scrolls sideways"
        # Every code is on one line, whole.
        heights = page.locator("#codes-list li").evaluate_all("items => items.map(item => item.getBoundingClientRect().height)")
        assert max(heights) < 2 * min(heights)
        page.locator("#account").screenshot(path=str(SHOTS / f"account-codes-{width}x{height}.png"))
        page.screenshot(path=str(SHOTS / f"home-account-{width}x{height}.png"), full_page=True)
        assert serious(page) == []
        page.click("#codes-done")
        page.click("#logout")
        page.click("#tab-login")
        page.click("#forgot")
        page.locator("#account").screenshot(path=str(SHOTS / f"account-recover-{width}x{height}.png"))
        assert serious(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_a_change_after_being_signed_out_elsewhere_is_refused_and_said(browser, server, width, height):
    """Signed out on another device while Projects is open: the next change must not go to a new guest account
    while the page says "Signed in as …". It is refused, the page says so at its top, and nothing is lost."""
    options = {"is_mobile": True, "has_touch": True} if width < 600 else {}
    laptop = browser.new_context(viewport={"width": width, "height": height}, **options)
    phone = browser.new_context()
    name = f"dave{uuid.uuid4().hex[:8]}"
    headers = {"Content-Type": "application/json", "X-CompletionKit": "1"}
    try:
        assert laptop.request.post(f"{server}/api/account/register", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=headers).ok
        page = laptop.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server}/projects?list=inbox")
        page.wait_for_function("() => document.body.dataset.ready === 'true'")
        expect(page.locator("[data-who]").first).to_contain_text("Signed in as")
        # Elsewhere: signed in, then "sign out everywhere".
        assert phone.request.post(f"{server}/api/account/login", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=headers).ok
        assert phone.request.post(f"{server}/api/account/logout-everywhere", headers=headers).status == 204

        page.locator("[data-testid=add-task]").fill("Added after sign-out")
        page.locator("[data-testid=add-task]").press("Enter")
        banner = page.locator("[data-testid=session-ended]")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("signed out")
        expect(page.locator("[data-who]").first).not_to_contain_text("Signed in as")
        page.screenshot(path=f"/tmp/ck-shots/session-ended-{width}x{height}.png")
        assert not axe_serious(page)
        # The browser forgot the ended session, and no guest got the task.
        assert not [c for c in laptop.cookies() if c["name"] == "ck_session"]
        assert phone.request.post(f"{server}/api/account/login", data=json.dumps({"username": name, "password": "correct horse battery"}), headers=headers).ok
        titles = [t["title"] for t in phone.request.get(f"{server}/api/projects/inbox/tasks").json()["tasks"]]
        assert "Added after sign-out" not in titles
        # "Sign in again" leads to the account area.
        assert banner.locator("a").get_attribute("href") == "/#account"
        assert not errors
    finally:
        laptop.close()
        phone.close()


def axe_serious(page):
    axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")
    results = axe_module.Axe().run(page)
    return [(v["id"], [n["target"] for n in v["nodes"]]) for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
