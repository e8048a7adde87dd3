// Showing a game and carrying out moves: the start screen, the effects a move returns (flash, reveal, fail,
// restart), the lost-puzzle dialog and the player's moves.
import { api } from "../app.js";
import { buildBoard, buildKeyboard, emptyFrom, fitBoard, keepInView, renderGame, select } from "./board.js";
import { setClock } from "./clock.js";
import { showDailies } from "./dailies.js";
import { celebrate, showCompletion } from "./finish.js";
import { enqueue, formatDate, isShown, localToday, movePath, playable, say, setURL, state } from "./state.js";

const $ = (selector) => document.querySelector(selector);

// MARK: Screens

function showScreen(name) {
  // A new screen starts at its top, not where the last one was scrolled to.
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  $("#loading").hidden = true;
  $("#start").hidden = name !== "start";
  $("#game").hidden = name !== "game";
  document.body.dataset.screen = name;
}

export function showStart() {
  $("#today").textContent = formatDate(localToday());
  $("#back-row").hidden = !(state.game && state.game.status !== "solved");
  for (const button of document.querySelectorAll("#length-choice button")) {
    button.setAttribute("aria-pressed", String(button.dataset.length === state.length));
  }
  showScreen("start");
  setURL(null);
  showDailies();
}

/** Starts (or resumes) a puzzle: `date` picks another day's daily, as a shared link does. */
export async function startGame(mode, length, date = null) {
  const body = { mode };
  if (mode === "random" && length) body.length = length;
  if (date) body.date = date;
  const game = await api("/api/cryptogram/games", { method: "POST", body });
  showGame(game);
  if (game.status === "solved") {
    say(date && date !== localToday() ? "You have already solved this day's puzzle. Here it is again." : "You have already solved today's puzzle. Here it is again.", "ok");
  }
}


// MARK: Showing a game

/** Shows `game`: a solved game shows its completion view at rest (no animation). */
export function showGame(game) {
  const fresh = !state.game || state.game.id !== game.id;
  state.game = game;
  setClock(game);
  if (fresh) {
    window.scrollTo(0, 0);
    buildBoard(game);
    state.selected = null;
    say("");
  }
  buildKeyboard();
  showScreen("game");
  if (fresh) fitBoard();
  setURL(game.id);
  if (state.selected == null || isShown(state.selected)) state.selected = emptyFrom(null, 1) ?? state.letters[0] ?? null;
  renderGame();
  // A reopened puzzle may have its first empty cell further down a long quote.
  if (fresh && game.status === "playing") keepInView(state.cells[state.selected]);
  if (game.status === "failed") showFailed();
  if (game.status === "solved") showCompletion(game, null);
}

/** The visible, enabled buttons of `panel`. */
function panelButtons(panel) {
  return [...panel.querySelectorAll("button")].filter((button) => !button.disabled && !button.closest("[hidden]"));
}

/** Keeps keyboard focus inside `panel` while it shows (an alertdialog): Tab cycles its buttons, and focus that
 *  lands behind it comes back. */
