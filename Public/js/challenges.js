// Challenges (seed 004): browse today's challenges, join one, complete it with a photo and a story, celebrate,
// and follow people whose completions arrive in a live feed. The server decides everything that counts —
// points, streaks, time windows, story prompts, the celebration's timeline and how long it stays; this page
// shows what it sends, sends what the person does, and listens to the feed's stream.
import { api, boot, canShareFiles, currentUser, noteFirstWrite, timeZone } from "./app.js";
import { fetchStagger, playChoreography, playStagger, preference } from "./motion.js";

const $ = (selector, root = document) => root.querySelector(selector);
/** Two columns from here on (keep in step with challenges.css). */
const WIDE = window.matchMedia("(min-width: 960px)");
const TYPES = [["daily", "Daily"], ["weekly", "Weekly"], ["monthly", "Monthly"], ["special", "Special"]];
const PHOTO_TYPES = ["image/jpeg", "image/png", "image/webp"];
/** The server's refusals of the picture itself (ChallengesError): sending it again cannot help, another is needed. */
const REFUSED_PHOTO = ["photo_too_large", "photo_unsupported", "photo_unreadable", "photo_too_many_pixels"];
/** The photo note as the page first says it (its words live in challenges.html). */
const PHOTO_NOTE = $("#photo-note").textContent;
/** Photos are shrunk in the browser to this long side before upload, so a phone's 12 MP shot travels light. */
const JPEG_QUALITY = 0.85;
const FEED_PAGE_SIZE = 20;
/** Seconds before a stream the server closed for good is opened again (a network drop EventSource retries itself). */
const REOPEN_DELAYS = [2, 4, 8, 16, 30];
/** How often the countdowns and "5 min ago" labels are redrawn. */
const TICK_MS = 30_000;

const ICONS = {
  star: '<svg viewBox="0 0 24 24" width="16" height="16"><path fill="currentColor" d="M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3L2.9 9.5l6.3-.9z"/></svg>',
  clock: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="8.5"/><path d="M12 7.5V12l3 2"/></svg>',
  check: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>',
  circle: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="8"/></svg>',
  camera: '<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor"><path d="M9.2 4h5.6l1.6 2.4H20a1.5 1.5 0 0 1 1.5 1.5v10.6A1.5 1.5 0 0 1 20 20H4a1.5 1.5 0 0 1-1.5-1.5V7.9A1.5 1.5 0 0 1 4 6.4h3.6zM12 9a4 4 0 1 0 0 8 4 4 0 0 0 0-8z"/></svg>',
  checkCircle: '<svg viewBox="0 0 24 24" width="18" height="18"><circle cx="12" cy="12" r="10" fill="currentColor"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#1e7a3c" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  trophy: '<svg viewBox="0 0 24 24" width="24" height="24"><path fill="currentColor" d="M7 3h10v1h3.5v3A4.5 4.5 0 0 1 16.6 11.5 5.5 5.5 0 0 1 13 14.4V17h3v4H8v-4h3v-2.6a5.5 5.5 0 0 1-3.6-2.9A4.5 4.5 0 0 1 3.5 7V4H7zm-1.5 3v1a2.5 2.5 0 0 0 1.6 2.3A6 6 0 0 1 7 8.5V6zm13 0H17v2.5a6 6 0 0 1-.1.8A2.5 2.5 0 0 0 18.5 7z"/></svg>',
  clap: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M8.5 10.5 6 8a1.4 1.4 0 0 1 2-2l4.5 4.5M10 7.5 8.8 6.3a1.4 1.4 0 0 1 2-2l5.8 5.8c1.5 1.5 2 4.6-.4 7s-5.6 2-7.2.4L5 13.4a1.4 1.4 0 0 1 2-2l2 2"/><path d="M7.2 9.7 5.6 8.1M17 3.5l.6-1.5M20 6.5l1.5-.6M19 4.5l1.3-1.2"/></svg>',
  comment: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M4 5h16v11H10l-5 4v-4H4z"/></svg>',
  share: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M12 15V3.5M7.5 8 12 3.5 16.5 8"/><path d="M6 11H5v9.5h14V11h-1"/></svg>',
  more: '<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor"><circle cx="5.5" cy="12" r="1.8"/><circle cx="12" cy="12" r="1.8"/><circle cx="18.5" cy="12" r="1.8"/></svg>',
  flag: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M5 21V4M5 4h11l-2 4 2 4H5"/></svg>',
  userPlus: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="10" cy="8" r="3.5"/><path d="M3.5 20a6.5 6.5 0 0 1 13 0M19 8v6M16 11h6"/></svg>',
};

/** Everything the page holds, all of it from the server's answers. */
const state = {
  me: null,
  overview: null,
  /** id → ChallengeView (today's and earlier). */
  challenges: new Map(),
  view: "challenges",
  /** Which of Feed and People the second column shows on a tablet or laptop. */
  side: "feed",
  feed: { filter: "all", next: null, token: 0, loading: false, loaded: false, entries: new Map() },
  people: {
    loaded: false,
    profile: null,
    followers: { people: [], next: null, total: 0, token: 0 },
    following: { people: [], next: null, total: 0, token: 0 },
    /** Usernames seen in "Following" or followed here (decides "Follow back" on a follower's row). */
    followed: new Set(),
  },
  complete: { challengeId: null, file: null, previewUrl: null, attempt: null, busy: false, done: false, closeTimer: 0, error: "" },
  celebration: { token: 0, timer: 0 },
  share: { entry: null, cardToken: 0, file: null },
  report: { entry: null },
  /** Challenge ids whose end already made us reload the overview (so a clock difference cannot loop). */
  endedReloads: new Set(),
  source: null,
  reopenAttempt: 0,
  uid: 0,
};

// MARK: Small helpers

/** Creates an element. `props`: class, text, html (trusted constants only), attributes, on<event> listeners. */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key === "html") element.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "hidden" || key === "disabled") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child != null && child !== false) element.append(child);
  return element;
}

function icon(name, className = "ch-icon") {
  return h("span", { class: className, "aria-hidden": "true", html: ICONS[name] });
}

/**
 * Characters as the server counts them (a Swift Character, one extended grapheme cluster: 👍🏽 or 👨‍👩‍👧 is one),
 * of the text as it will be sent (the server trims the ends). Without Intl.Segmenter, code points come closest.
 */
const GRAPHEMES = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
function characterCount(text) {
  const sent = String(text || "").trim();
  if (!GRAPHEMES) return [...sent].length;
  let count = 0;
  for (const _ of GRAPHEMES.segment(sent)) count += 1;
  return count;
}

/**
 * Marks a button as working without disabling it: a disabled button drops the keyboard focus to <body>, and a
 * keyboard or screen-reader user would have to find their place again. Its handler ignores presses meanwhile.
 */
function setBusy(button, busy) {
  if (busy) {
    button.setAttribute("aria-busy", "true");
    button.setAttribute("aria-disabled", "true");
  } else {
    button.removeAttribute("aria-busy");
    button.removeAttribute("aria-disabled");
  }
}

function nextId(prefix) {
  state.uid += 1;
  return `${prefix}-${state.uid}`;
}

const enc = encodeURIComponent;
const nowSeconds = () => Date.now() / 1000;

function announce(text) {
  const region = $("#announcer");
  region.textContent = "";
  // A fresh node after a frame makes screen readers read a repeat of the same words too.
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}

function showPageError(text) {
  $("#page-error").textContent = text || "";
}

/** A v4 UUID; `crypto.randomUUID` exists only on https and localhost. */
function newIdempotencyKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Like app.js's `api()`, for the two requests it cannot make: a raw body (the photo) and extra headers (the
 * completion's Idempotency-Key). Throws an Error carrying the server's kind message and code.
 */
async function send(path, { method = "POST", body, contentType, headers = {} } = {}) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json", "X-CompletionKit": "1", ...headers } };
  if (body !== undefined) {
    options.headers["Content-Type"] = contentType || "application/json";
    options.body = contentType ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    const error = new Error("We could not reach the server. Check your connection and try again.");
    error.network = true;
    throw error;
  }
  if (method !== "GET" && response.ok) noteFirstWrite();
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((data && data.message) || fallbackMessage(response.status));
    error.code = data && data.code;
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Words for an error the server sent without a message. */
function fallbackMessage(status) {
  if (status === 413) return "That photo is too large. Try a smaller one.";
  if (status === 415 || status === 422) return "We couldn’t read that photo. Try a JPEG, PNG or WebP picture.";
  if (status >= 500) return "Something went wrong on our side. Please try again in a moment.";
  return `Something went wrong (${status}).`;
}

// MARK: Words for times (rendering the server's instants; no rule lives here)

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "5 h 12 min left", "2 days left", "Ended" — counting down to the server's `endsAt`. */
function timeLeft(endsAt, now = nowSeconds()) {
  const seconds = Math.floor(endsAt - now);
  if (seconds <= 0) return "Ended";
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days >= 2) return `${days} days left`;
  if (days === 1) return hours > 24 ? `1 day ${hours - 24} h left` : "1 day left";
  if (hours >= 1) return minutes % 60 ? `${hours} h ${minutes % 60} min left` : `${hours} h left`;
  if (minutes >= 1) return `${minutes} min left`;
  return "Less than a minute left";
}

