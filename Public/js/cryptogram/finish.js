// The finish: the completion view on the server's choreography, and sharing the solved puzzle.
import { api, canShareFiles, formatClock as formatTime } from "../app.js";
import { hideShareVideo, showShareVideo } from "../lib/share-video.js";
import { playChoreography, playWiggle, preference } from "../motion.js";
import { renderSelection } from "./board.js";
import { say, state } from "./state.js";

const $ = (selector) => document.querySelector(selector);

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
export function showCompletion(game, celebration, startTime = null) {
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
export function celebrate(response) {
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
export async function openShare() {
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
  showShareVideo({ path: `/api/cryptogram/games/${encodeURIComponent(game.id)}/video`, title: data.title, available: true });
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

/** Stops following the share video when the share dialog closes. */
export function closeShare() {
  hideShareVideo();
}

export async function shareNatively() {
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

export async function copyShare() {
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
