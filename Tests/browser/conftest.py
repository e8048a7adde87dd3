"""Browser tests: start the real server binary on a free port with a fresh data folder, drive Debian's Chromium."""
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from ckserver import ROOT, binary as _binary, free_port as _free_port, wait_until_healthy  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# The running server's data folder, for tests that act as its operator with the command-line tool.
SERVER = {}


@pytest.fixture(scope="session")
def server():
    yield from running_server(shared=True)


def running_server(shared=False, extra_env=None):
    """Starts the server binary on a free port with a fresh data folder, yields its address, stops it after.
    `shared`: the session's server, whose data folder the operator fixture uses. A test module that moves the
    server's clock by days starts one of its own, so the shared server's today stays the real one; one that needs
    another setting (`extra_env`, e.g. a short live heartbeat) does too."""
    binary = _binary()
    assert binary.exists(), f"build the server first (swift build): {binary} is missing"
    port = _free_port()
    data = tempfile.mkdtemp(prefix="ck-browser-")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    # Lets the Waldabenteuer tests move the server's clock (POST /api/test/clock); harmless for the others.
    env["COMPLETIONKIT_TEST_HOOKS"] = "1"
    # Every test's visitors come from 127.0.0.1: no limit on new guests per address here.
    env["COMPLETIONKIT_GUESTS_PER_HOUR"] = "0"
    env.update(extra_env or {})
    log = open(pathlib.Path(data) / "server.log", "w")
    process = subprocess.Popen(
        [str(binary), "serve", "--port", str(port), "--data-dir", data],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    wait_until_healthy(process, base, log.name)
    if shared:
        SERVER["data"] = data
    yield base
    process.terminate()
    process.wait(timeout=20)
    log.close()


@pytest.fixture(scope="session")
def operator(server):
    """Runs the command-line tool on the running server's data folder, as its operator would."""
    def run(*arguments):
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        done = subprocess.run([str(_binary()), *arguments, "--data-dir", SERVER["data"]], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr + done.stdout
        return done.stdout
    return run


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture()
def routed_context(browser):
    """A context for tests that stub or hold the Projects API's GET answers with page.route: Playwright does not
    route a request the page's service worker answers (Projects has one), so service workers are blocked here."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    yield context
    context.close()


@pytest.fixture()
def reduced_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()