/** "just now", "5 min ago", "3 h ago", "2 days ago"; a date after a month. */
function timeAgo(createdAt, now = nowSeconds()) {
  const seconds = Math.max(0, Math.floor(now - createdAt));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${plural(days, "day")} ago`;
  return new Date(createdAt * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

function timeElement(createdAt) {
  const date = new Date(createdAt * 1000);
  return h("time", {
    datetime: date.toISOString(),
    title: date.toLocaleString(),
    "data-created-at": String(createdAt),
    text: timeAgo(createdAt),
  });
}

/** "Monday, 23 November" for the server's "YYYY-MM-DD" (read as a calendar day, not an instant). */
function formatDay(day) {
  const [year, month, date] = String(day || "").split("-").map(Number);
  if (!year || !month || !date) return "";
  return new Date(year, month - 1, date).toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
}

/** Redraws every countdown and "time ago"; asks the server again when an open challenge has just ended. */
function tick() {
  const now = nowSeconds();
  for (const element of document.querySelectorAll("[data-ends-at]")) {
    element.textContent = timeLeft(Number(element.dataset.endsAt), now);
  }
  for (const element of document.querySelectorAll("[data-created-at]")) {
    element.textContent = timeAgo(Number(element.dataset.createdAt), now);
  }
  const ended = [...state.challenges.values()].filter((c) => c.isOpen && c.endsAt <= now && !state.endedReloads.has(c.id));
  if (ended.length) {
    for (const challenge of ended) state.endedReloads.add(challenge.id);
    loadOverview().catch(() => null);
  }
}

// MARK: Stats

function renderStats(stats) {
  if (!stats) return;
  $("#hero-points").textContent = String(stats.totalPoints);
  $("#hero-streak").textContent = plural(stats.currentStreak, "day");
  $("#stat-points").textContent = String(stats.totalPoints);
  $("#stat-completed").textContent = String(stats.challengesCompleted);
  $("#stat-streak").textContent = String(stats.currentStreak);
  $("#stat-streak-unit").textContent = stats.currentStreak === 1 ? "day" : "days";
  $("#stat-longest").textContent = String(stats.longestStreak);
  $("#stat-longest-unit").textContent = stats.longestStreak === 1 ? "day" : "days";
}

// MARK: Challenges

async function loadOverview() {
  const overview = await api(`/api/challenges?tz=${enc(timeZone())}`);
  state.overview = overview;
  applyLimits();
  state.challenges = new Map([...overview.challenges, ...overview.earlier].map((c) => [c.id, c]));
  $("#today").textContent = formatDay(overview.today);
  renderStats(overview.stats);
  renderChallenges();
  return overview;
}

function renderChallenges() {
  const overview = state.overview;
  const container = $("#challenge-groups");
  // A reload (a challenge just ended) must not drop the keyboard: remember where it was.
  const focusedCard = document.activeElement && document.activeElement.closest && document.activeElement.closest("[data-testid=challenge-card]");
  const focus = focusedCard && { id: focusedCard.dataset.id, testid: document.activeElement.dataset.testid };
  container.removeAttribute("aria-busy");
  const known = TYPES.map(([type]) => type);
  const others = [...new Set(overview.challenges.map((c) => c.type).filter((type) => !known.includes(type)))];
  const groups = [...TYPES, ...others.map((type) => [type, type.charAt(0).toUpperCase() + type.slice(1)])];
  const sections = [];
  for (const [type, label] of groups) {
    const list = overview.challenges.filter((c) => c.type === type);
    if (!list.length) continue;
    const titleId = `group-${type}`;
    sections.push(h("section", { class: `ch-group is-${type}`, "aria-labelledby": titleId, "data-group": type },
      h("h2", { class: "ch-group-title", id: titleId }, label, h("span", { class: "ch-group-count", text: String(list.length) },
        h("span", { class: "vh", text: list.length === 1 ? " challenge" : " challenges" }))),
      h("div", { class: "ch-cards" }, list.map(challengeCard))));
  }
  container.replaceChildren(...sections);
  $("#challenges-empty").hidden = overview.challenges.length > 0;
  $("#earlier-section").hidden = overview.earlier.length === 0;
  $("#earlier-list").replaceChildren(...overview.earlier.map(challengeCard));
  const card = focus && cardFor(focus.id);
  if (card) ((focus.testid && card.querySelector(`[data-testid="${focus.testid}"]`)) || card).focus({ preventScroll: true });
}

function typeLabel(type) {
  const known = TYPES.find(([value]) => value === type);
  return known ? known[1] : type;
}

function challengeCard(challenge) {
  const participation = challenge.participation;
  const status = participation ? participation.status : "none";
  const titleId = nextId("challenge-title");
  const completed = status === "completed";
  const card = h("article", {
    class: `ch-card is-${challenge.type}${completed ? " is-completed" : ""}${challenge.isOpen ? "" : " is-ended"}`,
    "data-testid": "challenge-card",
    "data-id": challenge.id,
    "data-status": status,
    "data-open": String(challenge.isOpen),
    "aria-labelledby": titleId,
    tabindex: "-1",
  });
  const chips = h("div", { class: "ch-card-chips" },
    h("span", { class: "ch-type", text: typeLabel(challenge.type) }),
    status === "active" ? h("span", { class: "ch-joined", text: "Joined" }) : null,
    h("span", { class: "ch-points", "data-testid": "challenge-points" }, icon("star"), plural(challenge.points, "point")));
  const time = h("p", { class: "ch-time" }, icon("clock"),
    h("span", { "data-ends-at": String(challenge.endsAt), "data-testid": "time-left", text: timeLeft(challenge.endsAt) }));
  card.append(chips, h("h3", { class: "ch-card-title", id: titleId, text: challenge.title }),
    h("p", { class: "ch-card-desc", text: challenge.description }), time);
  if (challenge.requirements.length) card.append(requirementsList(challenge, completed));
  if (participation && status !== "left") card.append(progressBar(challenge, participation));
  card.append(challengeActions(challenge, status));
  return card;
}

function requirementsList(challenge, completed) {
  const id = nextId("reqs");
  return h("div", { class: "ch-reqs-box" },
    h("p", { class: "ch-reqs-title", id, text: "What to do" }),
    h("ul", { class: `ch-reqs${completed ? " is-done" : ""}`, "aria-labelledby": id },
      challenge.requirements.map((text) => h("li", {}, icon(completed ? "check" : "circle", "ch-req-mark"),
        h("span", { text }), completed ? h("span", { class: "vh", text: " (done)" }) : null))));
}

function progressBar(challenge, participation) {
  const percent = Math.round(Math.min(1, Math.max(0, participation.progress)) * 100);
  return h("div", { class: "ch-progress" },
    h("div", {
      class: "ch-progress-track",
      role: "progressbar",
      "aria-label": `Progress on ${challenge.title}`,
      "aria-valuemin": "0",
      "aria-valuemax": "100",
      "aria-valuenow": String(percent),
      "data-testid": "progress",
    }, h("span", { class: "ch-progress-fill", style: `width: ${percent}%` })),
    h("span", { class: "ch-progress-text", "aria-hidden": "true", text: `${percent}%` }));
}

function challengeActions(challenge, status) {
  const actions = h("div", { class: "ch-card-actions" });
  const id = challenge.id;
  if (status === "completed") {
    const when = challenge.participation.completedAt
      ? new Date(challenge.participation.completedAt * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short" })
      : "";
    actions.append(h("p", { class: "ch-done", "data-testid": "completed" }, "Completed ✓",
      when ? h("span", { class: "ch-done-when", text: ` · ${when}` }) : null));
  } else if (status === "revoked") {
    actions.append(h("p", { class: "muted small ch-ended-note", "data-testid": "revoked",
      text: "Removed after review: this completion no longer counts." }));
  } else if (status === "active" && challenge.isOpen) {
    actions.append(
      h("button", { class: "button ch-primary", type: "button", "data-testid": "complete-open", "aria-haspopup": "dialog",
        onclick: () => openComplete(id) }, icon("camera"), "Complete with photo"),
      h("button", { class: "button quiet ch-leave", type: "button", "data-testid": "leave",
        "aria-label": `Leave ${challenge.title}`, onclick: (event) => changeParticipation(id, "leave", event.currentTarget) }, "Leave"));
  } else if (challenge.isOpen) {
    actions.append(h("button", { class: "button ch-join", type: "button", "data-testid": "join",
      "aria-label": `${status === "left" ? "Join again" : "Join"}: ${challenge.title}`,
      onclick: (event) => changeParticipation(id, "join", event.currentTarget) },
    status === "left" ? "Join again" : "Join challenge"));
    if (status === "left") actions.append(h("span", { class: "muted small", text: "You left this one." }));
  } else {
    actions.append(h("p", { class: "muted small ch-ended-note", text: status === "active" ? "This challenge has ended." : "Ended — keep an eye out for the next one." }));
  }
  return actions;
}

function cardFor(challengeId) {
  return document.querySelector(`[data-testid="challenge-card"][data-id="${CSS.escape(challengeId)}"]`);
}

/** Replaces a challenge's card with the server's new view of it. */
function upsertChallenge(challenge) {
  state.challenges.set(challenge.id, challenge);
  const overview = state.overview;
  if (overview) {
    for (const list of [overview.challenges, overview.earlier]) {
      const index = list.findIndex((c) => c.id === challenge.id);
      if (index >= 0) list[index] = challenge;
    }
  }
  const old = cardFor(challenge.id);
  if (!old) return null;
  const card = challengeCard(challenge);
  old.replaceWith(card);
  return card;
}

async function changeParticipation(challengeId, action, button) {
  if (button.getAttribute("aria-busy") === "true") return;
  setBusy(button, true);
  showPageError("");
  try {
    const challenge = await api(`/api/challenges/${enc(challengeId)}/${action}?tz=${enc(timeZone())}`, { method: "POST" });
    const card = upsertChallenge(challenge);
    announce(action === "join" ? `Joined ${challenge.title}.` : `You left ${challenge.title}.`);
    // Keep the keyboard where it was: on the card's new main action.
    const target = card && (card.querySelector("[data-testid=complete-open], [data-testid=join]") || card);
    if (target) target.focus();
  } catch (error) {
    setBusy(button, false);
    showPageError(error.message);
  }
}

// MARK: Complete with proof

function openComplete(challengeId) {
  const challenge = state.challenges.get(challengeId);
  if (!challenge) return;
  const dialog = $("#complete-dialog");
  const c = state.complete;
  clearTimeout(c.closeTimer);
  Object.assign(c, { challengeId, file: null, attempt: null, busy: false, done: false });
  setPreview(null);
  $("#complete-challenge").textContent = challenge.title;
  const story = $("#story");
  story.value = "";
  const prompts = challenge.storyPrompts || [];
  // One of the server's prompts, a new one each time the screen opens (the seed's randomElement()).
  story.placeholder = prompts.length ? prompts[Math.floor(Math.random() * prompts.length)] : "Share your story…";
  updateCounter();
  hideCompleteError();
  setSubmitState("idle");
  dialog.dataset.challengeId = challengeId;
  dialog.showModal();
  $("#take-photo").focus();
}

function closeComplete() {
  const dialog = $("#complete-dialog");
  clearTimeout(state.complete.closeTimer);
  if (dialog.open) dialog.close();
}

/** After the dialog closes, the keyboard goes back to the challenge's card. */
function onCompleteClosed() {
  const c = state.complete;
  setPreview(null);
  const card = c.challengeId && cardFor(c.challengeId);
  if (card && !$("#celebration").open) (card.querySelector("[data-testid=complete-open]") || card).focus();
}

function setPreview(file) {
  const c = state.complete;
  if (c.previewUrl) URL.revokeObjectURL(c.previewUrl);
  c.previewUrl = null;
  c.file = file;
  const image = $("#photo-preview");
  const placeholder = $("#photo-placeholder");
  if (file) {
    c.previewUrl = URL.createObjectURL(file);
    image.src = c.previewUrl;
    image.alt = "Your photo";
    image.hidden = false;
    placeholder.hidden = true;
    $("#photo-box").classList.add("has-photo");
  } else {
    image.removeAttribute("src");
    image.hidden = true;
    placeholder.hidden = false;
    $("#photo-box").classList.remove("has-photo");
    $("#photo-note").textContent = PHOTO_NOTE;
    // An input keeps its file: without this, choosing the same picture next time would not fire "change".
    for (const input of [$("#photo-input"), $("#photo-camera")]) input.value = "";
  }
  $("#take-photo").lastChild.textContent = file ? " Retake photo" : " Take photo";
  $("#choose-photo").lastChild.textContent = file ? " Choose another" : " Choose from library";
  $("#submit-help").hidden = Boolean(file);
  if (!c.busy && !c.done) $("#complete-submit").disabled = !file;
}

function onPhotoChosen(event) {
  const input = event.currentTarget;
  const file = input.files && input.files[0];
  if (!file) return;
  // A file the browser knows is not a picture at all (a text file, a PDF) is not offered for sending.
  if (file.type && !file.type.startsWith("image/")) {
    setPreview(null);
    showCompleteError("That file isn’t a picture. Choose a photo — JPEG, PNG or WebP.", { retry: false, kind: "photo" });
    return;
  }
  setPreview(file);
  hideCompleteError();
  $("#photo-note").textContent = PHOTO_TYPES.includes(file.type) || !file.type
    ? "Looking good. You can still change it."
    : "This kind of picture may not work — JPEG, PNG or WebP are safest.";
}

/**
 * The server's text limits (the page keeps no copy of its own) are checked as the server counts: in characters,
 * not the UTF-16 units a field's maxlength counts, which would cut a story of emoji short. So no field has a
 * maxlength; the counters say how far over the limit a text is, and it is not sent until it fits.
 */
function applyLimits() {
  updateCounter();
  for (const form of document.querySelectorAll(".ch-comment-form")) updateCommentCounter(form);
}

/** The most characters in a story or a comment, as the server said (none known before the first load answered). */
function storyLimit() {
  return (state.overview && state.overview.storyLimit) || 0;
}

function commentLimit() {
  return (state.overview && state.overview.commentLimit) || 0;
}

/** How many characters `text` is over `limit` (0 when it fits or no limit is known yet). */
function overLimit(text, limit) {
  return limit > 0 ? Math.max(0, characterCount(text) - limit) : 0;
}

/** "12 / {limit}", or "{limit + 3} / {limit} — 3 too many" (the limit is the server's); marks the field invalid while it is over. */
function renderCounter(counter, field, limit, { near = 0.9 } = {}) {
  const count = characterCount(field.value);
  const over = limit > 0 ? Math.max(0, count - limit) : 0;
  counter.textContent = limit > 0 ? `${count} / ${limit}${over ? ` — ${over} too many` : ""}` : "";
  counter.classList.toggle("is-near", limit > 0 && count >= limit * near);
  counter.classList.toggle("is-over", over > 0);
  if (over) field.setAttribute("aria-invalid", "true");
  else field.removeAttribute("aria-invalid");
  return { count, over };
}

function updateCounter() {
  const { over } = renderCounter($("#story-count"), $("#story"), storyLimit());
  // "Too long" goes away by itself once the story fits.
  if (!over && state.complete.error === "story") hideCompleteError();
}

/** idle → busy ("Completing…") → success ("Success! Sharing..."). */
function setSubmitState(which) {
  const button = $("#complete-submit");
  const c = state.complete;
  button.dataset.state = which;
  const label = button.querySelector(".ch-submit-label");
  const mark = button.querySelector(".ch-submit-icon");
  if (which === "busy") {
    label.textContent = "Completing…";
    mark.innerHTML = '<span class="ch-spinner"></span>';
    button.setAttribute("aria-busy", "true");
    button.disabled = true;
  } else if (which === "success") {
    label.textContent = "Success! Sharing...";
    mark.innerHTML = ICONS.checkCircle;
    button.removeAttribute("aria-busy");
    button.disabled = true;
  } else {
    label.textContent = "Complete & Share";
    mark.innerHTML = ICONS.camera;
    button.removeAttribute("aria-busy");
    button.disabled = !c.file;
  }
  for (const control of [$("#take-photo"), $("#choose-photo"), $("#story"), $("#complete-retry")]) {
    control.disabled = which !== "idle";
  }
}

/** `retry`: whether "Try again" can help (not when the photo itself was refused). `kind` names the cause. */
function showCompleteError(text, { retry = true, kind = "" } = {}) {
  state.complete.error = kind;
  $("#complete-error-text").textContent = text;
  $("#complete-retry").hidden = !retry;
  $("#complete-error").hidden = false;
}

function hideCompleteError() {
  state.complete.error = "";
  $("#complete-error").hidden = true;
  $("#complete-error-text").textContent = "";
}

/**
 * Shrinks a large photo to the server's longest kept side (overview.photoMaxSide) as a JPEG, turned upright from its EXIF orientation.
 * Small photos go as they are; one the browser cannot decode goes as it is too, and the server answers.
 */
async function preparePhoto(file, maxBytes) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    try {
      bitmap = await createImageBitmap(file);
    } catch {
      return file;
    }
  }
  try {
    const longSide = Math.max(bitmap.width, bitmap.height);
    const maxEdge = (state.overview && state.overview.photoMaxSide) || longSide;
    const fits = longSide <= maxEdge && (!maxBytes || file.size <= maxBytes) && PHOTO_TYPES.includes(file.type);
    if (fits) return file;
    const scale = Math.min(1, maxEdge / longSide);
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    const context = canvas.getContext("2d");
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", JPEG_QUALITY));
    return blob || file;
  } finally {
    bitmap.close?.();
  }
}

async function uploadPhoto(blob) {
  return send("/api/photos", { body: blob, contentType: blob.type || "application/octet-stream" });
}

async function submitCompletion(event) {
  event.preventDefault();
  const c = state.complete;
  if (c.busy || c.done || !c.file || !c.challengeId) return;
  const story = $("#story").value.trim();
  const over = overLimit(story, storyLimit());
  if (over) {
    showCompleteError(`Your story is ${plural(over, "character")} too long — it can have up to ${storyLimit()}.`, { retry: false, kind: "story" });
    $("#story").focus();
    return;
  }
  // One attempt is one photo and one story with one Idempotency-Key. "Try again" after a failure repeats that
  // attempt with the same key, so a request that did reach the server is answered from its record instead of
  // paying twice; changing the photo or the story makes a new attempt.
  if (!c.attempt || c.attempt.file !== c.file || c.attempt.story !== story) {
    c.attempt = { key: newIdempotencyKey(), file: c.file, story, photoId: null, challengeId: c.challengeId };
  }
  const attempt = c.attempt;
  c.busy = true;
  hideCompleteError();
  setSubmitState("busy");
  try {
    if (!attempt.photoId) {
      const blob = await preparePhoto(attempt.file, state.overview && state.overview.maxPhotoBytes);
      const photo = await uploadPhoto(blob);
      attempt.photoId = photo.id;
    }
    const body = { photoId: attempt.photoId };
    if (attempt.story) body.story = attempt.story;
    const path = `/api/challenges/${enc(attempt.challengeId)}/complete?tz=${enc(timeZone())}&preference=${preference()}`;
    const result = await send(path, { body, headers: { "Idempotency-Key": attempt.key } });
    c.busy = false;
    c.done = true;
    if (!result.isFirst) {
      // Completed before (another tab or device): nothing new was shared, so no "Success!" and no celebration.
      upsertChallenge(result.challenge);
      renderStats(result.stats);
      setSubmitState("idle");
      $("#complete-submit").disabled = true;
      showCompleteError("You’ve already completed this challenge — the photo and story you shared first are the ones your followers see.", { retry: false });
      return;
    }
    setSubmitState("success");
    completed(result);
  } catch (error) {
    c.busy = false;
    setSubmitState("idle");
    // A photo the server refused cannot be retried as it is: it is taken away and the person picks another.
    // One it lost (photo_not_found) is uploaded again by the next attempt.
    const refused = REFUSED_PHOTO.includes(error.code);
    if (refused || error.code === "photo_not_found") c.attempt = null;
    if (refused) setPreview(null);
    showCompleteError(error.message, { retry: !refused });
    (refused ? $("#choose-photo") : $("#complete-retry")).focus();
    // The words sit under the story: on a phone they can be below the fold of the sheet.
    $("#complete-error").scrollIntoView({ block: "nearest" });
  }
}

/** Applies a ChallengeCompletionView: the card, the figures, the feed, then the celebration. */
function completed(result) {
  upsertChallenge(result.challenge);
  renderStats(result.stats);
  if (state.people.profile) state.people.profile.stats = result.stats;
  if (result.activity) receiveItem(result.activity, { live: false });
  const points = result.pointsAwarded > 0 ? ` +${result.pointsAwarded} points.` : "";
  announce(`${result.headline} ${result.message}${points}`);
  if (result.celebration) {
    showCelebration(result);
  } else {
    // No overlay (turned off): the green "Success!" stays as long as the overlay would have, then the dialog goes.
    state.complete.closeTimer = setTimeout(closeComplete, Math.max(0, Number(result.dismissAfter) || 0) * 1000);
  }
}

// MARK: Celebration

function showCelebration(result) {
  const layer = $("#celebration");
  const token = ++state.celebration.token;
  clearTimeout(state.celebration.timer);
  $("#celebration-title").textContent = result.headline;
  $("#celebration-message").textContent = result.message;
  const points = $("#celebration-points");
  points.hidden = !(result.pointsAwarded > 0);
  points.replaceChildren(icon("star", "ch-cel-star"), `+${result.pointsAwarded} Points`);
  layer.dataset.state = "playing";
  if (!layer.open) layer.showModal();
  $("#celebration-close").focus({ preventScroll: true });
  const steps = {};
  for (const element of layer.querySelectorAll("[data-step]")) steps[element.dataset.step] = element;
  // Close arrives with the overlay (the backdrop's step), not before the rest of it.
  steps.backdrop = [steps.backdrop, $("#celebration-close")].filter(Boolean);
  playChoreography(result.celebration, steps)
    .then(() => {
      if (token === state.celebration.token) layer.dataset.state = "holding";
    })
    .catch(() => null);
  haptic(result.celebration);
  // How long it stays is the server's (ChallengeCompletion.dismissAfterSeconds), counted from its appearance.
  state.celebration.timer = setTimeout(() => {
    if (token === state.celebration.token) dismissCelebration();
  }, Math.max(0, Number(result.dismissAfter) || 0) * 1000);
}

/** The seed's heavy impact as the overlay appears, where the device can vibrate; none in calm mode. */
function haptic(payload) {
  if (payload && payload.preference === "reduced") return;
  try {
    navigator.vibrate?.(30);
  } catch {
    // Some browsers refuse without a gesture; the celebration does not depend on it.
  }
}

function dismissCelebration() {
  const layer = $("#celebration");
  clearTimeout(state.celebration.timer);
  state.celebration.token += 1;
  if (!layer.open) return;
  for (const element of [...layer.querySelectorAll("[data-step]"), $("#celebration-close")]) {
    for (const animation of element.getAnimations()) animation.cancel();
  }
  layer.dataset.state = "done";
  layer.close();
  closeComplete();
  const card = state.complete.challengeId && cardFor(state.complete.challengeId);
  if (card) card.focus();
}

// MARK: Feed

function admits(filter, item) {
  if (filter === "challenges") return item.type === "challenge_completed";
  if (filter === "social") return item.type === "follow";
  return true;
}

async function loadFeed({ more = false } = {}) {
  const feed = state.feed;
  const list = $("#feed-list");
  const button = $("#load-more");
  if (more && (!feed.next || feed.loading)) return;
  const token = more ? feed.token : ++feed.token;
  if (!more) {
    feed.entries.clear();
    feed.next = null;
    feed.loaded = false;
    list.replaceChildren();
    $("#feed-empty").hidden = true;
  }
  feed.loading = true;
  list.setAttribute("aria-busy", "true");
  setBusy(button, true);
  $("#feed-error").textContent = "";
  const query = new URLSearchParams({ filter: feed.filter, limit: String(FEED_PAGE_SIZE) });
  if (more) query.set("cursor", feed.next);
  try {
    const page = await api(`/api/feed?${query}`);
    if (token !== feed.token) return;
    const added = [];
    for (const item of page.items) {
      if (feed.entries.has(item.id)) continue;
      const entry = makeEntry(item);
      list.append(entry.element);
      added.push(entry);
    }
    feed.next = page.next || null;
    feed.loaded = true;
    if (more && added.length && !feed.next) added[0].element.querySelector("[data-focus]")?.focus();
  } catch (error) {
    if (token === feed.token) $("#feed-error").textContent = error.message;
  } finally {
    if (token === feed.token) {
      feed.loading = false;
      list.removeAttribute("aria-busy");
      setBusy(button, false);
      renderFeedChrome();
    }
  }
}

/** The empty state and the "Load more" button. */
function renderFeedChrome() {
  const feed = state.feed;
  const empty = $("#feed-empty");
  empty.hidden = !feed.loaded || feed.entries.size > 0;
  if (!empty.hidden) {
    const words = feed.filter === "social"
      ? ["Nothing here yet", "New followers show up here."]
      // Said to people who follow no one and to people whose friends have not posted yet alike, so true for both.
      : ["Nothing here yet", "Completions of the people you follow show up here — and yours too."];
    const go = h("button", { class: "button ch-small", type: "button", onclick: () => setView("people", { focus: "#follow-username" }) },
      icon("userPlus"), "Find people");
    empty.replaceChildren(h("p", { class: "ch-empty-title", text: words[0] }), h("p", { class: "muted small", text: words[1] }),
      feed.filter === "social" ? null : go);
  }
  $("#load-more").hidden = !feed.next;
}

function setFilter(filter) {
  if (state.feed.filter === filter) return;
  state.feed.filter = filter;
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.setAttribute("aria-pressed", String(button.dataset.filter === filter));
  }
  loadFeed();
}

/** A feed item and its card; `item` is replaced by the server's answers. */
function makeEntry(item) {
  const entry = { item, element: null, pending: false, thread: { loaded: false, next: null, loading: false } };
  entry.element = item.type === "challenge_completed" ? completionCard(entry) : compactRow(entry);
  state.feed.entries.set(item.id, entry);
  return entry;
}

/** Takes a FeedItemView from the stream or a completion: in its place by time, if the filter shows it and it is new. */
function receiveItem(item, { live }) {
  const feed = state.feed;
  if (!feed.loaded || !admits(feed.filter, item) || feed.entries.has(item.id)) return false;
  if (item.status && item.status !== "visible" && !item.isMine) return false;
  const entry = makeEntry(item);
  insertByTime(entry.element, item.createdAt);
  renderFeedChrome();
  // One's own post is no news: whether the stream or the completion's answer brings it first, it arrives quietly.
  if (live && !item.isMine) {
    entry.element.classList.add("is-new");
    entry.element.addEventListener("animationend", () => entry.element.classList.remove("is-new"), { once: true });
    // The entrance is the server's stagger for one item (opacity only in calm mode).
    fetchStagger({ config: "standard", count: 1 })
      .then((timeline) => playStagger(timeline, [entry.element]))
      .catch(() => null);
    if (!paneVisible("feed")) $("#feed-dot").hidden = false;
    announce(`New in your feed: ${item.actor.displayName} — ${item.title}`);
  }
  return true;
}

/** Newest first: before the first card that is older (an item caught up after a reconnect may be older than one that came live). */
function insertByTime(element, createdAt) {
  const list = $("#feed-list");
  const older = [...list.children].find((row) => {
    const shown = state.feed.entries.get(row.dataset.id);
    return shown && shown.element !== element && shown.item.createdAt < createdAt;
  });
  list.insertBefore(element, older || null);
}

/**
 * Brings the feed up to date when the stream opens: what was posted while no stream was attached (before the
 * first connection, or while it was down) is in the newest page. The server counts on this: it drops every
 * page's stream when it loses its own notifications (FeedLive), so that the pages reload what they missed.
 */
async function catchUpFeed() {
  const feed = state.feed;
  if (feed.loading) return;
  // A feed whose last load failed (the server was down) loads again whole once the stream is back.
  if (!feed.loaded) {
    if ($("#feed-error").textContent) loadFeed();
    return;
  }
  const token = feed.token;
  try {
    const page = await api(`/api/feed?${new URLSearchParams({ filter: feed.filter, limit: String(FEED_PAGE_SIZE) })}`);
    if (token !== feed.token) return;
    for (const item of [...page.items].reverse()) receiveItem(item, { live: true });
  } catch {
    // Nothing is lost: the next time the stream opens, it catches up again.
  }
}

function removeItem(id) {
  const entry = state.feed.entries.get(id);
  if (!entry) return;
  const hadFocus = entry.element.contains(document.activeElement);
  const next = entry.element.nextElementSibling || entry.element.previousElementSibling;
  entry.element.remove();
  state.feed.entries.delete(id);
  if (state.share.entry === entry) $("#share-panel").close();
  if (hadFocus) (next ? next.querySelector("[data-focus]") : $("#feed-title"))?.focus();
  renderFeedChrome();
}

function compactRow(entry) {
  const item = entry.item;
  return h("li", { class: `ch-item ch-item-compact is-${item.type}`, "data-testid": "feed-item", "data-id": item.id, "data-type": item.type },
    h("span", { class: "ch-avatar ch-avatar-sm", "aria-hidden": "true", text: item.actor.initial }),
    h("p", { class: "ch-compact-text", tabindex: "-1", "data-focus": "" },
      h("span", { class: "ch-compact-title", text: item.title }), " ",
      h("span", { class: "ch-compact-time" }, timeElement(item.createdAt))),
    item.type === "follow" ? icon("userPlus", "ch-compact-icon") : null);
}

function completionCard(entry) {
  const item = entry.item;
  const titleId = nextId("item-title");
  const li = h("li", { class: "ch-item", "data-testid": "feed-item", "data-id": item.id, "data-type": item.type });
  const post = h("article", { class: "ch-post", "aria-labelledby": titleId });
  const head = h("header", { class: "ch-post-head" },
    h("span", { class: "ch-avatar", "aria-hidden": "true", text: item.actor.initial }),
    h("div", { class: "ch-post-who" },
      h("h3", { class: "ch-post-title", id: titleId, tabindex: "-1", "data-focus": "", text: item.title }),
      h("p", { class: "ch-post-meta" }, h("span", { class: "ch-post-name", text: item.actor.displayName }), " · ", timeElement(item.createdAt))),
    icon("trophy", "ch-trophy"),
    item.isMine ? null : itemMenu(entry));
  post.append(head);
  post.append(h("p", { class: "ch-post-status", "data-testid": "post-status" }));
  renderStatus(entry, post);
  if (item.photoUrl) {
    post.append(h("figure", { class: "ch-post-photo" },
      h("img", { src: item.photoUrl, loading: "lazy", decoding: "async",
        alt: `Photo for ${item.challengeTitle || "the challenge"} by ${item.actor.displayName}` }),
      h("span", { class: "ch-complete-badge" }, icon("check"), "Challenge Complete")));
  }
  if (item.story) post.append(h("p", { class: "ch-post-story", text: item.story }));
  if (item.points != null) {
    post.append(h("p", { class: "ch-earned", "data-testid": "points-earned" }, icon("star"), `${plural(item.points, "point")} earned`));
  }
  post.append(postActions(entry, titleId));
  if (item.isMine) post.append(publicLinkRow(entry));
  post.append(h("p", { class: "ch-post-msg", role: "status", "data-role": "message" }));
  post.append(thread(entry));
  li.append(post);
  return li;
}

/** One's own post that is not in feeds says why; the line is empty (and hidden) otherwise. */
function renderStatus(entry, root = entry.element) {
  const line = root.querySelector("[data-testid=post-status]");
  if (!line) return;
  const item = entry.item;
  const text = !item.isMine || !item.status || item.status === "visible" ? ""
    : item.status === "revoked" ? "Removed after review — only you can see this."
    : "Hidden from feeds while we take a look.";
  line.textContent = text;
  line.hidden = !text;
}

/** A card whose counts or state moved elsewhere (someone's congrats or comment, another tab, a review): updated where it is. */
function updateItem(item) {
  const entry = state.feed.entries.get(item.id);
  if (!entry) return;
  if (!item.isMine && item.status && item.status !== "visible") {
    removeItem(item.id);
    return;
  }
  // A congrats of ours still on its way keeps what the page shows; the server's answer to it settles the count.
  const own = entry.pending ? { congrats: entry.item.congrats, congratulated: entry.item.congratulated } : {};
  const statusChanged = (entry.item.status || "visible") !== (item.status || "visible");
  // The whole card is replaced: a field the server now leaves out (a public link, the points) is gone.
  entry.item = { ...item, ...own };
  if (statusChanged && entry.item.type === "challenge_completed") {
    // Hidden, shown again or revoked: the card is drawn again (a revoked one loses its points and share card).
    const hadFocus = entry.element.contains(document.activeElement);
    const fresh = completionCard(entry);
    entry.element.replaceWith(fresh);
    entry.element = fresh;
    if (hadFocus) fresh.querySelector("[data-focus]")?.focus();
    if (state.share.entry === entry) renderShareLink(entry);
    return;
  }
  renderCongrats(entry);
  renderCommentCount(entry);
  renderStatus(entry);
}

function postActions(entry, titleId) {
  const item = entry.item;
  const threadId = `thread-${item.id}`;
  return h("div", { class: "ch-post-actions" },
    h("button", { class: "ch-action ch-congrats", type: "button", "data-testid": "congrats", "aria-pressed": String(item.congratulated),
      "aria-describedby": titleId, onclick: () => toggleCongrats(entry) },
    icon("clap"), h("span", { text: "Congrats!" }), h("span", { class: "ch-action-count", "data-testid": "congrats-count", text: String(item.congrats) })),
    h("button", { class: "ch-action", type: "button", "data-testid": "comment-toggle", "aria-expanded": "false", "aria-controls": threadId,
      "aria-describedby": titleId, onclick: () => toggleThread(entry) },
    icon("comment"), h("span", { text: "Comment" }), h("span", { class: "ch-action-count", "data-role": "comment-count", text: item.comments ? String(item.comments) : "" })),
    h("button", { class: "ch-action ch-share-open", type: "button", "data-testid": "share-open", "aria-haspopup": "dialog",
      "aria-describedby": titleId, onclick: () => openShare(entry) }, icon("share"), h("span", { text: "Share" })));
}

function itemMessage(entry, text) {
  const message = entry.element.querySelector("[data-role=message]");
  if (message) message.textContent = text;
}

// MARK: Congrats

function renderCongrats(entry) {
  const button = entry.element.querySelector("[data-testid=congrats]");
  if (!button) return;
  button.setAttribute("aria-pressed", String(entry.item.congratulated));
  button.querySelector("[data-testid=congrats-count]").textContent = String(entry.item.congrats);
}

/** Answers at once; the server's count replaces the guess, and a failure puts the old one back. */
async function toggleCongrats(entry) {
  if (entry.pending) return;
  const before = { congrats: entry.item.congrats, congratulated: entry.item.congratulated };
  const wanted = !before.congratulated;
  entry.pending = true;
  entry.item = { ...entry.item, congratulated: wanted, congrats: Math.max(0, before.congrats + (wanted ? 1 : -1)) };
  renderCongrats(entry);
  itemMessage(entry, "");
  try {
    const answer = await api(`/api/activities/${enc(entry.item.id)}/congrats`, { method: wanted ? "POST" : "DELETE" });
    entry.item = { ...entry.item, congrats: answer.congrats, congratulated: answer.congratulated };
  } catch (error) {
    entry.item = { ...entry.item, ...before };
    itemMessage(entry, `Your congrats didn’t go through: ${error.message}`);
  } finally {
    entry.pending = false;
    renderCongrats(entry);
  }
}

// MARK: Comments

function thread(entry) {
  const item = entry.item;
  const inputId = `comment-input-${item.id}`;
  const counterId = `comment-count-${item.id}`;
  const form = h("form", { class: "ch-comment-form", novalidate: true, onsubmit: (event) => postComment(event, entry) },
    h("label", { class: "vh", for: inputId, text: "Write a comment" }),
    h("textarea", { class: "ch-textarea", id: inputId, rows: "2", placeholder: "Say something kind…", "aria-describedby": counterId,
      "data-testid": "comment-input", oninput: () => updateCommentCounter(form) }),
    h("button", { class: "button ch-primary ch-small", type: "submit", "data-testid": "comment-post", disabled: true }, "Post"),
    h("p", { class: "ch-counter ch-comment-count", id: counterId, "data-testid": "comment-count", hidden: true }));
  return h("div", { class: "ch-thread", id: `thread-${item.id}`, hidden: true, "data-testid": "comment-thread" },
    h("ol", { class: "ch-comments", "data-testid": "comment-list", "aria-label": `Comments on ${item.title}` }),
    h("button", { class: "button quiet ch-small ch-more-comments", type: "button", hidden: true, "data-testid": "comment-more",
      onclick: () => loadComments(entry, { more: true }) }, "Show more comments"),
    h("p", { class: "ch-comments-empty muted small", hidden: true, text: "No comments yet — be the first to cheer them on." }),
    h("p", { class: "message error", role: "alert", "data-role": "thread-error" }),
    form);
}

/** Post is there once there is something to say; the counter shows itself as the comment nears the server's limit. */
function updateCommentCounter(form) {
  const input = form.querySelector("[data-testid=comment-input]");
  const counter = form.querySelector("[data-testid=comment-count]");
  const button = form.querySelector("[data-testid=comment-post]");
  const { count } = renderCounter(counter, input, commentLimit());
  counter.hidden = !(commentLimit() > 0 && count >= commentLimit() * 0.8);
  if (button.getAttribute("aria-busy") !== "true") button.disabled = !input.value.trim();
}

function toggleThread(entry) {
  const toggle = entry.element.querySelector("[data-testid=comment-toggle]");
  const box = entry.element.querySelector(".ch-thread");
  const open = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(open));
  box.hidden = !open;
  if (open && !entry.thread.loaded) loadComments(entry);
}

function renderCommentCount(entry) {
  const count = entry.element.querySelector("[data-role=comment-count]");
  if (count) count.textContent = entry.item.comments ? String(entry.item.comments) : "";
  const list = entry.element.querySelector(".ch-comments");
  entry.element.querySelector(".ch-comments-empty").hidden = !entry.thread.loaded || list.children.length > 0;
}

/** The thread reads oldest first: the first page, then the later ones after it with the `next` cursor. */
async function loadComments(entry, { more = false } = {}) {
  const t = entry.thread;
  if (t.loading || (more && !t.next)) return;
  t.loading = true;
  const box = entry.element.querySelector(".ch-thread");
  const list = box.querySelector(".ch-comments");
  const moreButton = box.querySelector(".ch-more-comments");
  const error = box.querySelector("[data-role=thread-error]");
  error.textContent = "";
  setBusy(moreButton, true);
  const cursor = more ? `?cursor=${enc(t.next)}` : "";
  try {
    const page = await api(`/api/activities/${enc(entry.item.id)}/comments${cursor}`);
    // A comment posted here may already be shown when its page arrives.
    const shown = new Set([...list.children].map((row) => row.dataset.id));
    const rows = page.comments.filter((comment) => !shown.has(comment.id)).map((comment) => commentRow(entry, comment));
    if (more) list.append(...rows);
    else list.replaceChildren(...rows);
    t.next = page.next || null;
    t.loaded = true;
    entry.item = { ...entry.item, comments: page.total };
    if (more && rows.length) rows[0].focus();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    t.loading = false;
    setBusy(moreButton, false);
    moreButton.hidden = !t.next;
    renderCommentCount(entry);
  }
}

function commentRow(entry, comment) {
  const row = h("li", { class: "ch-comment", "data-id": comment.id, tabindex: "-1" },
    h("span", { class: "ch-avatar ch-avatar-xs", "aria-hidden": "true", text: comment.author.initial }),
    h("div", { class: "ch-comment-main" },
      h("p", { class: "ch-comment-meta" }, h("span", { class: "ch-comment-name", text: comment.author.displayName }), " · ",
        timeElement(comment.createdAt)),
      h("p", { class: "ch-comment-body", text: comment.body })));
  if (comment.isMine) {
    row.append(h("button", { class: "ch-comment-delete", type: "button", "data-testid": "comment-delete",
      "aria-label": "Delete your comment", onclick: () => deleteComment(entry, comment, row) }, "Delete"));
  }
  return row;
}

async function postComment(event, entry) {
  event.preventDefault();
  const form = event.currentTarget;
  const input = form.querySelector("textarea");
  const button = form.querySelector("[data-testid=comment-post]");
  const body = input.value.trim();
  const error = entry.element.querySelector("[data-role=thread-error]");
  if (!body || button.getAttribute("aria-busy") === "true") return;
  const over = overLimit(body, commentLimit());
  if (over) {
    error.textContent = `Your comment is ${plural(over, "character")} too long — it can have up to ${commentLimit()}.`;
    input.focus();
    return;
  }
  setBusy(button, true);
  error.textContent = "";
  try {
    const comment = await api(`/api/activities/${enc(entry.item.id)}/comments`, { method: "POST", body: { body } });
    entry.element.querySelector(".ch-comments").append(commentRow(entry, comment));
    entry.item = { ...entry.item, comments: entry.item.comments + 1 };
    input.value = "";
    announce("Comment posted.");
    // Post has nothing left to send (it is disabled below): the keyboard goes to the empty field, ready for another.
    if (form.contains(document.activeElement) || document.activeElement === document.body) input.focus({ preventScroll: true });
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    setBusy(button, false);
    updateCommentCounter(form);
    renderCommentCount(entry);
  }
}

async function deleteComment(entry, comment, row) {
  const error = entry.element.querySelector("[data-role=thread-error]");
  error.textContent = "";
  try {
    await api(`/api/comments/${enc(comment.id)}`, { method: "DELETE" });
    row.remove();
    entry.item = { ...entry.item, comments: Math.max(0, entry.item.comments - 1) };
    renderCommentCount(entry);
    announce("Comment deleted.");
    entry.element.querySelector("[data-testid=comment-input]").focus();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

// MARK: Public link and report

function publicLinkRow(entry) {
  const input = h("input", { type: "checkbox", role: "switch", "data-testid": "public-link", checked: entry.item.publicLink,
    onchange: (event) => setPublicLink(entry, event.currentTarget.checked) });
  return h("div", { class: "ch-post-owner" },
    h("label", { class: "switch ch-mini-switch" }, input, "Public link: ",
      h("span", { class: "ch-switch-state", "data-role": "public-state", text: entry.item.publicLink ? "on" : "off" })));
}

function renderPublicLink(entry) {
  const on = entry.item.publicLink;
  const input = entry.element.querySelector("[data-testid=public-link]");
  if (input) input.checked = on;
  const label = entry.element.querySelector("[data-role=public-state]");
  if (label) label.textContent = on ? "on" : "off";
  if (state.share.entry === entry) renderShareLink(entry);
}

async function setPublicLink(entry, on) {
  const previous = entry.item.publicLink;
  entry.item = { ...entry.item, publicLink: on };
  renderPublicLink(entry);
  setShareStatus("");
  try {
    const item = await api(`/api/activities/${enc(entry.item.id)}`, { method: "PATCH", body: { publicLink: on } });
    entry.item = { ...entry.item, ...item };
    announce(on ? "Public link is on: anyone with the link can see it." : "Public link is off.");
  } catch (error) {
    entry.item = { ...entry.item, publicLink: previous };
    itemMessage(entry, error.message);
    if (state.share.entry === entry) setShareStatus(error.message, "error");
  }
  renderPublicLink(entry);
}

function itemMenu(entry) {
  const menuId = nextId("menu");
  const toggle = h("button", { class: "ch-menu-toggle", type: "button", "aria-expanded": "false", "aria-controls": menuId,
    "aria-label": `More options for ${entry.item.actor.displayName}’s post`, "data-testid": "item-menu" }, icon("more"));
  const panel = h("div", { class: "ch-menu-panel", id: menuId, hidden: true },
    h("button", { class: "ch-menu-item", type: "button", "data-testid": "report",
      onclick: () => {
        closeMenu();
        openReport(entry, toggle);
      } }, icon("flag"), "Report…"));
  const wrap = h("div", { class: "ch-menu" }, toggle, panel);
  function closeMenu() {
    toggle.setAttribute("aria-expanded", "false");
    panel.hidden = true;
  }
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
    if (open) panel.querySelector("button").focus();
  });
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      event.stopPropagation();
      closeMenu();
      toggle.focus();
    }
  });
  wrap.addEventListener("focusout", (event) => {
    if (!wrap.contains(event.relatedTarget)) closeMenu();
  });
  return wrap;
}

function openReport(entry, returnTo) {
  state.report = { entry, returnTo };
  $("#report-reason").value = "";
  $("#report-reason").removeAttribute("aria-invalid");
  $("#report-error").textContent = "";
  $("#report-dialog").returnValue = "";
  $("#report-dialog").showModal();
}

async function onReportClosed() {
  const { entry, returnTo } = state.report;
  state.report = { entry: null };
  if (!entry) return;
  if ($("#report-dialog").returnValue !== "report") {
    returnTo?.focus();
    return;
  }
  const reason = $("#report-reason").value.trim();
  try {
    await api(`/api/activities/${enc(entry.item.id)}/report`, { method: "POST", body: reason ? { reason } : {} });
    const menu = entry.element.querySelector(".ch-menu");
    const note = h("p", { class: "ch-reported", "data-testid": "report-done", tabindex: "-1", text: "Thanks — we’ll take a look." });
    entry.element.querySelector(".ch-post-actions").after(note);
    menu?.remove();
    note.focus();
  } catch (error) {
    itemMessage(entry, error.message);
    returnTo?.focus();
  }
}

// MARK: Share

function openShare(entry) {
  const item = entry.item;
  state.share.entry = entry;
  showShareCard(item);
  $("#share-title").textContent = item.isMine ? "Share your completion" : `Share ${item.actor.displayName}’s completion`;
  setShareStatus("");
  renderShareLink(entry);
  $("#share-panel").showModal();
  const download = $("#share-download");
  const first = [$("#share-native"), download, $("#copy-link")].find((control) => !control.hidden && !control.closest("[hidden]"));
  (first || $("#share-panel .ch-close")).focus();
}

/**
 * The card is a PNG the server draws. Until it arrives its frame (the card's own shape) shows a quiet placeholder,
 * so the sheet does not jump when it lands; if it cannot be loaded, the frame says so kindly.
 */
function showShareCard(item) {
  const frame = $("#share-card");
  const image = $("#share-card-img");
  const token = ++state.share.cardToken;
  const download = $("#share-download");
  download.href = item.cardUrl || "#";
  if (!item.cardUrl) {
    image.removeAttribute("src");
    setCardState("missing");
    return;
  }
  image.alt = `Share card: ${item.actor.displayName} completed ${item.challengeTitle || "a challenge"}`;
  setCardState("loading");
  state.share.file = null;
  image.onload = () => {
    if (token === state.share.cardToken) setCardState("ready");
  };
  image.onerror = () => {
    if (token === state.share.cardToken) setCardState("failed");
  };
  image.src = item.cardUrl;
  // From the cache it may be there already.
  if (image.complete && image.naturalWidth > 0) setCardState("ready");

  function setCardState(which) {
    frame.dataset.state = which;
    if (which === "loading") frame.setAttribute("aria-busy", "true");
    else frame.removeAttribute("aria-busy");
    image.hidden = which === "missing" || which === "failed";
    const live = state.share.entry && liveShareUrl(state.share.entry.item);
    $("#share-card-note").textContent = {
      loading: "Loading the share card…",
      missing: item.status === "revoked" ? "This completion was removed after review, so it has no share card." : "The share card isn’t ready yet.",
      failed: `Sorry, we couldn’t load the share card.${live ? " You can still share the link." : " Please try again later."}`,
    }[which] || "";
    // Without a card there is nothing to download.
    download.hidden = which === "missing" || which === "failed";
    if (which === "ready") prepareCardFile(item, token);
    renderShareButtons();
  }
}

/**
 * Where the system sheet takes pictures, the card is made ready as a file while the sheet is open, so "Share…"
 * can hand it over at once (a browser lets a page share only straight after the press).
 */
async function prepareCardFile(item, token) {
  if (!canShareFiles() || state.share.file) return;
  try {
    const response = await fetch(item.cardUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    const file = new File([await response.blob()], "completion.png", { type: "image/png" });
    if (token !== state.share.cardToken || !navigator.canShare({ files: [file] })) return;
    state.share.file = file;
    renderShareButtons();
  } catch {
    // The link (when on) and the download are still there.
  }
}

/** The post's public address, when its public link is on. */
function liveShareUrl(item) {
  return item.publicLink && item.shareUrl ? new URL(item.shareUrl, location.origin).href : "";
}

/**
 * "Share…" opens the system share sheet (Web Share API) where the browser has one: with the card's picture where
 * the browser can share files, and the public link and the story when the link is on.
 */
function shareWhat(item) {
  if (!navigator.share) return null;
  if (state.share.file) return "card";
  if (liveShareUrl(item)) return "link";
  return null;
}

function renderShareButtons() {
  const entry = state.share.entry;
  const what = entry && shareWhat(entry.item);
  const native = Boolean(what);
  $("#share-native").hidden = !native;
  $("#share-native").dataset.shares = what || "";
  $("#share-download").classList.toggle("ch-primary", !native);
}

function renderShareLink(entry) {
  const item = entry.item;
  const wrap = $("#share-public-wrap");
  wrap.hidden = !item.isMine;
  $("#share-public").checked = item.publicLink;
  const live = liveShareUrl(item);
  const outOfFeeds = Boolean(item.status && item.status !== "visible");
  // A post out of feeds has no public link: the switch says so instead of promising one.
  $("#share-public").disabled = outOfFeeds;
  $("#copy-row").hidden = !live;
  $("#share-url").value = live;
  $("#share-public-help").textContent = outOfFeeds
    ? (item.status === "revoked" ? "This completion was removed after review, so it has no public link." : "While this post is hidden from feeds it has no public link.")
    : item.isMine
    ? (item.publicLink ? "Anyone with the link can see this completion." : "Turn this on to get a link anyone can open, even without an account.")
    : (live ? "Anyone with the link can see this completion." : "");
  renderShareButtons();
}

function setShareStatus(text, kind = "") {
  const status = $("#share-status");
  status.textContent = text;
  status.className = `message ${kind}`;
}

/** What the system sheet gets besides the link: the post's title, and its story in quotes. */
function shareText(item) {
  return item.story ? `${item.title}\n“${item.story}”` : item.title;
}

async function shareNative() {
  const entry = state.share.entry;
  const button = $("#share-native");
  const what = entry && shareWhat(entry.item);
  if (!what || button.getAttribute("aria-busy") === "true") return;
  const item = entry.item;
  setBusy(button, true);
  setShareStatus("");
  try {
    // Nothing is awaited before share(): the browser allows it only straight after the press.
    const data = { title: item.title, text: shareText(item) };
    if (liveShareUrl(item)) data.url = liveShareUrl(item);
    if (what === "card") data.files = [state.share.file];
    await navigator.share(data);
    setShareStatus("Shared.", "ok");
  } catch (error) {
    // Closing the share sheet is not a failure. A refusal of the link falls back to copying it.
    if (error && error.name === "AbortError") return;
    if (liveShareUrl(item)) await copyLink();
    else setShareStatus("Your browser didn’t share the card. Download it instead.", "error");
  } finally {
    setBusy(button, false);
  }
}

async function copyLink() {
  const input = $("#share-url");
  const url = input.value;
  if (!url) return;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    input.select();
    const ok = document.execCommand && document.execCommand("copy");
    if (!ok) return setShareStatus("Couldn’t copy the link: select it above and copy it.", "error");
  }
  setShareStatus("Link copied.", "ok");
}

// MARK: People

async function loadPeopleSection() {
  state.people.loaded = true;
  await Promise.all([loadProfile(), loadPeople("followers"), loadPeople("following")]);
}

async function loadProfile() {
  try {
    const profile = await api("/api/social/me");
    state.people.profile = profile;
    renderProfile(profile);
  } catch (error) {
    $("#follow-message").textContent = error.message;
  }
}

function renderProfile(profile) {
  const person = profile.person;
  $("#profile-avatar").textContent = person.initial;
  $("#profile-name").textContent = person.displayName;
  $("#profile-handle").textContent = person.username ? `@${person.username}` : "Guest";
  $("#guest-note").hidden = Boolean(person.username);
  $("#followers-count").textContent = String(profile.followers);
  $("#following-count").textContent = String(profile.following);
  renderStats(profile.stats);
}

async function loadPeople(kind, { more = false } = {}) {
  const box = state.people[kind];
  const button = $(`#${kind}-more`);
  if (more && (!box.next || button.getAttribute("aria-busy") === "true")) return;
  const token = more ? box.token : ++box.token;
  setBusy(button, true);
  try {
    const page = await api(`/api/social/${kind}${more ? `?cursor=${enc(box.next)}` : ""}`);
    if (token !== box.token) return;
    box.people = more ? [...box.people, ...page.people] : page.people;
    box.next = page.next || null;
    box.total = page.total;
    if (kind === "following") for (const person of page.people) if (person.username) state.people.followed.add(person.username);
    const list = $(`#${kind}-list`);
    const rows = page.people.map((person) => personRow(person, kind));
    // Drawing the list again (a follow from elsewhere, someone new following you) keeps the keyboard on the same person's button.
    const focused = !more && list.contains(document.activeElement) && document.activeElement.closest(".ch-person");
    if (more) list.append(...rows);
    else list.replaceChildren(...rows);
    if (focused) {
      const again = rows.find((row) => row.dataset.username && row.dataset.username === focused.dataset.username);
      (again || rows[0])?.querySelector("button")?.focus({ preventScroll: true });
    }
    if (more && rows.length && !box.next) rows[0].querySelector("button, [tabindex]")?.focus();
    $(`#${kind}-count`).textContent = String(page.total);
    $(`#${kind}-empty`).hidden = box.people.length > 0;
    if (kind === "following") refreshFollowerButtons();
  } catch (error) {
    $("#follow-message").textContent = error.message;
    $("#follow-message").className = "message error";
  } finally {
    setBusy(button, false);
    button.hidden = !box.next;
  }
}

