// Challenges (seed 004): browse today's challenges, join one, complete it with a photo and a story, celebrate,
// and follow people whose completions arrive in a live feed. The server decides everything that counts —
// points, streaks, time windows, story prompts, the celebration's timeline and how long it stays; this page
// shows what it sends, sends what the person does, and listens to the feed's stream.
// This entry wires the page and starts it; the parts live in js/challenges/.
import { boot, currentUser } from "./app.js";
import { loadOverview } from "./challenges/cards.js";
import { wireComplete } from "./challenges/complete.js";
import { loadFeed, wireFeed } from "./challenges/feed.js";
import { connectLive } from "./challenges/live.js";
import { wirePeople } from "./challenges/people.js";
import { wireReport } from "./challenges/posts.js";
import { keepFocusVisible, setView, viewFromHash, WIDE } from "./challenges/sections.js";
import { wireShare } from "./challenges/share.js";
import { showPageError, state } from "./challenges/state.js";
import { tick } from "./challenges/time.js";
import { $, h } from "./lib/dom.js";
import { preference } from "./motion.js";

/**
 * How often the countdowns and "5 min ago" labels are redrawn: a display cadence, not a rule. The instants come
 * from the server (`endsAt`, `createdAt`) and a challenge that ended is asked for again (time.js); this only
 * says how fresh the minute-level words on screen are.
 */
const TICK_MS = 30_000;

// MARK: Wiring

function wire() {
  window.addEventListener("motionpreferencechange", (event) => {
    document.body.dataset.motion = event.detail;
  });
  for (const tab of document.querySelectorAll("[data-tab]")) {
    tab.addEventListener("click", (event) => {
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      history.replaceState(null, "", `#${tab.dataset.tab}`);
      setView(tab.dataset.tab, { focus: true });
    });
  }
  window.addEventListener("hashchange", () => setView(viewFromHash(), { focus: true }));
  WIDE.addEventListener("change", () => setView(state.view));

  wireFeed();
  wireComplete();
  wireShare();
  wireReport();
  wirePeople();

  keepFocusVisible();
}

async function start() {
  document.body.dataset.motion = preference();
  boot();
  setView(viewFromHash());
  // The guest cookie comes from the first /api/me; every later request (and the stream) carries it.
  state.me = await currentUser().catch(() => null);
  const overview = loadOverview().catch((error) => {
    state.overviewFailed = true;
    $("#challenge-groups").removeAttribute("aria-busy");
    $("#challenge-groups").replaceChildren(h("div", { class: "ch-empty" },
      h("p", { class: "ch-empty-title", text: "We couldn’t load today’s challenges." }),
      h("p", { class: "muted small", text: error.message }),
      h("button", { class: "button ch-small", type: "button", onclick: () => location.reload() }, "Try again")));
  });
  await Promise.all([overview, loadFeed()]);
  connectLive();
  setInterval(tick, TICK_MS);
}

wire();
start()
  .catch((error) => showPageError(error.message))
  .finally(() => {
    document.body.dataset.ready = "true";
  });
