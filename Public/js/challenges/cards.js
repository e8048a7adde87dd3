// Challenges: the person's figures and the challenge cards: join, leave, and the card's main action.
import { announce } from "../lib/announce.js";
import { api, newIdempotencyKey } from "../lib/api.js";
import { $, h, setBusy } from "../lib/dom.js";
import { longDay, plural, shortDay } from "../lib/format.js";
import { openComplete } from "./complete.js";
import { icon } from "./icons.js";
import { applyLimits } from "./limits.js";
import { enc, nextId, showPageError, state } from "./state.js";
import { timeLeft } from "./time.js";

// MARK: Stats

export function renderStats(stats) {
  if (!stats) return;
  $("#hero-points").textContent = String(stats.totalPoints);
  $("#hero-streak").textContent = plural(stats.currentStreak, "day");
  $("#stat-points").textContent = String(stats.totalPoints);
  $("#stat-completed").textContent = String(stats.challengesCompleted);
  $("#stat-streak").textContent = String(stats.currentStreak);
  $("#stat-streak-unit").textContent = stats.currentStreak === 1 ? "day" : "days";
  $("#stat-longest").textContent = String(stats.longestStreak);
  $("#stat-longest-unit").textContent = stats.longestStreak === 1 ? "day" : "days";
  renderFreezes(stats.freezes);
}

// MARK: Streak freezes (held, used, bought; the limit, the price and why one cannot be bought are the server's)

/** "23 Nov", "23 Nov and 24 Nov". */
function dayList(days) {
  const words = days.map(shortDay);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
}

function renderFreezes(freezes) {
  const box = $("#freezes");
  if (!freezes) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  $("#hero-freezes").textContent = `×${freezes.held}`;
  $("#hero-freezes").setAttribute("aria-label", plural(freezes.held, "streak freeze"));
  const notes = [];
  if (freezes.usedOn.length) notes.push(`Used on ${dayList(freezes.usedOn)}: your streak kept going.`);
  if (freezes.unavailable) notes.push(freezes.unavailable);
  else if (freezes.held > 0) notes.push("A freeze is used by itself on a day you miss.");
  else notes.push("A freeze keeps your streak alive on a day you miss.");
  $("#freezes-note").textContent = notes.join(" ");
  const buy = $("#freeze-buy");
  buy.textContent = `Buy a freeze · ${freezes.price} points`;
  // Not `disabled` (that would drop the keyboard focus after the second purchase): a press says why instead.
  buy.dataset.unavailable = freezes.unavailable || "";
  if (!buy.getAttribute("aria-busy")) {
    if (freezes.unavailable) buy.setAttribute("aria-disabled", "true");
    else buy.removeAttribute("aria-disabled");
  }
}

async function buyFreeze() {
  const buy = $("#freeze-buy");
  const message = $("#freeze-message");
  if (buy.getAttribute("aria-busy")) return;
  if (buy.dataset.unavailable) {
    message.textContent = buy.dataset.unavailable;
    return;
  }
  message.textContent = "";
  setBusy(buy, true);
  try {
    const result = await api("/api/challenges/streak/freezes", { method: "POST", idempotencyKey: newIdempotencyKey() });
    setBusy(buy, false);
    renderStats(result.stats);
    message.textContent = result.message;
  } catch (error) {
    setBusy(buy, false);
    // The server's words say why (the most are held, or not enough points yet); the figures may have moved.
    message.textContent = error.message;
    loadOverview().catch(() => {});
  }
}

$("#freeze-buy").addEventListener("click", buyFreeze);

// MARK: Challenges

export async function loadOverview() {
  const overview = await api("/api/challenges");
  state.overview = overview;
  applyLimits();
  state.challenges = new Map([...overview.challenges, ...overview.earlier].map((c) => [c.id, c]));
  $("#today").textContent = longDay(overview.today);
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
  // The groups in the server's order with its labels; a type it did not list (none today) goes last, by its name.
  const known = overview.types.map(({ type }) => type);
  const others = [...new Set(overview.challenges.map((c) => c.type).filter((type) => !known.includes(type)))];
  const groups = [...overview.types.map(({ type, label }) => [type, label]), ...others.map((type) => [type, type])];
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

/** The server's label for a challenge type (overview.types). */
function typeLabel(type) {
  const known = state.overview && state.overview.types.find((entry) => entry.type === type);
  return known ? known.label : type;
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

export function cardFor(challengeId) {
  return document.querySelector(`[data-testid="challenge-card"][data-id="${CSS.escape(challengeId)}"]`);
}

/** Replaces a challenge's card with the server's new view of it. */
export function upsertChallenge(challenge) {
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
    const challenge = await api(`/api/challenges/${enc(challengeId)}/${action}`, { method: "POST" });
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