function personRow(person, kind) {
  const row = h("li", { class: "ch-person", "data-testid": "person", "data-username": person.username || "" },
    h("span", { class: "ch-avatar ch-avatar-sm", "aria-hidden": "true", text: person.initial }),
    h("div", { class: "ch-person-who" },
      h("span", { class: "ch-person-name", text: person.displayName }),
      h("span", { class: "ch-person-handle muted small", text: person.username ? `@${person.username}` : "Guest" })));
  if (person.username) {
    row.append(h("button", { class: "button ch-small ch-follow-toggle", type: "button", "data-testid": "follow-toggle",
      onclick: (event) => toggleFollow(person, event.currentTarget) }));
    renderFollowButton(row.lastChild, person, kind === "following" || state.people.followed.has(person.username));
  }
  return row;
}

function renderFollowButton(button, person, following) {
  button.dataset.following = String(following);
  button.textContent = following ? "Unfollow" : "Follow";
  button.classList.toggle("ch-primary", !following);
  button.setAttribute("aria-label", `${following ? "Unfollow" : "Follow"} ${person.displayName}`);
}

/** A follower's row says "Follow" or "Unfollow" by what this page knows of the people you follow. */
function refreshFollowerButtons() {
  for (const row of document.querySelectorAll("#followers-list .ch-person")) {
    const button = row.querySelector(".ch-follow-toggle");
    const person = state.people.followers.people.find((p) => p.username === row.dataset.username);
    if (button && person) renderFollowButton(button, person, state.people.followed.has(person.username));
  }
}

