// Shared page shell: who is signed in, the calm-mode switch, and small helpers every page uses.
// The API call and the clock format live in js/lib/; they are passed on here for the pages that import them from here.
import { afterWrite, api, apiHeaders, onSessionEnded } from "./lib/api.js";
import { h } from "./lib/dom.js";
import { formatClock } from "./lib/format.js";
import { bindCalmSwitch } from "./motion.js";

export { api, apiHeaders, formatClock };

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
afterWrite(noteFirstWrite);

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

/**
 * The session ended elsewhere (signed out on another device, or idle too long) and a change was refused: say
 * so once at the top of the page, with the two ways on, and show who this page now is (a visitor).
 */
function showSessionEnded(message) {
  currentUser(true);
  renderWho();
  if (document.querySelector("#session-ended")) return;
  document.body.prepend(h("div", { id: "session-ended", class: "session-ended", role: "alert", "data-testid": "session-ended" },
    h("p", { text: message || "You were signed out, so nothing was saved." }),
    h("a", { class: "button primary", href: "/#account" }, "Sign in again"),
    h("button", { type: "button", class: "button quiet", onclick: () => location.reload() }, "Reload as a guest")));
}

onSessionEnded(showSessionEnded);

/** Sets up the shell on every page. */
export function boot() {
  bindCalmSwitch(document.querySelector("#calm"));
  renderWho();
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
