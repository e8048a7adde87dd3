"""Two server processes on one database (PostgreSQL when DATABASE_URL is set, else one shared SQLite file).

Clients spread their requests over both processes, send moves at the same moment and retry across them
(the same idempotency key to both). Nothing may be lost or paid twice, and `completionkit ledger verify`
must find every kept balance equal to its entries.
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
import uuid

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "support"))
from ckserver import ROOT, binary as _binary, free_port as _free_port, wait_until_healthy  # noqa: E402


class Server:
    def __init__(self, data: str, env: dict):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(pathlib.Path(data) / f"server-{self.port}.log", "w")
        self.process = subprocess.Popen(
            [str(_binary()), "serve", "--port", str(self.port), "--data-dir", data],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self):
        wait_until_healthy(self.process, self.base, self.log.name)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


@pytest.fixture(scope="module")
def cluster():
    data = tempfile.mkdtemp(prefix="ck-two-")
    env = dict(os.environ)
    env["COMPLETIONKIT_TEST_HOOKS"] = "1"  # each process's clock is moved in step by the kids' test
    env["COMPLETIONKIT_GUESTS_PER_HOUR"] = "0"  # every visitor here comes from 127.0.0.1
    first = Server(data, env)
    first.wait_ready()  # the first one migrates; then the second starts on the same database
    second = Server(data, env)
    second.wait_ready()
    yield first, second, data, env
    first.stop()
    second.stop()


def call(base, method, path, body=None, cookie=None, headers=None):
    """One HTTP request; returns (status, parsed JSON, set-cookie value or None)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json")
    if cookie:
        request.add_header("Cookie", f"ck_session={cookie}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw, headers_out = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, raw, headers_out = error.code, error.read(), error.headers
    new_cookie = None
    for header in headers_out.get_all("Set-Cookie") or []:
        if header.startswith("ck_session="):
            new_cookie = header.split(";", 1)[0].split("=", 1)[1]
    return status, (json.loads(raw) if raw else None), new_cookie


def both_at_once(servers, method, path, body, cookie, headers):
    """Sends the same request to every server at the same moment; returns the answers in server order."""
    answers = [None] * len(servers)
    start = threading.Barrier(len(servers))

    def send(index):
        start.wait()
        answers[index] = call(servers[index].base, method, path, body, cookie, headers)

    threads = [threading.Thread(target=send, args=(index,)) for index in range(len(servers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def verify_ledger(data, env):
    result = subprocess.run(
        [str(_binary()), "ledger", "verify", "--data-dir", data, "--log-level", "error"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Ledger is consistent" in result.stdout


def test_cryptogram_moves_on_both_servers_are_never_lost(cluster):
    first, second, data, env = cluster
    status, game, cookie = call(first.base, "POST", "/api/cryptogram/games", {"mode": "random", "length": "short"})
    assert status == 200 and cookie
    path = f"/api/cryptogram/games/{game['id']}/hints"
    accepted = 0
    # Every hint goes to both servers at once with one key: one applies it, the other replays it.
    while True:
        key = {"Idempotency-Key": str(uuid.uuid4())}
        (status_a, body_a, _), (status_b, body_b, _) = both_at_once([first, second], "POST", path, {}, cookie, key)
        assert status_a == status_b, (body_a, body_b)
        if status_a != 200:
            assert body_a["code"] in ("not_playing", "nothing_to_reveal")
            break
        assert body_a == body_b, "a retry answers exactly what the first request did"
        accepted += 1
        if body_a["game"]["status"] == "solved":
            assert body_a["celebration"] is not None
            break
    status, final, _ = call(second.base, "GET", f"/api/cryptogram/games/{game['id']}", cookie=cookie)
    assert final["status"] == "solved" and final["hints"] == accepted, "every accepted hint counted once"
    status, stats, _ = call(first.base, "GET", "/api/cryptogram/stats", cookie=cookie)
    assert stats["solved"] == 1 and stats["points"] == 10, "the solve paid once"
    verify_ledger(data, env)


def test_concurrent_moves_without_keys_all_land(cluster):
    first, second, data, env = cluster
    status, game, cookie = call(first.base, "POST", "/api/cryptogram/games", {"mode": "random", "length": "long"})
    assert status == 200
    path = f"/api/cryptogram/games/{game['id']}/hints"
    results = []
    lock = threading.Lock()

    def hinter(server):
        for _ in range(8):
            status, body, _ = call(server.base, "POST", path, {}, cookie)
            with lock:
                results.append(status)

    threads = [threading.Thread(target=hinter, args=(server,)) for server in (first, second, first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    status, final, _ = call(second.base, "GET", f"/api/cryptogram/games/{game['id']}", cookie=cookie)
    assert final["hints"] == results.count(200), f"no move lost: {results}"
    verify_ledger(data, env)


def test_kids_coins_with_retries_across_servers_pay_once(cluster):
    first, second, data, env = cluster
    servers = [first, second]
    status, _, cookie = call(first.base, "POST", "/api/kids/launch", {"timeZone": "UTC"})
    assert status == 200 and cookie
    # The tumble and the level's pause are timed by each server's own clock: stop both and move them together.
    for server in servers:
        assert call(server.base, "POST", "/api/test/clock", {"advanceSeconds": 0, "freeze": True}, cookie)[0] == 200

    def move_clocks(seconds):
        for server in servers:
            assert call(server.base, "POST", "/api/test/clock", {"advanceSeconds": seconds}, cookie)[0] == 200

    def event(kind, **fields):
        body = {"type": kind, "eventID": str(uuid.uuid4()), **fields}
        (status_a, body_a, _), (status_b, body_b, _) = both_at_once(servers, "POST", "/api/kids/events", body, cookie, None)
        assert status_a == 200 and status_b == 200, (kind, body_a, body_b)
        assert body_a["view"] == body_b["view"] and body_a["effects"] == body_b["effects"]
        assert body_a["replayed"] != body_b["replayed"], "exactly one server applied it"
        return body_a

    event("loadingTick", seconds=7)
    event("selectPlayer", player="alexander")
    event("tapActivity", activity="zahlen")
    event("tapSubActivity", game="wuerfel")
    levels = 7
    for _ in range(levels):
        rolled = event("rollDie")
        move_clocks(2)
        solved = event("tapNumber", number=rolled["view"]["level"]["askedNumber"])
        assert solved["view"]["screen"] == "levelComplete"
        move_clocks(3)
        after = event("levelCompleteFinished")
        if after["view"]["screen"] == "celebrationOverlay":
            event("tapWeiter")
    status, state, _ = call(second.base, "GET", "/api/kids/state", cookie=cookie)
    assert state["view"]["activePlayer"]["coins"] == levels, "one coin per level, never two"
    verify_ledger(data, env)