async function toggleFollow(person, button) {
  if (button.getAttribute("aria-busy") === "true") return;
  const following = button.dataset.following === "true";
  // The button stays focusable while it works, and says its new state in place ("Follow" ↔ "Unfollow").
  setBusy(button, true);
  try {
    const profile = following
      ? await api(`/api/social/follow/${enc(person.username)}`, { method: "DELETE" })
      : await api("/api/social/follow", { method: "POST", body: { username: person.username } });
    if (profile.isFollowing) state.people.followed.add(person.username);
    else state.people.followed.delete(person.username);
    // Every row of this person (they may be in both lists) says the same.
    for (const other of document.querySelectorAll(`.ch-person[data-username="${CSS.escape(person.username)}"] .ch-follow-toggle`)) {
      renderFollowButton(other, person, profile.isFollowing);
    }
    announce(profile.isFollowing ? `You now follow ${person.displayName}.` : `You no longer follow ${person.displayName}.`);
    await loadProfile();
    // Followed back from "Followers": they join "Following" too. (From "Following" itself the row stays, to undo.)
    if (!button.closest("#following-list")) loadPeople("following");
    loadFeed();
  } catch (error) {
    $("#follow-message").className = "message error";
    $("#follow-message").textContent = error.message;
  } finally {
    setBusy(button, false);
  }
}

