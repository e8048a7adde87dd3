// The clock as the server keeps it (drawn between answers), and pausing on the server when the player leaves.
import { api, formatClock as formatTime } from "../app.js";
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
  if (!clockRunning() || state.away) return;
  const game = state.game;
  state.away = fetch(movePath("pause"), {
    method: "POST",
    keepalive: true,
    credentials: "same-origin",
    headers: { Accept: "application/json", "X-CompletionKit": "1" },
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

export function wireAway() {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") pauseForAway();
    else comeBack();
  });
  // Closing or navigating away (the page may be kept in the back-forward cache and shown again).
  window.addEventListener("pagehide", pauseForAway);
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) comeBack();
  });
}
