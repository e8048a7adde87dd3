// The one way pages call the server's JSON API: the headers its cross-site rule needs, JSON or raw bodies,
// idempotency keys for writes that must not count twice, and errors carrying the server's message and `code`.

const UNREACHABLE = "We could not reach the server. Check your connection and try again.";
const writeListeners = [];

const sessionEndedListeners = [];

/** Calls `listener` when the server says the session ended (a change refused with `401 session_ended`). */
export function onSessionEnded(listener) {
  sessionEndedListeners.push(listener);
}

/** Tells the page the session ended (for the few requests that do not go through `api()`). */
export function sessionEnded(message) {
  for (const listener of sessionEndedListeners) listener(message);
}

/** Calls `listener` after every write the server accepted (the page shell uses it to notice a new guest). */
export function afterWrite(listener) {
  writeListeners.push(listener);
}

/** The words for a status the server answered without a message of its own. */
export function statusMessage(status) {
  return `Something went wrong (${status}).`;
}

/**
 * Calls the API and answers its JSON (null for 204). `body` is sent as JSON, or as it is with `contentType`
 * (a photo, a plain list); `idempotencyKey` makes a retried write answer from the server's record. A refusal
 * throws an Error whose message is the server's, with `code` (the stable error code) and `status`; a network
 * failure throws one with `network` set. `fallback(status)` words an error that came without a message.
 */
export async function api(path, { method = "GET", body, contentType, headers = {}, idempotencyKey, fallback = statusMessage } = {}) {
  const options = { method, credentials: "same-origin", headers: apiHeaders(headers) };
  if (idempotencyKey) options.headers["Idempotency-Key"] = idempotencyKey;
  if (body !== undefined) {
    options.headers["Content-Type"] = contentType || "application/json";
    options.body = contentType ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    const error = new Error(UNREACHABLE);
    error.network = true;
    throw error;
  }
  if (method !== "GET" && response.ok) for (const listener of writeListeners) listener();
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && data && data.code === "session_ended") sessionEnded(data.message);
    const error = new Error((data && data.message) || fallback(response.status));
    error.code = data && data.code;
    error.status = response.status;
    error.data = data; // a refusal may carry more (a task change's conflict carries the task as it is now)
    throw error;
  }
  return data;
}

/**
 * The headers every call to the API carries, with `extra` (for the few calls made with `fetch` itself: a
 * `keepalive` request, an upload read as it arrives). X-CompletionKit marks the request as the site's own (the
 * server refuses changes without it or JSON); the Time-Zone header is how the API is told the person's day,
 * the one spelling it documents (the query and body spellings older clients used are never sent from here).
 */
export function apiHeaders(extra = {}) {
  return { Accept: "application/json", "X-CompletionKit": "1", "Time-Zone": timeZone(), ...extra };
}

/** The person's IANA time zone ("Europe/Berlin"), or UTC when the browser does not say. */
function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** A v4 UUID for an Idempotency-Key; `crypto.randomUUID` exists only on https and localhost. */
export function newIdempotencyKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