async function submitFollow(event) {
  event.preventDefault();
  const input = $("#follow-username");
  const message = $("#follow-message");
  const button = $("#follow-submit");
  const username = input.value.trim().replace(/^@+/, "");
  message.className = "message";
  if (!username) {
    message.className = "message error";
    message.textContent = "Type the username of the person you want to follow.";
    input.focus();
    return;
  }
  if (button.getAttribute("aria-busy") === "true") return;
  setBusy(button, true);
  message.textContent = "";
  try {
    const profile = await api("/api/social/follow", { method: "POST", body: { username } });
    if (profile.person.username) state.people.followed.add(profile.person.username);
    message.className = "message ok";
    message.textContent = `You now follow ${profile.person.displayName}${profile.person.username ? ` (@${profile.person.username})` : ""}.`;
    input.value = "";
    await Promise.all([loadProfile(), loadPeople("following")]);
    refreshFollowerButtons();
    loadFeed();
  } catch (error) {
    message.className = "message error";
    message.textContent = error.message;
    input.focus();
  } finally {
    setBusy(button, false);
  }
}

// MARK: Live updates

function setLiveStatus(which) {
  const status = $("#live-status");
  const text = which === "live" ? "Live" : which === "reconnecting" ? "Reconnecting…" : "";
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = which;
}

