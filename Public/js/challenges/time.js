// Challenges: words for the server's instants (countdowns, "5 min ago"), redrawn as time passes.
import { h } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { loadOverview } from "./cards.js";
import { nowSeconds, state } from "./state.js";

// MARK: Words for times (rendering the server's instants; no rule lives here)

/** "5 h 12 min left", "2 days left", "Ended" — counting down to the server's `endsAt`. */
export function timeLeft(endsAt, now = nowSeconds()) {
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

export function timeElement(createdAt) {
  const date = new Date(createdAt * 1000);
  return h("time", {
    datetime: date.toISOString(),
    title: date.toLocaleString(),
    "data-created-at": String(createdAt),
    text: timeAgo(createdAt),
  });
}

/** Redraws every countdown and "time ago"; asks the server again when an open challenge has just ended. */
export function tick() {
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
