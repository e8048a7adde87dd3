// What the Projects page keeps for use without a connection (its service worker, Public/projects-sw.js) is one
// person's: a sign-in, sign-out or new account on this browser drops it, so the next person never sees the
// lists of the one before, even offline.

/** The prefix of the caches holding personal answers (kept in step with projects-sw.js's DATA). */
const PERSONAL = "projects-data-";

/** Deletes every cache of personal answers; resolves when done (quietly where the browser keeps none). */
export async function forgetOfflineCopies() {
  try {
    if (!window.caches) return;
    for (const name of await caches.keys()) if (name.startsWith(PERSONAL)) await caches.delete(name);
  } catch {
    // Storage blocked: nothing was kept either.
  }
}
