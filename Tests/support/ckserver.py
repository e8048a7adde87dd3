"""Starting the real `completionkit` binary for the Python test suites (browser and two-process tests)."""
import os
import pathlib
import socket
import subprocess
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]


def binary() -> pathlib.Path:
    """The server binary: $COMPLETIONKIT_BIN, else the one `swift build` made."""
    configured = os.environ.get("COMPLETIONKIT_BIN")
    if configured:
        return pathlib.Path(configured)
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    return pathlib.Path(out.stdout.strip()) / "completionkit"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_healthy(process: subprocess.Popen, base: str, log_name: str, limit: float = 120) -> None:
    """Waits until /health answers (bounded), not a fixed sleep; fails if the server exits first."""
    deadline = time.monotonic() + limit
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early; see {log_name}")
        try:
            with urllib.request.urlopen(base + "/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.1)
