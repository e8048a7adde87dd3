// The share video in a share panel (a completed challenge, a solved cryptogram). The server makes it (FFmpeg, in the
// background) and says how far it is; the page shows that progress, then offers the file to the system share sheet
// where the browser can share files, and as a download everywhere. Calm mode (reduced motion) offers the still card
// instead of a moving picture. The panel's markup: #share-video (#video-make, #video-progress-wrap, #video-progress,
// #video-progress-text, #video-share, #video-download, #video-note) and #share-calm-note.
import { canShareFiles } from "../app.js";
import { preference } from "../motion.js";
import { api } from "./api.js";
import { $, setBusy } from "./dom.js";

// How often the page asks how far the video is while the server makes it (a page's polling pace, not a rule).
const POLL_MS = 400;

const video = { item: null, token: 0, file: null, view: null };

/**
 * Shows the video part of the share panel, or hides it. `item.path` is the video's API address
 * (`/api/activities/{id}/video`, `/api/cryptogram/games/{id}/video`), `item.title` the share sheet's title, and
 * `item.available` false where there is nothing to make a video of (a removed post).
 */
export function showShareVideo(item) {
  const token = ++video.token;
  video.item = item;
  video.file = null;
  video.view = null;
  const section = $("#share-video");
  const calm = preference() === "reduced";
  // Calm mode keeps to the still card.
  section.hidden = calm || !item.available;
  $("#share-calm-note").hidden = !calm || !item.available;
  if (section.hidden) return;
  render("idle");
  // A video made before is offered at once (asking is cheap; it never starts an encode).
  api(item.path).then((view) => {
    if (token === video.token && view.state === "ready") arrived(view, token);
    else if (token === video.token && (view.state === "queued" || view.state === "rendering")) follow(view, token);
  }).catch(() => {});
}

/** Stops following a video when the panel closes. */
export function hideShareVideo() {
  video.token++;
  video.item = null;
}

async function make() {
  const item = video.item;
  if (!item) return;
  const token = video.token;
  const button = $("#video-make");
  setBusy(button, true);
  try {
    const view = await api(item.path, { method: "POST" });
    if (token !== video.token) return;
    if (view.state === "ready") arrived(view, token);
    else follow(view, token);
  } catch (error) {
    if (token !== video.token) return;
    render("idle");
    note(error.code === "video_unavailable"
      ? "Videos can’t be made right now. The card above shares just as well."
      : error.message || "Sorry, the video couldn’t be made. Please try again.", "error");
  } finally {
    setBusy(button, false);
  }
}

/** Shows the server's progress until the video is ready (or failed). */
async function follow(view, token) {
  render("making", view.progress);
  while (token === video.token) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (token !== video.token) return;
    try {
      view = await api(video.item.path);
    } catch {
      continue; // a lost poll is asked again
    }
    if (token !== video.token) return;
    if (view.state === "ready") return arrived(view, token);
    if (view.state === "failed" || view.state === "none") {
      render("idle");
      return note("Sorry, the video couldn’t be made. Please try again.", "error");
    }
    render("making", view.progress);
  }
}

/** The video is made: a download always, and the system sheet where the browser takes files. */
async function arrived(view, token) {
  video.view = view;
  const download = $("#video-download");
  download.href = view.videoPath;
  download.download = view.fileName;
  render("ready");
  if (!canShareFiles()) return;
  try {
    const response = await fetch(view.videoPath, { credentials: "same-origin" });
    if (!response.ok || token !== video.token) return;
    const file = new File([await response.blob()], view.fileName, { type: "video/mp4" });
    if (token !== video.token || !navigator.canShare({ files: [file] })) return;
    video.file = file;
    render("ready");
  } catch {
    // The download is still there.
  }
}

function render(stage, progress = 0) {
  const making = stage === "making";
  $("#video-make").hidden = stage !== "idle";
  $("#video-progress-wrap").hidden = !making;
  const bar = $("#video-progress");
  bar.value = Math.max(0, Math.min(1, progress || 0));
  $("#video-progress-text").textContent = making ? `Making your video… ${Math.round(bar.value * 100)}%` : "";
  $("#video-download").hidden = stage !== "ready";
  $("#video-share").hidden = stage !== "ready" || !video.file;
  if (stage !== "idle") note("");
}

function note(text, kind = "") {
  const line = $("#video-note");
  line.textContent = text;
  line.className = `message ${kind}`;
}

async function shareVideo() {
  const item = video.item;
  const button = $("#video-share");
  if (!item || !video.file || button.getAttribute("aria-busy") === "true") return;
  setBusy(button, true);
  try {
    // Nothing is awaited before share(): the browser allows it only straight after the press.
    await navigator.share({ title: item.title, files: [video.file] });
    note("Shared.", "ok");
  } catch (error) {
    if (error && error.name === "AbortError") return;
    note("Your browser didn’t share the video. Download it instead.", "error");
  } finally {
    setBusy(button, false);
  }
}

const MAKE_ICON = '<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><rect x="3" y="5" width="13" height="14" rx="2"/><path d="m16 10 5-3v10l-5-3"/></svg>';
const DOWNLOAD_ICON = '<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 3.5V15M7.5 10.5 12 15l4.5-4.5"/><path d="M5 19.5h14"/></svg>';

/**
 * Fills the panel's empty #share-video with its controls and wires them: `makeLabel` is the button that starts
 * the video ("Make a celebration video"), `shareClass` the page's class for its main button.
 */
export function wireShareVideo({ makeLabel, shareClass }) {
  $("#share-video").innerHTML = `
    <button class="button" type="button" id="video-make" data-testid="video-make">${MAKE_ICON} <span></span></button>
    <div class="video-progress" id="video-progress-wrap" hidden>
      <progress id="video-progress" data-testid="video-progress" max="1" value="0" aria-labelledby="video-progress-text"></progress>
      <span class="small" id="video-progress-text" role="status"></span>
    </div>
    <div class="share-video-actions">
      <button class="button" type="button" id="video-share" data-testid="video-share" hidden>Share video…</button>
      <a class="button" id="video-download" data-testid="video-download" href="#" hidden>${DOWNLOAD_ICON} Download video</a>
    </div>
    <p class="message" id="video-note" data-testid="video-note" role="status"></p>`;
  $("#video-make span").textContent = makeLabel;
  $("#video-share").classList.add(shareClass);
  $("#video-make").addEventListener("click", make);
  $("#video-share").addEventListener("click", shareVideo);
}
