// The Cryptogram page. The server owns every rule (what is right, mistakes, hints, the clock, the
// celebration's timing); this file shows the game it sends, sends the player's moves, and plays the
// effects and the choreography each move returns.
import { api, boot, canShareFiles, formatClock as formatTime, timeZone as currentTimeZone } from "./app.js";
import { playChoreography, playWiggle, preference } from "./motion.js";
import { showDailies, wireDailies } from "./cryptogram/dailies.js";
import { reflectSystemMotion } from "./cryptogram/calm.js";

const $ = (selector) => document.querySelector(selector);
const LENGTH_KEY = "completionkit.cryptogram.length";
const KEY_ROWS = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"];
const REFUSALS = new Set(["not_playing", "paused", "already_revealed", "not_paused", "not_failed", "nothing_to_reveal"]);
const timeZone = currentTimeZone();

const state = {
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

// MARK: Small helpers

function formatDate(isoDate, options = { weekday: "long", day: "numeric", month: "long" }) {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new Date(year, month - 1, day).toLocaleDateString(undefined, options);
}

function localToday() {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}

/** Shows `text` on the message line; `spoken` only reads it out (the line keeps its height either way, so the
 *  board below never moves). */
function say(text, kind = "", { spoken = false } = {}) {
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

function sayOnStart(text) {
  $("#start-message").textContent = text;
}

function isShown(index) {
  const cell = state.game && state.game.cells[index];
  return Boolean(cell && cell.shown != null);
}

function playable() {
  const game = state.game;
  return Boolean(game && game.status === "playing" && !game.isPaused);
}

function setURL(gameID) {
  const url = gameID ? `/cryptogram?game=${encodeURIComponent(gameID)}` : "/cryptogram";
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

/** Runs `task` after every move asked for before it; errors are shown kindly. */
function enqueue(task) {
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

function movePath(action) {
  return `/api/cryptogram/games/${encodeURIComponent(state.game.id)}/${action}?preference=${preference()}`;
}

// MARK: Screens

function showScreen(name) {
  // A new screen starts at its top, not where the last one was scrolled to.
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  $("#loading").hidden = true;
  $("#start").hidden = name !== "start";
  $("#game").hidden = name !== "game";
  document.body.dataset.screen = name;
}

function showStart() {
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
async function startGame(mode, length, date = null) {
  const body = { mode, timeZone };
  if (mode === "random" && length) body.length = length;
  if (date) body.date = date;
  const game = await api("/api/cryptogram/games", { method: "POST", body });
  showGame(game);
  if (game.status === "solved") {
    say(date && date !== localToday() ? "You have already solved this day's puzzle. Here it is again." : "You have already solved today's puzzle. Here it is again.", "ok");
  }
}

// MARK: The board

function buildBoard(game) {
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
function fitBoard() {
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

function buildKeyboard() {
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
function renderGame() {
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

function renderSelection() {
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

function select(index, { focus = false } = {}) {
  if (index == null || !state.cells[index]) return;
  const boardHadFocus = $("#board").contains(document.activeElement);
  state.selected = index;
  renderSelection();
  if (focus || boardHadFocus) state.cells[index].focus({ preventScroll: true });
  keepInView(state.cells[index]);
}

/** Scrolls the board (it scrolls inside its own box, above the docked keys) just enough to show `cell`. */
function keepInView(cell) {
  if (!cell) return;
  cell.scrollIntoView({ block: "nearest", inline: "nearest", behavior: preference() === "full" ? "smooth" : "auto" });
}

/** The next (or previous) empty letter cell after `from`, wrapping around; null when there is none. */
function emptyFrom(from, step = 1, { wrap = true } = {}) {
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

function moveSelection(step) {
  const letters = state.letters;
  if (!letters.length) return;
  const position = letters.indexOf(state.selected);
  const next = position < 0 ? 0 : Math.min(Math.max(position + step, 0), letters.length - 1);
  select(letters[next]);
}

// MARK: The clock

function setClock(game) {
  state.clock = { base: game.elapsedSeconds || 0, at: performance.now() };
}

function clockRunning() {
  const game = state.game;
  return Boolean(game && game.status === "playing" && game.hasStarted && !game.isPaused);
}

function tickClock() {
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

function wireAway() {
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

// MARK: Showing a game

/** Shows `game`: a solved game shows its completion view at rest (no animation). */
function showGame(game) {
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
function trapFocus(panel) {
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

function showFailed() {
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

// MARK: Completion

function fillCompletion(game) {
  const solution = game.solution || { text: "", attribution: "" };
  $("#quote-text").textContent = solution.text;
  $("#quote-attribution").textContent = solution.attribution;
  const source = $("#quote-source");
  source.textContent = solution.source ? `From: ${solution.source}` : "";
  source.hidden = !solution.source;
  const stats = game.stats || { seconds: game.elapsedSeconds, mistakes: game.mistakes, hints: game.hints };
  // A solve after Continue is finished, not won: the card says so (the server decided which).
  const finished = game.outcome === "finished";
  $("#complete-title").textContent = finished ? "Finished" : "Solved!";
  const note = $("#complete-note");
  note.textContent = finished ? "You kept going past the mistake limit: it counts as finished, not a win — no points or streak day." : "";
  note.hidden = !finished;
  const list = $("#complete-stats");
  list.textContent = "";
  const icons = {
    time: '<svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="8.5"/><path d="M12 7.5V12l3 2"/></svg>',
    mistakes: '<svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 4 2.8 19.5h18.4z"/><path d="M12 10v4M12 16.8v.2"/></svg>',
    hints: '<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor"><path d="M9 18h6v1.2a1 1 0 0 1-1 1h-4a1 1 0 0 1-1-1zM12 3a6 6 0 0 0-3.6 10.8c.6.5 1 1.2 1.1 2h5c.1-.8.5-1.5 1.1-2A6 6 0 0 0 12 3z"/></svg>',
  };
  const add = (kind, text) => {
    const item = document.createElement("li");
    item.className = `cg-stat cg-stat-${kind}`;
    item.innerHTML = `<span class="cg-stat-icon" aria-hidden="true">${icons[kind]}</span><span></span>`;
    item.lastElementChild.textContent = text;
    list.append(item);
  };
  add("time", `Time: ${formatTime(stats.seconds)}`);
  if (stats.mistakes > 0) add("mistakes", `Mistakes: ${stats.mistakes}`);
  if (stats.hints > 0) add("hints", `Hints used: ${stats.hints}`);
}

function completionElements() {
  const overlay = $("#complete");
  const elements = { overlay };
  for (const element of overlay.querySelectorAll("[data-step]")) {
    if (!element.hidden) elements[element.dataset.step] = element;
  }
  return elements;
}

/**
 * Shows the completion view. With a move's `celebration` it plays the server's sequence; without one
 * (a solved game loaded later) it simply shows it, at rest.
 */
function showCompletion(game, celebration, startTime = null) {
  fillCompletion(game);
  const overlay = $("#complete");
  for (const animation of state.completionAnimations || []) animation.cancel();
  state.completionAnimations = [];
  overlay.hidden = false;
  overlay.dataset.played = celebration ? "playing" : "static";
  const play = $("#play");
  if (!celebration) {
    play.classList.add("is-collapsed");
    return Promise.resolve();
  }
  const finished = playChoreography(celebration, completionElements(), { startTime });
  state.completionAnimations = finished.animations || [];
  // When the view has fully covered the puzzle, the puzzle steps aside (its own step says when).
  const cover = state.completionAnimations.find((a) => a.id === "step:overlay");
  const covered = cover ? cover.finished.catch(() => null) : finished;
  covered.then(() => {
    if (state.game && state.game.id === game.id && !overlay.hidden) play.classList.add("is-collapsed");
  });
  return finished.then(() => {
    if (overlay.hidden || !state.game || state.game.id !== game.id) return;
    overlay.dataset.played = "done";
    const next = $("#next-puzzle");
    next.focus({ preventScroll: true });
    // In a short window the card scrolls inside itself: the focused button must not sit below its fold.
    next.scrollIntoView({ block: "nearest" });
  });
}

/** The solving move: a buzz, the cells wiggle, then the completion view arrives step by step. */
function celebrate(response) {
  const game = response.game;
  try {
    navigator.vibrate?.([30, 60, 40]);
  } catch {
    // Vibration is a nicety; some browsers refuse it.
  }
  state.selected = null;
  renderSelection();
  const letterCells = game.cells.map((cell, index) => (cell.isLetter ? state.cells[index] : undefined));
  const wiggle = response.wiggle ? playWiggle(response.wiggle, letterCells) : null;
  // For screen readers only: the card shows the same words.
  say(`${game.outcome === "finished" ? "Finished" : "Solved"} in ${formatTime(game.stats ? game.stats.seconds : game.elapsedSeconds)}! ${game.solution ? game.solution.attribution : ""}`, "ok", { spoken: true });
  const first = wiggle && wiggle.animations[0];
  if (!first) {
    showCompletion(game, response.celebration || null);
    revealStage();
    return;
  }
  // Nothing of the card shows before 0.4 s, so the wiggle gets the first frame to itself and the card is laid
  // out on the next one — its clock set to the wiggle's start, so every step keeps the seed's time from the solve.
  first.ready.then(() => {
    if (!state.game || state.game.id !== game.id || state.game.status !== "solved") return;
    showCompletion(game, response.celebration || null, first.startTime);
    revealStage();
  }, () => null);
}

/** Brings the puzzle's top into view where the page scrolls (a short window), after the finish has begun. */
function revealStage() {
  requestAnimationFrame(() => {
    const stage = $("#stage");
    const topbar = document.querySelector(".topbar");
    if (stage.getBoundingClientRect().top < (topbar ? topbar.getBoundingClientRect().bottom : 0)) {
      stage.scrollIntoView({ block: "start", behavior: preference() === "full" ? "smooth" : "auto" });
    }
  });
}

// MARK: Sharing

function setShareStatus(text, kind = "") {
  const status = $("#share-status");
  status.textContent = text;
  status.className = `message ${kind}`;
}

/** Opens the share dialog for the solved puzzle: the server's spoiler-free text and card, and what to do with them. */
async function openShare() {
  const game = state.game;
  if (!game || game.status !== "solved") return;
  setShareStatus("");
  let data = state.share && state.share.gameID === game.id ? state.share.data : null;
  if (!data) {
    try {
      data = await api(`/api/cryptogram/games/${encodeURIComponent(game.id)}/share`);
    } catch (error) {
      say(error.message, "error");
      return;
    }
    state.share = { gameID: game.id, data, url: new URL(data.path, location.origin).href, file: null };
  }
  const { url } = state.share;
  // The link may break after "?" or a "/" on a narrow screen, never inside a word.
  const link = document.createElement("span");
  link.className = "cg-share-link";
  url.split(/(?<=[?/])/).forEach((part, index) => {
    if (index) link.append(document.createElement("wbr"));
    link.append(part);
  });
  $("#share-text").replaceChildren(`${data.text}\n`, link);
  const card = $("#share-card");
  card.alt = `Share card: ${data.text.split("\n").slice(0, 2).join(". ")}`;
  if (card.getAttribute("src") !== data.cardPath) card.src = data.cardPath;
  const download = $("#share-download");
  download.href = data.cardPath;
  download.download = game.mode === "daily" && game.date ? `cryptogram-${game.date}.png` : "cryptogram.png";
  $("#share-native").hidden = !navigator.share;
  const dialog = $("#share-panel");
  if (!dialog.open) dialog.showModal();
  (navigator.share ? $("#share-native") : $("#share-copy")).focus();
  // The picture is fetched now, so "Share…" can hand it over at once (a browser lets a page share only
  // straight after the press).
  if (canShareFiles() && !state.share.file) {
    const shareFor = state.share;
    fetch(data.cardPath, { credentials: "same-origin" })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob) return;
        const file = new File([blob], download.download, { type: "image/png" });
        if (state.share === shareFor && navigator.canShare({ files: [file] })) shareFor.file = file;
      })
      .catch(() => null);
  }
}

async function shareNatively() {
  const share = state.share;
  if (!share || !navigator.share) return;
  const payload = { title: share.data.title, text: share.data.text, url: share.url };
  if (share.file) payload.files = [share.file];
  try {
    await navigator.share(payload);
    setShareStatus("Shared.", "ok");
  } catch (error) {
    if (error && error.name === "AbortError") return;
    setShareStatus("Sharing didn't work here — copy the text or download the image instead.", "error");
  }
}

async function copyShare() {
  const text = $("#share-text").textContent;
  try {
    await navigator.clipboard.writeText(text);
    setShareStatus("Copied — paste it into a message.", "ok");
  } catch {
    // No clipboard for this page: select the text so the person can copy it themselves.
    const range = document.createRange();
    range.selectNodeContents($("#share-text"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    setShareStatus("Copying isn't allowed here: the text is selected, so press Ctrl+C (⌘C on a Mac).", "error");
  }
}

// MARK: Moves

function typeLetter(letter) {
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

function hint() {
  enqueue(async () => {
    if (!playable()) return;
    const index = state.selected;
    const body = index != null && !isShown(index) ? { cell: index } : {};
    const response = await api(movePath("hints"), { method: "POST", body });
    await applyMove(response);
  });
}

function simpleMove(action) {
  return enqueue(async () => {
    if (!state.game) return;
    const response = await api(movePath(action), { method: "POST" });
    await applyMove(response);
  });
}

function nextPuzzle(length) {
  // Focus goes on to the new board's selected cell (the button it was on disappears with the card).
  return enqueue(async () => {
    await startGame("random", length);
    if (state.selected != null) select(state.selected, { focus: true });
  });
}

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
reflectSystemMotion();
wire();
load()
  .catch((error) => {
    showStart();
    sayOnStart(error.message);
  })
  .finally(() => {
    document.body.dataset.ready = "true";
  });