export function trapFocus(panel) {
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const buttons = panelButtons(panel);
    if (!buttons.length) return;
    const first = buttons[0];
    const last = buttons[buttons.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  document.addEventListener("focusin", (event) => {
    if (panel.hidden || panel.contains(event.target)) return;
    const first = panelButtons(panel)[0];
    if (first) first.focus({ preventScroll: true });
  });
}

export function showFailed() {
  $("#continue-ask").hidden = true;
  $("#failed-actions").hidden = false;
  $("#failed-panel").hidden = false;
  $("#try-again").focus({ preventScroll: true });
  $("#try-again").scrollIntoView({ block: "nearest" });
}

/** Applies a move's answer: the effects first (flash, reveal, fail, celebrate), then the new game. */
async function applyMove(response) {
  const effects = response.effects || [];
  state.game = response.game;
  setClock(response.game);
  const byType = (type) => effects.filter((e) => e.type === type);

  let flash = null;
  for (const effect of byType("mistake")) {
    const index = effect.cells && effect.cells[0];
    flash = flashMistake(index, effect.letter, effect.flashSeconds);
    const limit = response.game.mistakeLimit;
    say(limit != null
      ? `${effect.letter} is not the letter there. Mistakes: ${response.game.mistakes} of ${limit}.`
      : `${effect.letter} is not the letter there.`, "error");
  }
  const revealed = [];
  for (const effect of byType("revealed")) {
    revealed.push(...(effect.cells || []));
    const count = (effect.cells || []).length;
    say(count > 1 ? `${effect.letter} — ${count} cells filled.` : `${effect.letter} — well spotted.`, "ok");
  }
  for (const effect of byType("hint")) {
    revealed.push(...(effect.cells || []));
    const count = (effect.cells || []).length;
    say(`Hint: a letter revealed${count > 1 ? ` in ${count} cells` : ""} (${response.game.hints} used).`, "");
  }
  renderGame();
  // The last letters do not pop: the whole board's wiggle is their moment (and one effect less in its first frame).
  const solved = byType("solved").length > 0;
  if (!solved) popCells(revealed);

  if (solved) {
    celebrate(response);
    return;
  }
  if (revealed.length && playable() && (state.selected == null || isShown(state.selected))) {
    select(emptyFrom(state.selected, 1));
  }
  if (byType("failed").length) {
    // The wrong letter finishes its flash first, then the game-over panel appears.
    if (flash) await flash;
    if (state.game && state.game.id === response.game.id && state.game.status === "failed") showFailed();
  }
  if (byType("restarted").length) {
    state.selected = emptyFrom(null, 1);
    renderGame();
    say("Fresh start — same quote, clean slate.", "ok");
    select(state.selected, { focus: true });
  }
  if (byType("continued").length) {
    say("No limit now — take your time.", "ok");
    select(state.selected, { focus: true });
  }
  if (byType("paused").length) {
    say("");
    $("#resume").focus({ preventScroll: true });
  }
  if (byType("resumed").length) select(state.selected, { focus: true });
}

/** Shows the wrong letter in the error colour for the server's `seconds` (the CSS animation plays over that
 *  time), then clears it. */
function flashMistake(index, letter, seconds) {
  const element = state.cells[index];
  if (!element) return Promise.resolve();
  const plain = element.querySelector(".cg-plain");
  element.classList.remove("is-mistake");
  void element.offsetWidth; // restart the animation when the same cell is wrong twice in a row
  plain.textContent = letter;
  element.style.setProperty("--flash", `${seconds}s`);
  element.classList.add("is-mistake");
  return new Promise((resolve) => {
    const clear = (event) => {
      if (event && event.animationName && event.animationName !== "cg-mistake") return;
      element.removeEventListener("animationend", clear);
      element.removeEventListener("animationcancel", clear);
      element.classList.remove("is-mistake");
      const cell = state.game && state.game.cells[index];
      plain.textContent = cell && cell.shown != null ? cell.shown : "";
      resolve();
    };
    element.addEventListener("animationend", clear);
    element.addEventListener("animationcancel", clear);
    // No animation at all (it was removed by a style sheet): clear at once.
    if (!element.getAnimations().length) clear();
  });
}

function popCells(indices) {
  const elements = indices.map((index) => state.cells[index]).filter(Boolean);
  // One style flush for all of them (restarting each cell's animation with its own flush made the last
  // letter of a long quote a long task, just when the celebration should start).
  const again = elements.filter((element) => element.classList.contains("is-new"));
  for (const element of again) element.classList.remove("is-new");
  if (again.length) void document.body.offsetWidth;
  for (const element of elements) {
    element.classList.add("is-new");
    element.addEventListener("animationend", () => element.classList.remove("is-new"), { once: true });
  }
}

// MARK: Moves

export function typeLetter(letter) {
  if (!state.game) return;
  enqueue(async () => {
    const game = state.game;
    if (!game) return;
    if (game.status === "solved") return;
    if (game.status === "failed") return say("Out of mistakes: choose Continue, Try again or New puzzle.");
    if (game.isPaused) return say("The puzzle is paused. Resume it to keep playing.");
    let index = state.selected;
    if (index != null && isShown(index)) {
      // A finished cell takes no letter: point at the next empty one and let the player type again.
      const next = emptyFrom(index, 1);
      if (next != null) select(next);
      return say("That letter is already found — moved on to the next empty cell.");
    }
    if (index == null) {
      index = emptyFrom(null, 1);
      if (index == null) return;
      select(index);
    }
    const response = await api(movePath("guesses"), { method: "POST", body: { cell: index, letter } });
    await applyMove(response);
  });
}

export function hint() {
  enqueue(async () => {
    if (!playable()) return;
    const index = state.selected;
    const body = index != null && !isShown(index) ? { cell: index } : {};
    const response = await api(movePath("hints"), { method: "POST", body });
    await applyMove(response);
  });
}

export function simpleMove(action) {
  return enqueue(async () => {
    if (!state.game) return;
    const response = await api(movePath(action), { method: "POST" });
    await applyMove(response);
  });
}

export function nextPuzzle(length) {
  // Focus goes on to the new board's selected cell (the button it was on disappears with the card).
  return enqueue(async () => {
    await startGame("random", length);
    if (state.selected != null) select(state.selected, { focus: true });
  });
}
