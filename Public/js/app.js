// Shared page shell: who is signed in, the calm-mode switch, and small helpers every page uses.
import { bindCalmSwitch } from "./motion.js";

/** Calls the JSON API; throws an Error whose message is the server's human message. */
export async function api(path, { method = "GET", body } = {}) {
  // X-CompletionKit marks the request as the site's own (the server refuses changes without it or JSON).
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json", "X-CompletionKit": "1" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error("We could not reach the server. Check your connection and try again.");
  }
  if (method !== "GET" && response.ok) noteFirstWrite();
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error((data && data.message) || `Something went wrong (${response.status}).`);
    error.code = data && data.code;
    throw error;
  }
  return data;
}

/** A visitor's first write made their guest account: show its name instead of the plain "Guest". */
export function noteFirstWrite() {
  if (!mePromise) return;
  mePromise.then((me) => {
    if (me && !me.id) {
      currentUser(true);
      renderWho();
    }
  }).catch(() => {});
}

let mePromise = null;

/** The current person (a visitor without an account reads as a guest with an empty id until their first write). */
export function currentUser(refresh = false) {
  if (!mePromise || refresh) mePromise = api("/api/me");
  return mePromise;
}

/** Renders the signed-in name into every `[data-who]`. */
export async function renderWho() {
  try {
    const me = await currentUser();
    for (const el of document.querySelectorAll("[data-who]")) {
      el.textContent = me.isGuest ? `Playing as ${me.displayName}` : `Signed in as ${me.displayName}`;
    }
    return me;
  } catch {
    return null;
  }
}

/** Sets up the shell on every page. */
export function boot() {
  bindCalmSwitch(document.querySelector("#calm"));
  renderWho();
}

/** `m:ss` for a number of seconds (whole seconds, rounded down), as the Swift core formats times. */
export function formatClock(seconds) {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/** The person's IANA time zone ("Europe/Berlin"), or UTC when the browser does not say. */
export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Whether this browser can hand a PNG to the system share sheet (Web Share API with files). */
export function canShareFiles() {
  try {
    const probe = new File([new Uint8Array(8)], "probe.png", { type: "image/png" });
    return Boolean(navigator.share && navigator.canShare && navigator.canShare({ files: [probe] }));
  } catch {
    return false;
  }
}