function connectLive() {
  if (!window.EventSource) return;
  const source = new EventSource("/api/feed/events");
  state.source = source;
  source.addEventListener("open", () => {
    state.reopenAttempt = 0;
    setLiveStatus("live");
    catchUpFeed();
    // The server is back: a column that could not load at first loads now, without a reload.
    if (state.overviewFailed) {
      loadOverview().then(() => { state.overviewFailed = false; }).catch(() => null);
    }
  });
  source.addEventListener("activity", (event) => {
    setLiveStatus("live");
    const item = parse(event.data);
    if (!item || !item.id) return;
    // A post shown again after review may be on the page already (its author's): then it is brought up to date.
    if (state.feed.entries.has(item.id)) updateItem(item);
    else receiveItem(item, { live: true });
    // Someone followed you: the counts and the list of followers move.
    if (item.type === "follow" && state.people.loaded) {
      loadProfile();
      loadPeople("followers");
    }
  });
  source.addEventListener("changed", (event) => {
    const item = parse(event.data);
    if (item && item.id) updateItem(item);
  });
  source.addEventListener("removed", (event) => {
    const data = parse(event.data);
    if (data && data.id) removeItem(data.id);
  });
  source.addEventListener("error", () => {
    if (state.source !== source) return;
    setLiveStatus("reconnecting");
    // EventSource reconnects by itself (CONNECTING); CLOSED means the server refused for good.
    if (source.readyState === EventSource.CLOSED) {
      const delay = REOPEN_DELAYS[Math.min(state.reopenAttempt, REOPEN_DELAYS.length - 1)];
      state.reopenAttempt += 1;
      setTimeout(() => {
        if (state.source === source) connectLive();
      }, delay * 1000);
    }
  });
}

