"""Browser benchmark (not a test): how soon the cryptogram's finish starts, in Chromium.

Budget (issue "Cryptogram, as a player finds it"): the first frame of the celebration within 50 ms of the solving
response, and no main-thread task over 50 ms during the sequence. For each of `rounds` long quotes it solves the
puzzle through the page (Hint until solved), then reads:
- the time from the solving move's response (its `fetch` resolving) to the first animation frame after the
  celebration's first animation began (the wiggle; the card fades in from 0.4 s, laid out on the frame after);
- the long tasks (Long Tasks API, > 50 ms) from that response to the end of the 3 s sequence.

Usage: start a server, then
    python3 Benchmarks/browser/cryptogram_finish.py [http://127.0.0.1:8080] [rounds] [-v]

-v prints each finish: when the view was shown and its first frame came, and each long task (start after the
response, duration), in ms.
"""
import statistics
import sys

from playwright.sync_api import expect, sync_playwright

INIT = """
window.__finish = { move: null, started: null, shown: null, frame: null, longTasks: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__finish.longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: "longtask", buffered: true });
const realFetch = window.fetch.bind(window);
window.fetch = async (...args) => {
  const response = await realFetch(...args);
  if (/\\/(hints|guesses)/.test(String(args[0]))) window.__finish.move = performance.now();
  return response;
};
// The celebration's first frame: the frame after its first animation (the wiggle's; the card's in calm mode) began.
const realAnimate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const animation = realAnimate.apply(this, args);
  const finish = window.__finish;
  if (finish.move != null && finish.started == null) {
    finish.started = performance.now();
    requestAnimationFrame(() => { finish.frame = performance.now(); });
  }
  return animation;
};
document.addEventListener("DOMContentLoaded", () => {
  const overlay = document.getElementById("complete");
  new MutationObserver(() => {
    if (overlay.hidden || window.__finish.shown != null) return;
    window.__finish.shown = performance.now();
  }).observe(overlay, { attributes: true, attributeFilter: ["hidden"] });
});
"""


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    server = args[0] if args else "http://127.0.0.1:8080"
    rounds = int(args[1]) if len(args) > 1 else 10
    starts, worst_tasks, task_counts = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(INIT)
        page = context.new_page()
        for _ in range(rounds):
            page.goto(server + "/cryptogram")
            page.click("#length-choice button[data-length='long']")
            page.click("#play-random")
            expect(page.locator("#game")).to_have_attribute("data-status", "playing")
            hints = page.locator("#hints")
            while page.locator("#game").get_attribute("data-status") != "solved":
                count = int(hints.get_attribute("data-count"))
                page.click("#hint")
                page.wait_for_function(
                    "(n) => Number(document.getElementById('hints').dataset.count) > n || document.getElementById('game').dataset.status === 'solved'",
                    arg=count)
            expect(page.locator("#complete")).to_have_attribute("data-played", "done", timeout=15000)
            finish = page.evaluate("() => window.__finish")
            starts.append(finish["frame"] - finish["move"])
            during = [t for t in finish["longTasks"] if finish["move"] - 5 <= t["start"] <= finish["move"] + 3000]
            task_counts.append(len(during))
            if "-v" in sys.argv:
                print("  started", round(finish["started"] - finish["move"], 1), "card shown", round(finish["shown"] - finish["move"], 1),
                      "frame", round(finish["frame"] - finish["move"], 1),
                      "tasks", [(round(t["start"] - finish["move"]), round(t["duration"])) for t in during])
            worst_tasks.append(max([t["duration"] for t in during], default=0))
        browser.close()
    starts.sort()
    print(f"cryptogram finish, {rounds} long quotes at 1280x800 in Chromium")
    print(f"first frame after the solving response: median {statistics.median(starts):.1f} ms, worst {starts[-1]:.1f} ms (budget 50 ms)")
    print(f"long tasks during the sequence: {sum(task_counts)} in {rounds} finishes, longest {max(worst_tasks):.1f} ms (budget: none over 50 ms)")


if __name__ == "__main__":
    main()
