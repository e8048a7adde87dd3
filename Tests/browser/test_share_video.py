"""Browser tests of the share videos, against the real server and its FFmpeg: the Challenges share panel makes the
celebration video with visible progress and offers it, the Cryptogram share dialog does the same for a solve; calm
mode offers the still card instead."""
import json
import re

import pytest
from playwright.sync_api import expect

from test_cryptogram import open_cryptogram, solve_daily
from test_challenges import (LAPTOP, PHONE, complete_via_api, feed_item, new_context, no_errors, open_challenges, register,
                             serious_violations, todays)

# A debug build on a busy machine encodes slowly; the wait ends as soon as the video is there.
VIDEO_TIMEOUT = 180_000


def open_share(context, server, story):
    register(context, server, "video")
    activity_id = complete_via_api(context, server, todays(context, server)["id"], story=story)["activity"]["id"]
    page = open_challenges(context, server, "#feed")
    feed_item(page, activity_id).get_by_test_id("share-open").click()
    expect(page.get_by_test_id("share-panel")).to_be_visible()
    return page, activity_id


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_share_panel_makes_the_video_with_progress_and_offers_it(browser, server, viewport, tmp_path):
    context = new_context(browser, viewport)
    try:
        page, activity_id = open_share(context, server, "Made on camera.\nSecond line stays in the post.")
        expect(page.get_by_test_id("share-calm-note")).to_be_hidden()
        make = page.get_by_test_id("video-make")
        expect(make).to_be_visible()
        expect(page.get_by_test_id("video-download")).to_be_hidden()

        with page.expect_response(lambda r: r.url.endswith(f"/api/activities/{activity_id}/video") and r.request.method == "POST") as started:
            make.click()
        assert started.value.status == 202, started.value.status
        # While the server encodes, the panel says how far it is (the server's figure).
        progress = page.get_by_test_id("video-progress")
        expect(progress).to_be_visible()
        expect(page.locator("#video-progress-text")).to_contain_text("Making your video")
        page.screenshot(path=str(tmp_path / f"video-making-{viewport['width']}.png"))

        download = page.get_by_test_id("video-download")
        expect(download).to_be_visible(timeout=VIDEO_TIMEOUT)
        expect(progress).to_be_hidden()
        expect(download).to_have_attribute("href", f"/api/activities/{activity_id}/video.mp4")
        expect(download).to_have_attribute("download", re.compile(r"\.mp4$"))
        answer = context.request.get(f"{server}/api/activities/{activity_id}/video.mp4")
        assert answer.status == 200 and answer.headers["content-type"] == "video/mp4"
        # Headless Chromium cannot share files: no "Share video…" there, the download is the way.
        can_share_files = page.evaluate(
            "() => { try { return Boolean(navigator.canShare && navigator.canShare({ files: [new File([new Uint8Array(8)], 'v.mp4', { type: 'video/mp4' })] })); } catch { return false; } }")
        if not can_share_files:
            expect(page.get_by_test_id("video-share")).to_be_hidden()
        page.screenshot(path=str(tmp_path / f"video-ready-{viewport['width']}.png"))

        # Opened again, a made video is offered at once.
        page.keyboard.press("Escape")
        feed_item(page, activity_id).get_by_test_id("share-open").click()
        expect(page.get_by_test_id("video-download")).to_be_visible()
        expect(page.get_by_test_id("video-make")).to_be_hidden()

        found = serious_violations(page)
        assert not found, json.dumps(found, indent=1)
        no_errors(page)
    finally:
        context.close()


def test_calm_mode_offers_the_still_card_instead_of_a_video(browser, server):
    context = new_context(browser, PHONE, reduced_motion="reduce")
    try:
        page, activity_id = open_share(context, server, "Quietly proud.")
        expect(page.get_by_test_id("share-video")).to_be_hidden()
        expect(page.get_by_test_id("share-calm-note")).to_be_visible()
        image = page.get_by_test_id("share-card-img")
        expect(image).to_have_attribute("src", re.compile(rf"/api/activities/{activity_id}/card\.png$"))
        expect(page.get_by_test_id("share-download")).to_be_visible()
        no_errors(page)
    finally:
        context.close()


@pytest.mark.parametrize("reduced", [False, True], ids=["full", "calm"])
def test_a_solved_cryptogram_offers_a_short_video_of_the_solve(browser, server, reduced, tmp_path):
    context = new_context(browser, PHONE, reduced_motion="reduce" if reduced else "no-preference")
    page = context.new_page()
    page._ck_errors = []
    page.on("pageerror", lambda error: page._ck_errors.append(str(error)))
    try:
        open_cryptogram(page, server)
        game = solve_daily(page)
        page.tap("#share-open")
        expect(page.locator("#share-panel")).to_be_visible()
        if reduced:
            expect(page.get_by_test_id("share-video")).to_be_hidden()
            expect(page.get_by_test_id("share-calm-note")).to_be_visible()
            return
        expect(page.get_by_test_id("share-calm-note")).to_be_hidden()
        path = f"/api/cryptogram/games/{game['id']}/video"
        with page.expect_response(lambda r: r.url.endswith(path) and r.request.method == "POST") as started:
            page.get_by_test_id("video-make").click()
        assert started.value.status in (200, 202), started.value.status
        download = page.get_by_test_id("video-download")
        expect(download).to_be_visible(timeout=VIDEO_TIMEOUT)
        expect(download).to_have_attribute("href", f"{path}.mp4")
        expect(download).to_have_attribute("download", re.compile(r"\.mp4$"))
        answer = context.request.get(f"{server}{path}.mp4", headers={"Range": "bytes=0-99"})
        assert answer.status == 206 and answer.headers["content-type"] == "video/mp4", (answer.status, answer.headers)
        assert len(answer.body()) == 100
        page.screenshot(path=str(tmp_path / "cryptogram-video-ready-390.png"))
        # Closed and opened again, the made video is offered at once.
        page.keyboard.press("Escape")
        page.tap("#share-open")
        expect(download).to_be_visible()
        expect(page.get_by_test_id("video-make")).to_be_hidden()
        found = serious_violations(page)
        assert not found, json.dumps(found, indent=1)
        no_errors(page)
    finally:
        context.close()
