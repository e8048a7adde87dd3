"""A signed-in person's latency while 200 sign-ins arrive at once (issue: accounts and abuse).

Starts the real server (COMPLETIONKIT_BIN, default .build/release/completionkit) on a fresh SQLite folder, makes a
person with a task, and measures their task toggles (PATCH /api/tasks/{id}, one keep-alive connection):
first alone, then while 200 concurrent sign-ins for one username (wrong passwords) hit the server. Prints p50,
p99 and max of both phases and the burst's answers. Run: python3 Benchmarks/signin_burst.py
"""
import http.client
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "support"))
from ckserver import ROOT, free_port, wait_until_healthy  # noqa: E402

BURST = 200
PASSWORD = "Quiet-Lantern-" + uuid.uuid4().hex[:8]


class Person:
    """One browser: a keep-alive connection and its session cookie."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = None

    def send(self, method, path, body=None):
        headers = {"X-CompletionKit": "1", "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";")[0]
        return response.status, (json.loads(data) if data else None)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def toggles(person, task, until):
    """Toggles the task until `until()` says stop; the latencies in ms."""
    latencies, done = [], False
    while not until():
        done = not done
        start = time.perf_counter()
        status, _ = person.send("PATCH", f"/api/tasks/{task}", {"completed": done})
        latencies.append((time.perf_counter() - start) * 1000)
        assert status == 200, status
    return latencies


def main():
    binary = pathlib.Path(os.environ.get("COMPLETIONKIT_BIN", ROOT / ".build" / "release" / "completionkit"))
    port = free_port()
    data = tempfile.mkdtemp(prefix="ck-burst-")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["COMPLETIONKIT_GUESTS_PER_HOUR"] = "0"
    log = open(pathlib.Path(data) / "server.log", "w")
    server = subprocess.Popen([str(binary), "serve", "--port", str(port), "--data-dir", data, "--log-level", "error"],
                              cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until_healthy(server, f"http://127.0.0.1:{port}", log.name)
        person = Person(port)
        status, _ = person.send("POST", "/api/account/register", {"username": f"steady{uuid.uuid4().hex[:8]}", "password": PASSWORD})
        assert status == 201, status
        status, project = person.send("POST", "/api/projects", {"name": "Garden"})
        assert status == 201, status
        status, task = person.send("POST", "/api/tasks", {"title": "Dig", "projectId": project["id"]})
        assert status == 201, (status, task)
        task_id = (task.get("task") or task)["id"]
        target = f"victim{uuid.uuid4().hex[:8]}"
        victim = Person(port)
        assert victim.send("POST", "/api/account/register", {"username": target, "password": PASSWORD})[0] == 201

        count = [0]
        quiet = toggles(person, task_id, lambda: (count.__setitem__(0, count[0] + 1) or count[0] > 300))

        answers, finished = [], threading.Event()

        def sign_in():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            try:
                connection.request("POST", "/api/account/login", body=json.dumps({"username": target, "password": "wrong-" + uuid.uuid4().hex}),
                                   headers={"Content-Type": "application/json"})
                answers.append(connection.getresponse().status)
            except Exception as error:  # noqa: BLE001 - an unanswered sign-in is a result to report
                answers.append(type(error).__name__)
            finally:
                connection.close()

        threads = [threading.Thread(target=sign_in) for _ in range(BURST)]
        barrier_start = time.perf_counter()
        for thread in threads:
            thread.start()
        watcher = threading.Thread(target=lambda: ([t.join() for t in threads], finished.set()))
        watcher.start()
        during = toggles(person, task_id, finished.is_set)
        burst_seconds = time.perf_counter() - barrier_start
        watcher.join()

        def row(name, values):
            return f"| {name} | {len(values)} | {statistics.median(values):.2f} | {percentile(values, 0.99):.2f} | {max(values):.2f} |"

        print("| phase | toggles | p50 ms | p99 ms | max ms |")
        print("|---|---|---|---|---|")
        print(row("alone", quiet))
        print(row(f"during {BURST} sign-ins at once", during))
        tally = {}
        for answer in answers:
            tally[answer] = tally.get(answer, 0) + 1
        print(f"\nburst answered in {burst_seconds:.2f} s: {dict(sorted(tally.items(), key=str))}")
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


if __name__ == "__main__":
    main()
