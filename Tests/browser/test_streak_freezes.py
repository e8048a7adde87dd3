"""Streak freezes on the Challenges page: bought with points, shown on the streak, used by themselves on a
missed day. The server's clock is moved (POST /api/test/clock) to miss a day."""
import json
import os
import pathlib
import uuid

import pytest
from playwright.sync_api import expect

from conftest import running_server

from test_challenges import (LAPTOP, PHONE, complete_via_api, new_context, no_errors, open_challenges, register,
                             serious_violations, stats, todays)

SHOTS = pathlib.Path(os.environ.get("SCREENSHOT_DIR", "/tmp/ck-shots"))
TABLET = {"width": 1194, "height": 834}


@pytest.fixture(scope="module")
def server():
    """A server of this module's own: its clock is moved days ahead, which must not reach the other modules'."""
    yield from running_server()


def advance_days(context, server, days):
    """Moves the server's clock forward by whole days (the hook takes at most one day per call)."""
    for _ in range(days):
        answer = context.request.post(f"{server}/api/test/clock", data={"advanceSeconds": 86_400})
        assert answer.ok, answer.text()


def test_a_bought_freeze_protects_the_streak_across_a_missed_day(browser, server):
    context, other_context = new_context(browser), new_context(browser)
    try:
        register(context, server, "frost")
        register(other_context, server, "thaw")
        complete_via_api(context, server, todays(context, server)["id"])
        complete_via_api(context, server, todays(context, server, kind="weekly")["id"])
        complete_via_api(other_context, server, todays(other_context, server)["id"])
        page = open_challenges(context, server)
        freezes = stats(context, server)["freezes"]
        buy = page.get_by_test_id("freeze-buy")
        # The price is the server's, shown as it sends it.
        expect(buy).to_have_text(f"Buy a freeze · {freezes['price']} points")
        expect(page.get_by_test_id("freezes-held")).to_have_text("×0")
        expect(page.locator("#hero-points")).to_have_text("600")

        buy.click()
        expect(page.get_by_test_id("freeze-message")).to_contain_text("Streak freeze bought")
        expect(page.get_by_test_id("freezes-held")).to_have_text("×1")
        expect(page.locator("#hero-points")).to_have_text(str(600 - freezes["price"]))
        assert stats(context, server)["freezes"]["held"] == 1

        # A day passes with nothing done; the day after, the streak still stands, the freeze used on the missed day.
        assert stats(context, server)["freezes"]["usedOn"] == []
        advance_days(context, server, 2)
        page.reload()
        page.wait_for_selector("body[data-ready=true]", state="attached")
        expect(page.locator("#hero-streak")).to_have_text("1 day")
        expect(page.get_by_test_id("freezes-held")).to_have_text("×0")
        expect(page.get_by_test_id("freezes-note")).to_contain_text("Used on")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".ch-hero").screenshot(path=str(SHOTS / "freezes-used.png"))
        after = stats(context, server)
        assert after["currentStreak"] == 1 and len(after["freezes"]["usedOn"]) == 1, after
        # Without a freeze the same missed day ended the other person's streak.
        assert stats(other_context, server)["currentStreak"] == 0

        # Today's daily extends the protected streak by exactly one day.
        complete_via_api(context, server, todays(context, server)["id"])
        page.reload()
        page.wait_for_selector("body[data-ready=true]", state="attached")
        expect(page.locator("#hero-streak")).to_have_text("2 days")
        no_errors(page)
    finally:
        context.close()
        other_context.close()


def test_a_second_freeze_then_a_kind_word_at_the_limit(browser, server):
    context = new_context(browser)
    try:
        register(context, server, "ice")
        complete_via_api(context, server, todays(context, server)["id"])
        complete_via_api(context, server, todays(context, server, kind="weekly")["id"])
        page = open_challenges(context, server)
        buy = page.get_by_test_id("freeze-buy")
        buy.click()
        expect(page.get_by_test_id("freezes-held")).to_have_text("×1")
        buy.click()
        expect(page.get_by_test_id("freezes-held")).to_have_text("×2")
        expect(buy).to_have_attribute("aria-disabled", "true")
        # The button keeps the focus and, pressed again from the keyboard, says why instead of failing.
        buy.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.dataset.testid") == "freeze-buy"
        expect(page.get_by_test_id("freeze-message")).to_contain_text("the most you can")
        assert stats(context, server)["freezes"]["held"] == 2
        # The API says the same with a stable code.
        refused = context.request.post(f"{server}/api/challenges/streak/freezes?tz=UTC",
                                       headers={"X-CompletionKit": "1", "Idempotency-Key": str(uuid.uuid4())})
        assert refused.status == 409 and refused.json()["code"] == "freeze_limit_reached", refused.text()
        no_errors(page)
    finally:
        context.close()


@pytest.mark.parametrize("size", [PHONE, TABLET, LAPTOP], ids=["phone", "tablet", "laptop"])
def test_freezes_look_right_and_have_no_serious_accessibility_problems(browser, server, size):
    context = new_context(browser, size, reduced_motion="reduce")
    try:
        register(context, server, "look")
        complete_via_api(context, server, todays(context, server)["id"])
        complete_via_api(context, server, todays(context, server, kind="weekly")["id"])
        page = open_challenges(context, server)
        page.get_by_test_id("freeze-buy").click()
        expect(page.get_by_test_id("freezes-held")).to_have_text("×1")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator(".ch-hero").screenshot(path=str(SHOTS / f"freezes-{size['width']}.png"))
        page.screenshot(path=str(SHOTS / f"freezes-page-{size['width']}.png"))
        # Reduced motion: the Buy button does not move when hovered.
        page.get_by_test_id("freeze-buy").hover()
        assert page.get_by_test_id("freeze-buy").evaluate("b => getComputedStyle(b).transform") in ("none", "")
        pytest.importorskip("axe_playwright_python.sync_playwright")
        found = serious_violations(page)
        assert not found, json.dumps(found, indent=1)
        no_errors(page)
    finally:
        context.close()
