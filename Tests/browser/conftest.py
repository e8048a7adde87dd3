"""Browser tests: start the real server binary on a free port with a fresh data folder, drive Debian's Chromium."""
import os
import pathlib
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def _binary() -> pathlib.Path:
    configured = os.environ.get("COMPLETIONKIT_BIN")
    if configured:
        return pathlib.Path(configured)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return pathlib.Path(out.stdout.strip()) / "completionkit"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def server():
    binary = _binary()
    assert binary.exists(), f"build the server first (swift build): {binary} is missing"
    port = _free_port()
    data = tempfile.mkdtemp(prefix="ck-browser-")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    # Lets the Waldabenteuer tests move the server's clock (POST /api/test/clock); harmless for the others.
    env["COMPLETIONKIT_TEST_HOOKS"] = "1"
    log = open(pathlib.Path(data) / "server.log", "w")
    process = subprocess.Popen(
        [str(binary), "serve", "--port", str(port), "--data-dir", data],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:  # readiness: wait until /health answers (bounded), not a fixed sleep
        if process.poll() is not None:
            raise RuntimeError(f"server exited early; see {log.name}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.1)
    yield base
    process.terminate()
    process.wait(timeout=20)
    log.close()


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
def reduced_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    yield page
    context.close()
