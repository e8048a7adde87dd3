// A page's live stream (Server-Sent Events) that stays open: EventSource retries a dropped network by itself;
// a stream the server closed for good is opened again after a growing pause. The page is told the state to show.
import { sessionEnded } from "./api.js";

/**
 * Whether the server refuses the stream to this visitor (401 or 403), which EventSource does not say: asked once
 * with a request that is dropped as soon as its answer's status arrives.
 */
async function refusedToVisitor(url) {
  const controller = new AbortController();
  try {
    const response = await fetch(url, { signal: controller.signal, headers: { Accept: "text/event-stream" }, cache: "no-store" });
    return response.status === 401 || response.status === 403;
  } catch {
    return false;
  } finally {
    controller.abort();
  }
}

/** Seconds before a closed stream is opened again, doubling up to the last. */
const REOPEN_DELAYS = [2, 4, 8, 16, 30];

/**
 * Opens `url` and keeps it open. `events`: event name → handler of the parsed JSON data (a message that is not
 * JSON is skipped). `onOpen` runs at every (re)connection, so the page can catch up on what it missed.
 * `onState("live" | "reconnecting" | "off")` says what to show: "off" when the server refuses the stream to this
 * visitor (401 or 403: signed out), which no retry would change, or when the server ends the stream with
 * `session_ended` (then the page's session-ended listeners hear its words too). Answers `{ close() }`; null where
 * there is no EventSource.
 */
export function keepLive(url, { events = {}, onOpen = () => {}, onState = () => {} } = {}) {
  if (!window.EventSource) return null;
  let current = null;
  let attempt = 0;
  let closed = false;
  const open = () => {
    const source = new EventSource(url);
    current = source;
    for (const [name, handler] of Object.entries(events)) {
      source.addEventListener(name, (event) => {
        attempt = 0;
        onState("live");
        let data;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        handler(data);
      });
    }
    // The sign-in this stream was opened with ended (signed out or revoked on another device, expired): the server
    // says so and ends the stream. The page says it once (the banner of js/app.js) and stops: a reconnect would
    // be refused, and nothing more of the person's is sent here.
    source.addEventListener("session_ended", (event) => {
      if (current !== source || closed) return;
      closed = true;
      source.close();
      let data = null;
      try {
        data = JSON.parse(event.data);
      } catch {
        // The banner has words of its own.
      }
      sessionEnded(data && data.message);
      onState("off");
    });
    // A reconnect with nothing new may get no message, so an open connection is what ends "Reconnecting…".
    source.addEventListener("open", () => {
      attempt = 0;
      onState("live");
      onOpen();
    });
    source.addEventListener("error", () => {
      if (current !== source || closed) return;
      onState("reconnecting");
      // EventSource reconnects by itself (CONNECTING); CLOSED means the server refused the stream.
      if (source.readyState !== EventSource.CLOSED) return;
      refusedToVisitor(url).then((refused) => {
        if (current !== source || closed) return;
        // Signed out: no stream to wait for, so nothing says "Reconnecting…" forever.
        if (refused) return onState("off");
        const delay = REOPEN_DELAYS[Math.min(attempt, REOPEN_DELAYS.length - 1)];
        attempt += 1;
        setTimeout(() => {
          if (current === source && !closed) open();
        }, delay * 1000);
      });
    });
  };
  open();
  return {
    close() {
      closed = true;
      current?.close();
    },
  };
}
