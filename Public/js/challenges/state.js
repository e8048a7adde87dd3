// Challenges: everything the page holds (all of it from the server's answers), and the small helpers every part uses.
import { $ } from "../lib/dom.js";

/** Everything the page holds, all of it from the server's answers. */
export const state = {
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
  complete: { challengeId: null, file: null, previewUrl: null, attempt: null, busy: false, done: false, posted: false, closeTimer: 0, error: "" },
  celebration: { token: 0, timer: 0 },
  share: { entry: null, cardToken: 0, file: null },
  report: { entry: null },
  /** Challenge ids whose end already made us reload the overview (so a clock difference cannot loop). */
  endedReloads: new Set(),
  /** The feed's live stream (js/lib/live.js). */
  live: null,
  uid: 0,
};

export function nextId(prefix) {
  state.uid += 1;
  return `${prefix}-${state.uid}`;
}

export const enc = encodeURIComponent;
export const nowSeconds = () => Date.now() / 1000;

export function showPageError(text) {
  $("#page-error").textContent = text || "";
}
