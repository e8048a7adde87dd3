"""Browser benchmark (not a test): a list of 10,000 tasks in Chromium.

Budget (issue 28, "Big lists"): the list opens in at most 1 s and a change blocks the main thread at most 50 ms.
A fresh person imports 10,000 tasks into the Inbox (two imports of 5,000, the import's limit per request; a
project cannot be given more than 5,000 at once through the API, and the Inbox is a list like a project's), and
a project of 5,000. For each list it reads:
- open: from navigation start to the first task rows in the document (MutationObserver), and the long tasks
  (Long Tasks API, > 50 ms) until then; on the first visit (the list's first page, then the time its rest has
  arrived and is drawn), and again afterwards (rows kept from the visit before are shown while the server's
  answer is on its way);
- changes: `rounds` completions by click (spread over the list, scrolling to each), then adding a task by
  typing; per change the long tasks from the click until its answer and its own live update have arrived.
Also counts the elements in the document once the list is open.

Usage: start a server, then
    python3 Benchmarks/browser/projects_big_list.py [http://127.0.0.1:8080] [rounds] [-v]
"""
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

INIT = """
window.__bench = { firstRows: null, whole: null, longTasks: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
}).observe({ type: "longtask", buffered: true });
document.addEventListener("DOMContentLoaded", () => {
  const list = document.getElementById("task-list");
  new MutationObserver(() => {
    if (window.__bench.firstRows == null && list.querySelector("[data-task-id]")) window.__bench.firstRows = performance.now();
  }).observe(list, { childList: true });
  // A list opened with its first page says so below its rows until the rest is here.
  const rest = document.getElementById("list-rest");
  let shown = false;
  new MutationObserver(() => {
    if (!rest.hidden) shown = true;
    else if (shown && window.__bench.whole == null) window.__bench.whole = performance.now();
  }).observe(rest, { attributes: true, attributeFilter: ["hidden"] });
});
"""

HEADERS = {"Content-Type": "text/plain", "X-CompletionKit": "1"}


def long_tasks_since(page, since):
    return page.evaluate("(since) => window.__bench.longTasks.filter((t) => t.start >= since)", since)


def open_list(context, server, key, verbose):
    page = context.new_page()
    page.add_init_script(INIT)
    page.goto(f"{server}/projects?list={key}")
    page.wait_for_function("() => window.__bench.firstRows != null")
    page.wait_for_selector("body[data-ready=true]")
    # Opened with its first page: until the rest is here too (a list shown from the last visit's copy is read whole).
    page.wait_for_function("() => document.getElementById('list-rest').hidden")
    first = page.evaluate("window.__bench.firstRows")
    whole = page.evaluate("window.__bench.whole")
    tasks = long_tasks_since(page, 0)
    nodes = page.evaluate("document.getElementsByTagName('*').length")
    if verbose:
        rest = f"; the rest at {whole:.0f} ms" if whole is not None else ""
        print(f"  open: first rows at {first:.0f} ms{rest}; long tasks {[round(t['duration']) for t in tasks]}; {nodes} elements")
    return page, first, tasks, nodes, whole


def change(page, action, verbose, label):
    since = page.evaluate("performance.now()")
    action()
    # The answer and the change's own live update: the page is quiet again (no request in flight, no render due).
    page.wait_for_timeout(600)
    tasks = long_tasks_since(page, since)
    worst = max((t["duration"] for t in tasks), default=0)
    if verbose:
        print(f"  {label}: long tasks {[round(t['duration']) for t in tasks]}")
    return worst, len(tasks)


def measure(context, server, key, total, rounds, verbose):
    page, first, open_tasks, nodes, whole = open_list(context, server, key, verbose)
    worst_changes, counts = [], []
    for round_ in range(rounds):
        index = (round_ * (total - 1)) // max(rounds - 1, 1)
        # Scroll the row into the document the way a person would (the End key for the last one).
        page.evaluate("(i) => { const list = document.getElementById('task-list'); const top = list.getBoundingClientRect().top + scrollY; scrollTo(0, top + i * (list.scrollHeight / %d) - 200); }" % total, index)
        # The rows drawn for the new place settle first: the scroll's own drawing is not the change's.
        page.wait_for_timeout(800)
        row = page.locator("[data-testid=task-row]").nth(3)
        worst, count = change(page, lambda: row.locator("[data-testid=task-check]").click(), verbose, f"complete near {index}")
        worst_changes.append(worst)
        counts.append(count)
    page.evaluate("scrollTo(0, 0)")
    field = page.locator("#add-task")
    field.fill("One more task")
    worst, count = change(page, lambda: field.press("Enter"), verbose, "add")
    worst_changes.append(worst)
    counts.append(count)
    page.close()
    # Opened again: the rows kept from the last visit show while the server's answer is on its way.
    again, reopen, _, _, _ = open_list(context, server, key, verbose)
    again.close()
    return {
        "reopen": reopen, "open": first, "whole": whole, "open_long": max((t["duration"] for t in open_tasks), default=0), "nodes": nodes,
        "change_median": statistics.median(worst_changes), "change_worst": max(worst_changes), "long_tasks": sum(counts),
        "changes": len(worst_changes),
    }


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv
    server = args[0] if args else "http://127.0.0.1:8080"
    rounds = int(args[1]) if len(args) > 1 else 10
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        started = time.time()
        for part in range(2):
            lines = "".join(f"Inbox task {part * 5000 + i + 1}\n" for i in range(5000))
            response = context.request.post(f"{server}/api/projects/import", data=lines, headers=HEADERS)
            assert response.ok, response.text()
        project = "# Five thousand\n" + "".join(f"Project task {i + 1}\n" for i in range(5000))
        assert context.request.post(f"{server}/api/projects/import", data=project, headers=HEADERS).ok
        overview = context.request.get(f"{server}/api/projects").json()
        big = next(p for p in overview["projects"] if p["name"] == "Five thousand")
        print(f"imported 15,000 tasks in {time.time() - started:.1f} s")
        rows = []
        for key, total, label in [("inbox", 10000, "Inbox, 10,000 tasks"), (big["id"], 5000, "project, 5,000 tasks")]:
            if verbose:
                print(label)
            result = measure(context, server, key, total, rounds, verbose)
            rows.append((label, result))
        print()
        print("| list | first rows after navigation (first visit / again) | whole list here (first visit) | longest task while opening | elements | worst main-thread task per change (median / worst) | long tasks (> 50 ms) in all changes |")
        print("|---|---|---|---|---|---|---|")
        for label, r in rows:
            whole = f"{r['whole']:.0f} ms" if r["whole"] is not None else "(read whole)"
            print(f"| {label} | {r['open']:.0f} / {r['reopen']:.0f} ms | {whole} | {r['open_long']:.0f} ms | {r['nodes']} | "
                  f"{r['change_median']:.0f} / {r['change_worst']:.0f} ms | {r['long_tasks']} in {r['changes']} |")
        browser.close()


if __name__ == "__main__":
    main()
