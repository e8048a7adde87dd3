// The board and the keys: building them from the server's game, drawing each cell as the server says, and
// moving the selection.
import { preference } from "../motion.js";
import { tickClock } from "./clock.js";
import { typeLetter } from "./game.js";
import { formatDate, isShown, KEY_ROWS, playable, state } from "./state.js";

const $ = (selector) => document.querySelector(selector);

// MARK: The board

export function buildBoard(game) {
  const board = $("#board");
  board.textContent = "";
  state.cells = [];
  state.letters = [];
  state.looks = [];
  let longest = 1;
  for (const word of game.words) {
    const group = document.createElement("span");
    group.className = "cg-word";
    let units = 0;
    for (const index of word) {
      const cell = game.cells[index];
      if (cell.isLetter) {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "cg-cell";
        button.tabIndex = -1;
        button.dataset.index = String(index);
        button.dataset.cipher = cell.cipher;
        button.innerHTML = '<span class="cg-plain"></span><span class="cg-cipher" aria-hidden="true"></span>';
        button.querySelector(".cg-cipher").textContent = cell.cipher;
        group.append(button);
        state.cells[index] = button;
        state.letters.push(index);
        units += 1;
      } else {
        const mark = document.createElement("span");
        mark.className = "cg-punct";
        mark.dataset.index = String(index);
        mark.textContent = cell.shown ?? "";
        group.append(mark);
        state.cells[index] = mark;
        units += 0.5;
      }
    }
    longest = Math.max(longest, units);
    board.append(group);
  }
  // Cells shrink so the longest word always fits on one line (no sideways scrolling on a phone).
  board.style.setProperty("--longest", String(longest));
  board.dataset.game = game.id;
}

/** The smallest letter cell the board shrinks to, in CSS pixels, before it scrolls instead. */
const SMALLEST_CELL = 30;

/**
 * Sizes the cells so the whole quote fits the board's height where it can: the largest cell that fits, found
 * by halving (a handful of layouts, once per puzzle and per change of the board's size, never per move). A
 * quote too long for that even at the smallest cell scrolls inside the board.
 */
export function fitBoard() {
  const board = $("#board");
  const sample = board.querySelector(".cg-cell");
  if (!sample || board.clientHeight === 0) return;
  board.style.removeProperty("--fit");
  const fits = () => board.scrollHeight <= board.clientHeight + 1;
  if (fits()) return;
  let low = SMALLEST_CELL;
  let high = sample.getBoundingClientRect().width;
  if (high <= low) return;
  for (let step = 0; step < 6 && high - low > 1; step++) {
    const middle = (low + high) / 2;
    board.style.setProperty("--fit", `${middle}px`);
    if (fits()) low = middle;
    else high = middle;
  }
  board.style.setProperty("--fit", `${Math.floor(low)}px`);
  if (state.selected != null) keepInView(state.cells[state.selected]);
}

export function buildKeyboard() {
  const keyboard = $("#keyboard");
  if (keyboard.children.length) return;
  KEY_ROWS.forEach((row, rowIndex) => {
    const line = document.createElement("div");
    line.className = `cg-keys cg-keys-${rowIndex + 1}`;
    if (rowIndex === 2) line.append(makeKey("‹", "prev", "Previous empty cell"));
    for (const letter of row) line.append(makeKey(letter, letter, `Letter ${letter}`));
    if (rowIndex === 2) line.append(makeKey("›", "next", "Next empty cell"));
    keyboard.append(line);
  });
  // Keys keep the focus where it was, so the selected cell stays the target.
  keyboard.addEventListener("mousedown", (event) => {
    if (event.target.closest("button")) event.preventDefault();
  });
  keyboard.addEventListener("click", (event) => {
    const key = event.target.closest("button");
    if (!key) return;
    const value = key.dataset.key;
    if (value === "prev") selectEmpty(-1);
    else if (value === "next") selectEmpty(1);
    else typeLetter(value);
  });
}

function makeKey(label, value, name) {
  const key = document.createElement("button");
  key.type = "button";
  key.className = value.length === 1 ? "cg-key" : "cg-key cg-key-move";
  key.dataset.key = value;
  key.textContent = label;
  key.setAttribute("aria-label", name);
  return key;
}