function parse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

// MARK: Sections

function paneVisible(name) {
  if (WIDE.matches) return name === "challenges" || state.side === name;
  return state.view === name;
}

/** Shows a section: one at a time on a phone; Feed or People beside the challenges on a wider screen. */
function setView(view, { focus = false } = {}) {
  if (!["challenges", "feed", "people"].includes(view)) view = "challenges";
  state.view = view;
  if (view !== "challenges") state.side = view;
  const app = $("#main");
  app.dataset.view = view;
  app.dataset.side = state.side;
  for (const tab of document.querySelectorAll("[data-tab]")) {
    if (tab.dataset.tab === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  if (paneVisible("feed")) $("#feed-dot").hidden = true;
  if (paneVisible("people") && !state.people.loaded) loadPeopleSection();
  if (focus) {
    const target = typeof focus === "string" ? $(focus) : $(`#${view === "challenges" ? "challenges" : view}-title`);
    if (!WIDE.matches) window.scrollTo({ top: 0 });
    target?.focus({ preventScroll: !WIDE.matches });
  }
}

function viewFromHash() {
  const name = location.hash.replace("#", "");
  return ["challenges", "feed", "people"].includes(name) ? name : "challenges";
}

// MARK: Dialog comfort

/**
 * Keeps what has the keyboard in sight. In a dialog: a field above a phone's keyboard (the visual viewport
 * shrinks; the layout does not). On the page: clear of the sticky top bar and the phone's tab bar at the bottom.
 * Tab already stops short of them (the root's scroll padding is their height, and --topbar-h is measured here
 * as the top bar wraps); this also covers focus moved by a script, and a keyboard that comes up afterwards.
 */
function keepFocusVisible() {
  const viewport = window.visualViewport;
  const root = document.documentElement;
  const topbar = $(".topbar");
  const tabs = $(".ch-tabs");
  const measure = () => {
    if (viewport) root.style.setProperty("--ch-vvh", `${viewport.height}px`);
    root.style.setProperty("--topbar-h", `${Math.ceil(topbar.getBoundingClientRect().height)}px`);
  };
  /** The band of the window nothing covers. */
  const clearBand = () => {
    let top = viewport ? viewport.offsetTop : 0;
    let bottom = viewport ? viewport.offsetTop + viewport.height : window.innerHeight;
    top = Math.max(top, topbar.getBoundingClientRect().bottom);
    if (getComputedStyle(tabs).position === "fixed") bottom = Math.min(bottom, tabs.getBoundingClientRect().top);
    return { top, bottom };
  };
  const reveal = () => {
    const element = document.activeElement;
    if (!element || element === document.body || !element.isConnected) return;
    if (element.closest("dialog[open]")) {
      if (element.matches("input, textarea")) element.scrollIntoView({ block: "nearest" });
      return;
    }
    if (element.closest(".topbar, .ch-tabs")) return;
    const box = element.getBoundingClientRect();
    const band = clearBand();
    const hidden = box.top < band.top || box.bottom > band.bottom;
    // A whole card taller than the band is left where it is: scrolling to one of its edges would only jump.
    if (hidden && box.height > 0 && box.height <= band.bottom - band.top) element.scrollIntoView({ block: "nearest" });
  };
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);
  const resized = () => {
    measure();
    reveal();
  };
  (viewport || window).addEventListener("resize", resized);
  if (viewport) window.addEventListener("resize", resized);
  document.addEventListener("focusin", () => requestAnimationFrame(reveal));
}

/** A click on a dialog's backdrop closes it (not while a completion is on its way). */
function closeOnBackdrop(dialog, canClose = () => true) {
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog || !canClose()) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });
}

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

  for (const button of document.querySelectorAll("[data-filter]")) {
    button.addEventListener("click", () => setFilter(button.dataset.filter));
  }
  $("#load-more").addEventListener("click", () => loadFeed({ more: true }));

  // Complete dialog
  const complete = $("#complete-dialog");
  $("#take-photo").addEventListener("click", () => $("#photo-camera").click());
  $("#choose-photo").addEventListener("click", () => $("#photo-input").click());
  $("#photo-camera").addEventListener("change", onPhotoChosen);
  $("#photo-input").addEventListener("change", onPhotoChosen);
  $("#photo-preview").addEventListener("error", () => {
    // A picture this browser cannot show may still be one the server can read.
    if (state.complete.file) $("#photo-note").textContent = "This picture can’t be previewed here, but you can still send it.";
  });
  $("#story").addEventListener("input", updateCounter);
  $("#complete-form").addEventListener("submit", submitCompletion);
  complete.querySelector("[data-close]").addEventListener("click", () => {
    if (!state.complete.busy) closeComplete();
  });
  // While the completion is on its way the dialog stays: closing it would hide the answer.
  complete.addEventListener("cancel", (event) => {
    if (state.complete.busy) event.preventDefault();
  });
  complete.addEventListener("close", onCompleteClosed);
  closeOnBackdrop(complete, () => !state.complete.busy && !state.complete.done);

  // Celebration: a click anywhere, Escape or Close sends it away sooner.
  const celebration = $("#celebration");
  celebration.addEventListener("click", dismissCelebration);
  celebration.addEventListener("cancel", (event) => {
    event.preventDefault();
    dismissCelebration();
  });

  // Share panel
  const share = $("#share-panel");
  share.querySelector("[data-close]").addEventListener("click", () => share.close());
  share.addEventListener("close", () => {
    const entry = state.share.entry;
    state.share.entry = null;
    entry?.element.querySelector("[data-testid=share-open]")?.focus();
  });
  closeOnBackdrop(share);
  $("#share-native").addEventListener("click", shareNative);
  $("#copy-link").addEventListener("click", copyLink);
  $("#share-public").addEventListener("change", (event) => {
    const entry = state.share.entry;
    if (entry) setPublicLink(entry, event.currentTarget.checked);
  });

  // Report
  const report = $("#report-dialog");
  report.addEventListener("close", onReportClosed);
  // A reason over the server's limit is not sent: the dialog stays and says by how much.
  $("#report-form").addEventListener("submit", (event) => {
    const field = $("#report-reason");
    const over = event.submitter && event.submitter.value === "report" ? overLimit(field.value, commentLimit()) : 0;
    $("#report-error").textContent = over ? `That’s ${plural(over, "character")} too long — a reason can have up to ${commentLimit()}.` : "";
    if (!over) return;
    event.preventDefault();
    field.setAttribute("aria-invalid", "true");
    field.focus();
  });
  closeOnBackdrop(report);

  $("#follow-form").addEventListener("submit", submitFollow);
  $("#followers-more").addEventListener("click", () => loadPeople("followers", { more: true }));
  $("#following-more").addEventListener("click", () => loadPeople("following", { more: true }));

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
