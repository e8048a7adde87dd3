// Challenges: the server's text limits for stories and comments, counted as the server counts, with their counters,
// and the photo types it takes.
import { applyPhotoTypes, updateCounter } from "./complete.js";
import { updateCommentCounter } from "./posts.js";
import { state } from "./state.js";

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
 * The server's text limits (the page keeps no copy of its own) are checked as the server counts: in characters,
 * not the UTF-16 units a field's maxlength counts, which would cut a story of emoji short. So no field has a
 * maxlength; the counters say how far over the limit a text is, and it is not sent until it fits.
 */
export function applyLimits() {
  applyPhotoTypes();
  updateCounter();
  for (const form of document.querySelectorAll(".ch-comment-form")) updateCommentCounter(form);
}

/** The most characters in a story or a comment, as the server said (none known before the first load answered). */
export function storyLimit() {
  return (state.overview && state.overview.storyLimit) || 0;
}

export function commentLimit() {
  return (state.overview && state.overview.commentLimit) || 0;
}

/** How many characters `text` is over `limit` (0 when it fits or no limit is known yet). */
export function overLimit(text, limit) {
  return limit > 0 ? Math.max(0, characterCount(text) - limit) : 0;
}

/** "12 / {limit}", or "{limit + 3} / {limit} — 3 too many" (the limit is the server's); marks the field invalid while it is over. */
export function renderCounter(counter, field, limit, { near = 0.9 } = {}) {
  const count = characterCount(field.value);
  const over = limit > 0 ? Math.max(0, count - limit) : 0;
  counter.textContent = limit > 0 ? `${count} / ${limit}${over ? ` — ${over} too many` : ""}` : "";
  counter.classList.toggle("is-near", limit > 0 && count >= limit * near);
  counter.classList.toggle("is-over", over > 0);
  if (over) field.setAttribute("aria-invalid", "true");
  else field.removeAttribute("aria-invalid");
  return { count, over };
}