/** Updates every cell, key, counter and panel from `state.game`. */
export function renderGame() {
  const game = state.game;
  // Which plain letter each cipher letter is known to hide, and whether all its cells are shown.
  const known = new Map();
  for (const cell of game.cells) {
    if (!cell.isLetter) continue;
    const entry = known.get(cell.cipher) || { letter: null, all: true };
    if (cell.shown != null) entry.letter = cell.shown;
    else entry.all = false;
    known.set(cell.cipher, entry);
  }
  const done = new Set([...known.values()].filter((e) => e.all && e.letter).map((e) => e.letter));

  for (const index of state.letters) {
    const cell = game.cells[index];
    const element = state.cells[index];
    // Only cells that changed are written: rewriting a hundred unchanged cells made the solving move's frame
    // restyle the whole board just as the celebration starts.
    const look = `${cell.shown ?? ""}|${cell.prefilled}|${cell.hinted}`;
    if (state.looks[index] === look && !element.classList.contains("is-mistake")) continue;
    state.looks[index] = look;
    const plain = element.firstElementChild;
    if (!element.classList.contains("is-mistake")) plain.textContent = cell.shown ?? "";
    element.classList.toggle("is-shown", cell.shown != null);
    element.classList.toggle("is-prefilled", cell.prefilled);
    element.classList.toggle("is-hinted", cell.hinted);
    const how = cell.prefilled ? " (given)" : cell.hinted ? " (hint)" : "";
    element.setAttribute("aria-label", `Code letter ${cell.cipher}: ${cell.shown ? cell.shown + how : "empty"}`);
  }
  for (const key of document.querySelectorAll("#keyboard .cg-key[data-key]")) {
    if (key.dataset.key.length !== 1) continue;
    const found = done.has(key.dataset.key);
    if (key.classList.contains("is-done") !== found) {
      key.classList.toggle("is-done", found);
      key.setAttribute("aria-label", `Letter ${key.dataset.key}${found ? ", all found" : ""}`);
    }
  }

  const limited = game.mistakeLimit != null;
  const mistakes = $("#mistakes");
  mistakes.textContent = limited ? `${game.mistakes} / ${game.mistakeLimit}` : String(game.mistakes);
  mistakes.dataset.count = String(game.mistakes);
  mistakes.classList.toggle("is-warning", limited && game.mistakes === game.mistakeLimit - 1);
  const hints = $("#hints");
  hints.textContent = String(game.hints);
  hints.dataset.count = String(game.hints);

  // The server's percent (the core's rounding: never 100 % before the last letter, never 0 % once begun).
  const percent = game.progressPercent;
  const progress = $("#progress");
  progress.setAttribute("aria-valuenow", String(percent));
  progress.setAttribute("aria-valuetext", `${game.progress.completed} of ${game.progress.total} letters`);
  const bar = progress.firstElementChild;
  const scale = `scaleX(${percent / 100})`;
  if (bar.style.transform !== scale) bar.style.transform = scale;

  const section = $("#game");
  section.dataset.status = game.status;
  section.dataset.paused = String(game.isPaused);
  const title = game.mode === "daily" ? "Daily puzzle" : "Just play";
  $("#game-title").textContent = title;
  const lengthName = { short: "Short", medium: "Medium", long: "Long" }[game.length] || game.length;
  $("#game-subtitle").textContent = game.mode === "daily" && game.date
    ? `${formatDate(game.date, { weekday: "short", day: "numeric", month: "short" })} · ${lengthName.toLowerCase()} quote`
    : `${lengthName} quote · ${game.progress.completed} of ${game.progress.total} letters`;
  document.title = `${title} — Cryptogram — CompletionKit`;

  const solved = game.status === "solved";
  $("#hint").disabled = !playable();
  const pause = $("#pause");
  pause.disabled = game.status !== "playing" || !game.hasStarted || game.isPaused;
  pause.title = game.hasStarted ? "" : "The clock starts with your first letter";

  $("#paused-panel").hidden = !(game.isPaused && game.status === "playing");
  const play = $("#play");
  const covered = game.isPaused || solved;
  play.inert = covered || game.status === "failed";
  play.classList.toggle("is-hidden", game.isPaused && game.status === "playing");
  play.setAttribute("aria-hidden", String(covered));
  if (game.status !== "failed") $("#failed-panel").hidden = true;
  if (!solved) {
    $("#complete").hidden = true;
    play.classList.remove("is-collapsed");
  }

  renderSelection();
  tickClock();
}

export function renderSelection() {
  const selected = state.selected;
  const cipher = selected != null && state.game ? state.game.cells[selected].cipher : null;
  for (const index of state.letters) {
    const element = state.cells[index];
    const isSelected = index === selected;
    element.classList.toggle("is-selected", isSelected);
    element.classList.toggle("is-same", !isSelected && cipher != null && element.dataset.cipher === cipher);
    element.tabIndex = isSelected ? 0 : -1;
  }
  // A cell with no selection still needs to be reachable with Tab.
  if (selected == null && state.letters.length) state.cells[state.letters[0]].tabIndex = 0;
}

export function select(index, { focus = false } = {}) {
  if (index == null || !state.cells[index]) return;
  const boardHadFocus = $("#board").contains(document.activeElement);
  state.selected = index;
  renderSelection();
  if (focus || boardHadFocus) state.cells[index].focus({ preventScroll: true });
  keepInView(state.cells[index]);
}

/** Scrolls the board (it scrolls inside its own box, above the docked keys) just enough to show `cell`. */
export function keepInView(cell) {
  if (!cell) return;
  cell.scrollIntoView({ block: "nearest", inline: "nearest", behavior: preference() === "full" ? "smooth" : "auto" });
}

/** The next (or previous) empty letter cell after `from`, wrapping around; null when there is none. */
export function emptyFrom(from, step = 1, { wrap = true } = {}) {
  const letters = state.letters;
  if (!letters.length) return null;
  let position = letters.indexOf(from);
  if (position < 0) position = step > 0 ? -1 : letters.length;
  for (let i = 1; i <= letters.length; i++) {
    let next = position + step * i;
    if (!wrap && (next < 0 || next >= letters.length)) return null;
    next = ((next % letters.length) + letters.length) % letters.length;
    if (!isShown(letters[next])) return letters[next];
  }
  return null;
}

function selectEmpty(step) {
  const next = emptyFrom(state.selected, step);
  if (next != null) select(next);
}

export function moveSelection(step) {
  const letters = state.letters;
  if (!letters.length) return;
  const position = letters.indexOf(state.selected);
  const next = position < 0 ? 0 : Math.min(Math.max(position + step, 0), letters.length - 1);
  select(letters[next]);
}
