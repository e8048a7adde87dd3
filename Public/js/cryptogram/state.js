// The cryptogram page's shared state and small shared functions: the game on screen, the message line, the queue
// that sends moves one at a time in order.
import { api } from "../app.js";
import { preference } from "../motion.js";
import { showGame } from "./game.js";

const $ = (selector) => document.querySelector(selector);
export const LENGTH_KEY = "completionkit.cryptogram.length";
export const KEY_ROWS = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"];
const REFUSALS = new Set(["not_playing", "paused", "already_revealed", "not_paused", "not_failed", "nothing_to_reveal"]);

export const state = {
  game: null,
  /** Cell elements by cell index (undefined for spaces). */
  cells: [],
  /** Letter cell indices in reading order. */
  letters: [],
  /** What each cell was last drawn with, so a render writes only the cells that changed. */
  looks: [],
  selected: null,
  /** The clock: elapsed seconds from the server at `at` (performance.now()). */
  clock: { base: 0, at: 0 },
  length: localStorage.getItem(LENGTH_KEY) || "short",
  /** Moves run one at a time, in the order they were asked for. */
  queue: Promise.resolve(),
  pending: 0,
  /** The open share: its game, the server's text and links, the link made absolute, and the card as a file once fetched. */
  share: null,
};

// MARK: Small utilities

export function formatDate(isoDate, options = { weekday: "long", day: "numeric", month: "long" }) {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new Date(year, month - 1, day).toLocaleDateString(undefined, options);
}

export function localToday() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

/** Shows `text` on the message line; `spoken` only reads it out (the line keeps its height either way, so the
 *  board below never moves). */
export function say(text, kind = "", { spoken = false } = {}) {
  const message = $("#message");
  if (spoken) {
    const quiet = document.createElement("span");
    quiet.className = "sr-only";
    quiet.textContent = text;
    message.replaceChildren(quiet);
  } else {
    message.textContent = text;
  }
  message.className = `message cg-message ${kind}`;
}

export function sayOnStart(text) {
  $("#start-message").textContent = text;
}

export function isShown(index) {
  const cell = state.game && state.game.cells[index];
  return Boolean(cell && cell.shown != null);
}

export function playable() {
  const game = state.game;
  return Boolean(game && game.status === "playing" && !game.isPaused);
}

export function setURL(gameID) {
  const url = gameID ? `/cryptogram?game=${encodeURIComponent(gameID)}` : "/cryptogram";
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

/** Runs `task` after every move asked for before it; errors are shown kindly. */
export function enqueue(task) {
  state.pending += 1;
  document.body.dataset.busy = "true";
  const run = state.queue.then(task).catch((error) => {
    if ($("#game").hidden) return sayOnStart(error.message);
    // A refused move means this page was behind (another tab or device played on): catch up with the server.
    if (REFUSALS.has(error.code) && state.game) {
      const before = state.game;
      return api(`/api/cryptogram/games/${encodeURIComponent(before.id)}`)
        .then((game) => {
          const changed = game.status !== before.status || game.isPaused !== before.isPaused;
          showGame(game);
          if (changed) {
            const now = game.status === "solved" ? "is solved" : game.status === "failed" ? "ran out of mistakes" : game.isPaused ? "is paused" : "changed";
            say(`This puzzle ${now} in another tab or on another device.`);
          } else {
            say(error.message, "error");
          }
        })
        .catch(() => say(error.message, "error"));
    }
    say(error.message, "error");
  }).finally(() => {
    state.pending -= 1;
    if (state.pending === 0) document.body.dataset.busy = "false";
  });
  state.queue = run;
  return run;
}

export function movePath(action) {
  return `/api/cryptogram/games/${encodeURIComponent(state.game.id)}/${action}?preference=${preference()}`;
}
