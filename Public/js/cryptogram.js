// The Cryptogram page. The server owns every rule (what is right, mistakes, hints, the clock, the
// celebration's timing); the page shows the game it sends, sends the player's moves, and plays the effects and
// the choreography each move returns. This file wires the page (keys, buttons, the first load); the parts live
// in js/cryptogram/: state (the move queue and small shared functions), board, clock (and pausing when the
// player leaves), game (showing a game, moves and their effects), finish (the completion view and sharing),
// dailies (today and the archive). The Calm switch is the shell's (motion.js).
import { api, boot } from "./app.js";
import { preference } from "./motion.js";
import { emptyFrom, fitBoard, moveSelection, select } from "./cryptogram/board.js";
import { wireAway } from "./cryptogram/clock.js";
import { wireDailies } from "./cryptogram/dailies.js";
import { closeShare, copyShare, openShare, shareNatively } from "./cryptogram/finish.js";
import { wireShareVideo } from "./lib/share-video.js";
import { hint, nextPuzzle, showFailed, showGame, showStart, simpleMove, startGame, trapFocus, typeLetter } from "./cryptogram/game.js";
import { enqueue, LENGTH_KEY, movePath, playable, say, sayOnStart, state } from "./cryptogram/state.js";

const $ = (selector) => document.querySelector(selector);

// MARK: Input

function onKeyDown(event) {
  if ($("#game").hidden || !state.game) return;
  if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  const target = event.target;
  if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
  const key = event.key;
  if (/^[a-z]$/i.test(key)) {
    event.preventDefault();
    typeLetter(key.toUpperCase());
    return;
  }
  // Arrow keys move the selection from the page itself too; Tab is left to the page unless a cell has focus.
  const inBoard = target === document.body || target === document.documentElement || $("#board").contains(target);
  if (!inBoard || !playable()) return;
  if (key === "Tab" && !$("#board").contains(target)) return;
  switch (key) {
    case "ArrowLeft":
    case "ArrowUp":
    case "Backspace":
      event.preventDefault();
      moveSelection(-1);
      break;
    case "ArrowRight":
    case "ArrowDown":
      event.preventDefault();
      moveSelection(1);
      break;
    case "Home":
      event.preventDefault();
      select(state.letters[0]);
      break;
    case "End":
      event.preventDefault();
      select(state.letters[state.letters.length - 1]);
      break;
    case "Enter": {
      event.preventDefault();
      const next = emptyFrom(state.selected, 1);
      if (next != null) select(next, { focus: true });
      break;
    }
    default:
      break;
  }
}

function wire() {
  document.addEventListener("keydown", onKeyDown);
  wireAway();
  wireDailies();
  // The board's box changes with the window (a resize, a phone turned), not with the moves.
  let boardSize = "";
  new ResizeObserver(([entry]) => {
    const size = `${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`;
    if (size === boardSize) return;
    boardSize = size;
    // A solved board is on its way out under the completion view: measuring it then would only delay the card.
    if (state.game && state.game.status === "solved") return;
    fitBoard();
  }).observe($("#board"));
  $("#board").addEventListener("click", (event) => {
    const cell = event.target.closest(".cg-cell");
    if (!cell || !playable()) return;
    select(Number(cell.dataset.index), { focus: true });
  });
  $("#length-choice").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-length]");
    if (!button) return;
    state.length = button.dataset.length;
    localStorage.setItem(LENGTH_KEY, state.length);
    for (const b of document.querySelectorAll("#length-choice button")) b.setAttribute("aria-pressed", String(b === button));
  });
  $("#play-daily").addEventListener("click", () => {
    sayOnStart("");
    enqueue(() => startGame("daily"));
  });
  $("#play-random").addEventListener("click", () => {
    sayOnStart("");
    enqueue(() => startGame("random", state.length));
  });
  $("#back-to-game").addEventListener("click", () => state.game && showGame(state.game));
  $("#hint").addEventListener("click", hint);
  $("#pause").addEventListener("click", () => simpleMove("pause"));
  $("#resume").addEventListener("click", () => simpleMove("resume"));
  $("#new-puzzle").addEventListener("click", () => showStart());
  // New puzzle after a loss lets the lost one go on the server too, so it does not come back on the next visit.
  $("#failed-new").addEventListener("click", () => enqueue(async () => {
    if (state.game && state.game.status === "failed") {
      await api(movePath("abandon"), { method: "POST" });
      state.game = null;
    }
    showStart();
  }));
  trapFocus($("#failed-panel"));
  $("#try-again").addEventListener("click", () => simpleMove("restart"));
  $("#continue").addEventListener("click", () => {
    $("#failed-actions").hidden = true;
    $("#continue-ask").hidden = false;
    $("#continue-yes").focus();
  });
  $("#continue-no").addEventListener("click", () => showFailed());
  $("#continue-yes").addEventListener("click", () => simpleMove("continue"));
  $("#share-open").addEventListener("click", () => enqueue(openShare));
  $("#share-native").addEventListener("click", shareNatively);
  $("#share-copy").addEventListener("click", copyShare);
  $("#share-close").addEventListener("click", () => $("#share-panel").close());
  $("#share-panel").addEventListener("close", closeShare);
  wireShareVideo({ makeLabel: "Make a short video of your solve", shareClass: "primary" });
  $("#next-puzzle").addEventListener("click", () => {
    const length = state.game ? state.game.length : state.length;
    nextPuzzle(length);
  });
  window.addEventListener("motionpreferencechange", (event) => {
    document.body.dataset.motion = event.detail;
  });
}

async function load() {
  document.body.dataset.motion = preference();
  const params = new URLSearchParams(location.search);
  const daily = params.get("daily");
  if (daily) {
    // A shared daily link: that day's puzzle, the same one the friend who shared it played.
    try {
      await startGame("daily", null, daily);
      return;
    } catch (error) {
      showStart();
      sayOnStart(error.message);
      return;
    }
  }
  const requested = params.get("game");
  let notice = "";
  if (requested) {
    try {
      showGame(await api(`/api/cryptogram/games/${encodeURIComponent(requested)}`));
      return;
    } catch {
      // Someone else's or an old link: say so, then the person's own unfinished puzzle or the start.
      notice = "That link is someone else's puzzle (puzzles are private), so here is yours.";
    }
  }
  const { game } = await api("/api/cryptogram/current");
  if (game) {
    showGame(game);
    if (notice) say(notice);
  } else {
    showStart();
    if (notice) sayOnStart(notice.replace("so here is yours.", "so pick one of your own."));
  }
}

boot();
wire();
load()
  .catch((error) => {
    showStart();
    sayOnStart(error.message);
  })
  .finally(() => {
    document.body.dataset.ready = "true";
  });
