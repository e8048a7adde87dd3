"""Guess round-trip latency under the issue's load: 32 players, each guessing twice a second.

Runs in its own process, like real players. Start a release server first:
    swift build -c release --product completionkit-bench --scratch-path .build-release
    .build-release/release/completionkit-bench serve 8095 &
    python3 Benchmarks/cryptogram_load.py --port 8095 --seconds 30
Latency is measured from sending a guess until its whole response body has arrived.
"""
import argparse
import http.client
import json
import threading
import time

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Player:
    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port)
        self.cookie = ""
        self.game = None
        self.letter = 0

    def request(self, method, path, body=None):
        headers = {"Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = "ck_session=" + self.cookie
        data = None
        if body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        payload = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie and cookie.startswith("ck_session="):
            self.cookie = cookie.split(";", 1)[0][len("ck_session="):]
        return response.status, payload

    def new_game(self):
        _, payload = self.request("POST", "/api/cryptogram/games", {"mode": "random", "length": "medium"})
        self.game = json.loads(payload)

    def guess(self):
        """Makes one guess and returns its round-trip seconds, or None when the turn only started a new puzzle."""
        cells = [c for c in self.game["cells"] if c["isLetter"] and c.get("shown") is None]
        if not cells:
            self.new_game()
            return None
        letter = LETTERS[self.letter % 26]
        self.letter += 1
        start = time.perf_counter()
        status, payload = self.request("POST", f"/api/cryptogram/games/{self.game['id']}/guesses",
                                       {"cell": cells[0]["index"], "letter": letter})
        elapsed = time.perf_counter() - start
        assert status in (200, 409), (status, payload[:200])
        if status == 200:
            move = json.loads(payload)
            self.game = move["game"]
            if self.game["status"] == "failed":
                _, payload = self.request("POST", f"/api/cryptogram/games/{self.game['id']}/continue")
                self.game = json.loads(payload)["game"]
            elif self.game["status"] == "solved":
                self.new_game()
        return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8095)
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--rate", type=float, default=2.0, help="guesses per second per player")
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()

    players = [Player(args.port) for _ in range(args.players)]
    for player in players:
        player.request("GET", "/api/me")
        player.new_game()

    latencies = []
    lock = threading.Lock()
    begin = time.perf_counter() + 0.5
    interval = 1 / args.rate

    def run(index, player):
        due = begin + interval * index / len(players)  # spread the players over one interval
        mine = []
        while due < begin + args.seconds:
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)  # open loop: the next guess is due on schedule, however long the last took
            elapsed = player.guess()
            if elapsed is not None:
                mine.append(elapsed)
            due += interval
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    n = len(latencies)
    pick = lambda p: latencies[min(n - 1, int(n * p))] * 1000
    print(f"{args.players} players x {args.rate:g} guesses/s for {args.seconds:g} s: {n} guesses, "
          f"p50 {pick(0.5):.2f} ms, p99 {pick(0.99):.2f} ms, max {latencies[-1] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
