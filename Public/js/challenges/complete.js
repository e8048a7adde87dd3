// Challenges: completing a challenge with a photo and a story (one attempt, one idempotency key), and the celebration.
import { announce } from "../lib/announce.js";
import { api, newIdempotencyKey } from "../lib/api.js";
import { $, closeOnBackdrop } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { playChoreography, preference } from "../motion.js";
import { cardFor, renderStats, upsertChallenge } from "./cards.js";
import { receiveItem } from "./feed.js";
import { icon, ICONS } from "./icons.js";
import { overLimit, renderCounter, storyLimit } from "./limits.js";
import { enc, state } from "./state.js";

/** The media types the server takes for a photo (overview.photoTypes). */
function photoTypes() {
  return (state.overview && state.overview.photoTypes) || [];
}

/** The server's names of those types as words, joined with commas and "or" (empty before the overview answered). */
function formatWords() {
  const names = (state.overview && state.overview.photoFormats) || [];
  return names.length ? new Intl.ListFormat("en-GB", { type: "disjunction" }).format(names) : "";
}

/** The photo note before a photo is chosen. */
function photoNote() {
  const words = formatWords();
  return `You need a photo to share your completion${words ? ` (${words})` : ""}.`;
}

/** The photo pickers offer the server's media types (the file chooser filters by them), and the note names them. */
export function applyPhotoTypes() {
  const accept = photoTypes().join(",");
  for (const input of [$("#photo-camera"), $("#photo-input")]) {
    if (accept) input.accept = accept;
    else input.removeAttribute("accept");
  }
  if (!state.complete.file) $("#photo-note").textContent = photoNote();
}

/** Whether the server refused the picture itself (overview.refusedPhotoCodes): sending it again cannot help. */
function refusesPhoto(code) {
  return Boolean(state.overview && state.overview.refusedPhotoCodes.includes(code));
}
/** Photos are shrunk in the browser to this long side before upload, so a phone's 12 MP shot travels light. */
const JPEG_QUALITY = 0.85;

/** Words for an error about a photo the server sent without a message. */
function fallbackMessage(status) {
  if (status === 413) return "That photo is too large. Try a smaller one.";
  if (status === 415 || status === 422) return `We couldn’t read that photo. Try ${formatWords() ? `a ${formatWords()}` : "another"} picture.`;
  if (status >= 500) return "Something went wrong on our side. Please try again in a moment.";
  return `Something went wrong (${status}).`;
}

// MARK: Complete with proof

export function openComplete(challengeId) {
  const challenge = state.challenges.get(challengeId);
  if (!challenge) return;
  const dialog = $("#complete-dialog");
  const c = state.complete;
  clearTimeout(c.closeTimer);
  Object.assign(c, { challengeId, file: null, attempt: null, busy: false, done: false, posted: false });
  setPreview(null);
  $("#complete-challenge").textContent = challenge.title;
  const story = $("#story");
  story.value = "";
  $("#complete-public").checked = false;
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
  // A photo sent for a completion that did not happen is taken back, so it does not count against the person's uploads.
  discardUploaded().catch(() => null);
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
    $("#photo-note").textContent = photoNote();
    // An input keeps its file: without this, choosing the same picture next time would not fire "change".
    for (const input of [$("#photo-input"), $("#photo-camera")]) input.value = "";
  }
  $("#remove-photo").hidden = !file;
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
    showCompleteError(`That file isn’t a picture. Choose a photo${formatWords() ? ` — ${formatWords()}` : ""}.`, { retry: false, kind: "photo" });
    return;
  }
  // The photo sent for the one it replaces is not needed any more.
  if (state.complete.attempt && state.complete.attempt.file !== file) discardUploaded().catch(() => null);
  setPreview(file);
  hideCompleteError();
  $("#photo-note").textContent = photoTypes().includes(file.type) || !file.type
    ? "Looking good. You can still change it."
    : `This kind of picture may not work${formatWords() ? ` — ${formatWords()} ${photoTypes().length === 1 ? "is" : "are"} safest` : ""}.`;
}

