// Challenges: the share panel: the server's share card, the system share sheet, the public link, and
// (lib/share-video.js) the celebration video.
import { canShareFiles } from "../app.js";
import { $, closeOnBackdrop, setBusy } from "../lib/dom.js";
import { setPublicLink } from "./posts.js";
import { state } from "./state.js";
import { hideShareVideo, showShareVideo, wireShareVideo } from "../lib/share-video.js";

// MARK: Share

export function openShare(entry) {
  const item = entry.item;
  state.share.entry = entry;
  showShareCard(item);
  // A removed post has no card and no video.
  showShareVideo({ path: `/api/activities/${encodeURIComponent(item.id)}/video`, title: item.title, available: Boolean(item.cardUrl) });
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

export function renderShareLink(entry) {
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
  renderCaption(item);
}

export function setShareStatus(text, kind = "") {
  const status = $("#share-status");
  status.textContent = text;
  status.className = `message ${kind}`;
}

/** The caption as the server composed it (headline, story, hashtags); the link goes beside it, not into it. */
function shareText(item) {
  return item.share ? item.share.caption : item.title;
}

/** What "Copy caption" copies: the server's caption, and the public link when it is on. */
function captionWithLink(item) {
  const live = liveShareUrl(item);
  return [shareText(item), live].filter(Boolean).join("\n\n");
}

function renderCaption(item) {
  $("#share-caption-wrap").hidden = !item.share;
  $("#share-caption").value = item.share ? captionWithLink(item) : "";
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
    const data = { title: item.share ? item.share.headline : item.title, text: shareText(item) };
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

/**
 * Copies `text` to the clipboard; where the page may not, selects it in `field` and copies that. Says which
 * (`what`: "caption", "link") was copied, or asks the person to copy it themselves.
 */
async function copyFrom(field, text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    field.select();
    const ok = document.execCommand && document.execCommand("copy");
    if (!ok) return setShareStatus(`Couldn’t copy the ${what}: select it above and copy it.`, "error");
  }
  setShareStatus(`${what[0].toUpperCase()}${what.slice(1)} copied.`, "ok");
}

async function copyCaption() {
  const entry = state.share.entry;
  if (entry && entry.item.share) await copyFrom($("#share-caption"), captionWithLink(entry.item), "caption");
}

async function copyLink() {
  const input = $("#share-url");
  if (input.value) await copyFrom(input, input.value, "link");
}

/** The share panel. */
export function wireShare() {
  // Share panel
  const share = $("#share-panel");
  share.querySelector("[data-close]").addEventListener("click", () => share.close());
  share.addEventListener("close", () => {
    const entry = state.share.entry;
    state.share.entry = null;
    hideShareVideo();
    entry?.element.querySelector("[data-testid=share-open]")?.focus();
  });
  closeOnBackdrop(share);
  $("#share-native").addEventListener("click", shareNative);
  wireShareVideo({ makeLabel: "Make a celebration video", shareClass: "ch-primary" });
  $("#copy-link").addEventListener("click", copyLink);
  $("#copy-caption").addEventListener("click", copyCaption);
  $("#share-public").addEventListener("change", (event) => {
    const entry = state.share.entry;
    if (entry) setPublicLink(entry, event.currentTarget.checked);
  });
}
