// The clock as the server keeps it (drawn between answers), and pausing on the server when the player leaves.
import { api, apiHeaders, formatClock as formatTime } from "../app.js";
import { showGame } from "./game.js";
import { enqueue, movePath, say, state } from "./state.js";

const $ = (selector) => document.querySelector(selector);

// MARK: The clock

export function setClock(game) {
  state.clock = { base: game.elapsedSeconds || 0, at: performance.now() };
}

function clockRunning() {
  const game = state.game;
  return Boolean(game && game.status === "playing" && game.hasStarted && !game.isPaused);
}

export function tickClock() {
  if (!state.game) return;
  const running = clockRunning();
  const seconds = state.clock.base + (running ? (performance.now() - state.clock.at) / 1000 : 0);
  const timer = $("#timer");
  const text = formatTime(seconds);
  if (timer.textContent !== text) {
    timer.textContent = text;
    timer.setAttribute("datetime", `PT${Math.floor(seconds)}S`);
  }
  timer.classList.toggle("is-running", running);
}

setInterval(tickClock, 250);

// MARK: Away

/**
 * Leaving the page (another tab, another page, the window closed, a phone's home screen) pauses the puzzle on
 * the server, as the Pause button does, so the time away is never counted. The request outlives the page
 * (`keepalive`); it carries the site's header, as every change must. Coming back shows the puzzle paused.
 */
function pauseForAway() {
  if (!clockRunning() || state.away || shownElsewhere()) return;
  const game = state.game;
  state.away = fetch(movePath("pause"), {
    method: "POST",
    keepalive: true,
    credentials: "same-origin",
    headers: apiHeaders(),
  })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then((answer) => ({ gameID: game.id, answer }));
}

/** Back on the page: the puzzle as the server has it now (paused if leaving paused it). */
function comeBack() {
  const away = state.away;
  if (!away) return;
  state.away = null;
  enqueue(async () => {
    const { gameID } = await away;
    if (!state.game || state.game.id !== gameID) return;
    const game = await api(`/api/cryptogram/games/${encodeURIComponent(gameID)}`);
    if (!state.game || state.game.id !== gameID) return;
    showGame(game);
    if (game.status === "playing" && game.isPaused) {
      say("Paused while you were away: the clock stopped when you left.");
      $("#resume").focus({ preventScroll: true });
    }
  });
}

// MARK: Other tabs

// The player is not away while another tab or window of theirs shows the same puzzle: closing a second tab
// must not pause the game under the first. Tabs tell each other which game they show and whether they are
// on screen; a tab that leaves pauses only when no other tab shows its game.
const tabs = "BroadcastChannel" in window ? new BroadcastChannel("completionkit-cryptogram-tabs") : null;
const tabID = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
const otherTabs = new Map();
let announced = "";

function whatThisTabShows() {
  return { tab: tabID, game: state.game ? state.game.id : null, visible: document.visibilityState === "visible" };
}

/** Tells the other tabs what this one shows, when it changed (or when `force`d, to answer a newcomer). */
function announce(force = false, extra = {}) {
  if (!tabs) return;
  const shown = whatThisTabShows();
  const key = `${shown.game}|${shown.visible}`;
  if (!force && key === announced) return;
  announced = key;
  tabs.postMessage({ ...shown, ...extra });
}

function shownElsewhere() {
  const game = state.game && state.game.id;
  if (!game) return false;
  for (const other of otherTabs.values()) if (other.visible && other.game === game) return true;
  return false;
}

function wireTabs() {
  if (!tabs) return;
  tabs.onmessage = ({ data }) => {
    if (!data || data.tab === tabID) return;
    if (data.gone) otherTabs.delete(data.tab);
    else otherTabs.set(data.tab, { game: data.game, visible: data.visible });
    // How many other tabs this one knows of (tests wait on it instead of sleeping).
    document.documentElement.dataset.otherTabs = String(otherTabs.size);
    if (data.hello) announce(true);
  };
  announce(true, { hello: true });
  setInterval(() => announce(), 250);
}

export function wireAway() {
  wireTabs();
  document.addEventListener("visibilitychange", () => {
    announce();
    if (document.visibilityState === "hidden") pauseForAway();
    else comeBack();
  });
  // Closing or navigating away (the page may be kept in the back-forward cache and shown again).
  window.addEventListener("pagehide", () => {
    if (tabs) tabs.postMessage({ tab: tabID, gone: true });
    pauseForAway();
  });
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    announce(true, { hello: true });
    comeBack();
  });
}