/**
 * Deletes on the server the photo this sheet sent (the attempt's) unless a completion shows it: the completion failed
 * or the person changed their mind. Resolves true when it was deleted; one already gone, or in a post after all (an
 * answer lost on the way), is nothing to take back. A photo left behind (offline) is removed by the server's clean-up.
 */
function discardUploaded() {
  const c = state.complete;
  const id = c.attempt && !c.posted ? c.attempt.photoId : null;
  c.attempt = null;
  if (!id) return Promise.resolve(false);
  return api(`/api/photos/${enc(id)}`, { method: "DELETE" }).then(
    () => true,
    (error) => {
      if (error.code === "photo_not_found" || error.code === "photo_in_use") return false;
      throw error;
    },
  );
}

/** "Remove photo": the picked photo leaves the sheet, and the server's copy (if it was sent) is deleted. */
async function removePhoto() {
  const c = state.complete;
  if (c.busy || c.done || !c.file) return;
  const deleting = discardUploaded();
  setPreview(null);
  hideCompleteError();
  $("#choose-photo").focus();
  let words;
  try {
    words = (await deleting) ? "Photo removed and deleted from our server." : "Photo removed.";
  } catch {
    words = "Photo removed. We couldn’t delete the copy we received just now; unused photos are deleted by themselves.";
  }
  // Unless another photo was picked in the meantime.
  if (state.complete.file) return;
  $("#photo-note").textContent = `${words} ${photoNote()}`;
  announce(words);
}

export function updateCounter() {
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
  for (const control of [$("#take-photo"), $("#choose-photo"), $("#remove-photo"), $("#story"), $("#complete-retry")]) {
    control.disabled = which !== "idle";
  }
}

/** `retry`: whether "Try again" can help (not when the photo itself was refused). `kind` names the cause. */
function showCompleteError(text, { retry = true, kind = "", tone = "error" } = {}) {
  state.complete.error = kind;
  // "info" is news, not a failure (done already in another tab): said calmly, not in the colours of an error.
  $("#complete-error").dataset.tone = tone;
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
    const fits = longSide <= maxEdge && (!maxBytes || file.size <= maxBytes) && photoTypes().includes(file.type);
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
  return api("/api/photos", { method: "POST", body: blob, contentType: blob.type || "application/octet-stream", fallback: fallbackMessage });
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
  const publicLink = $("#complete-public").checked;
  if (!c.attempt || c.attempt.file !== c.file || c.attempt.story !== story || c.attempt.publicLink !== publicLink) {
    c.attempt = { key: newIdempotencyKey(), file: c.file, story, publicLink, photoId: c.attempt?.file === c.file ? c.attempt.photoId : null,
      challengeId: c.challengeId };
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
    const body = { photoId: attempt.photoId, publicLink: attempt.publicLink };
    if (attempt.story) body.story = attempt.story;
    const path = `/api/challenges/${enc(attempt.challengeId)}/complete?preference=${preference()}`;
    const result = await api(path, { method: "POST", body, idempotencyKey: attempt.key, fallback: fallbackMessage });
    c.busy = false;
    c.done = true;
    if (!result.isFirst) {
      // Completed before (another tab or device): nothing new was shared, so no "Success!" and no celebration.
      upsertChallenge(result.challenge);
      renderStats(result.stats);
      setSubmitState("idle");
      $("#complete-submit").disabled = true;
      showCompleteError("You’ve already completed this challenge — the photo and story you shared first are the ones your followers see.",
        { retry: false, tone: "info" });
      return;
    }
    c.posted = true;
    setSubmitState("success");
    completed(result);
  } catch (error) {
    c.busy = false;
    setSubmitState("idle");
    // A photo the server refused cannot be retried as it is: it is taken away and the person picks another.
    // One it lost (photo_not_found) is uploaded again by the next attempt.
    const refused = refusesPhoto(error.code);
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

/** The completion dialog (photo, story, send) and the celebration after it. */
export function wireComplete() {
  // Complete dialog
  const complete = $("#complete-dialog");
  $("#take-photo").addEventListener("click", () => $("#photo-camera").click());
  $("#choose-photo").addEventListener("click", () => $("#photo-input").click());
  $("#remove-photo").addEventListener("click", removePhoto);
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
}
