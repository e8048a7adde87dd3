// The Projects page without a connection: a service worker for /projects (scope "/projects", so the other pages
// — the Cryptogram, Waldabenteuer, the home page — and their API calls never pass through it; the ring bench at
// /projects/lab is in its scope, but its page is never kept and its requests are answered as the network does).
//
// - The page's shell (projects.html, its CSS and every ES module it imports, found by following the imports) is
//   kept when the worker installs, so /projects (any ?list=) opens after a reload without a connection.
// - Files and the Projects API's GET answers the page draws from (/api/me, /api/projects, a list's tasks, Today,
//   Upcoming) are network-first: online the page always gets the server's answer (a new deploy's files the first
//   time it is online); the last good answer is the fallback only when the network fails.
// - Answers are personal: they are kept for one account only. An /api/me answer naming another person than the
//   one the kept answers belong to drops them all before anything else is kept; the home page's sign-in and
//   sign-out drop them too (js/lib/offline-copies.js).
// - Writes, the live stream, search and the export are never kept.
// Changes made offline are not this worker's: js/projects/offline.js keeps and sends them.

/** Raise when the worker's own rules change: the caches of other versions are deleted when it activates. */
const VERSION = 1;
const SHELL = `projects-shell-v${VERSION}`;
/** Personal answers; js/lib/offline-copies.js deletes every cache named with this prefix. */
const DATA = `projects-data-v${VERSION}`;
const PAGE = "/projects";
/** The key under which DATA records whose answers it holds (an /api/me id; "" for a new guest). */
const OWNER = "/projects-sw/owner";

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("projects-") && name !== SHELL && name !== DATA) await caches.delete(name);
    }
    // The page that registered the worker is served by it from now on, so what it loads next is kept.
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // writes go to the server, or wait in the page's outbox
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // Only the Projects page itself; the ring bench (/projects/lab) goes to the network as before.
    if (url.pathname === PAGE) event.respondWith(networkFirst(request, SHELL, () => shellMatch(PAGE)));
    return;
  }
  if (url.pathname.startsWith("/api/") || url.pathname === "/health") {
    if (isKeptAnswer(url, request)) event.respondWith(answer(event, request, url));
    return;
  }
  event.respondWith(networkFirst(request, SHELL, () => shellMatch(request)));
});

// The page asks for answers it fetched before the worker served it (its first visit): fetched here, kept, then
// the page is told.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  const paths = Array.isArray(data.keep) ? data.keep : [];
  // The page's API headers, as plain strings (nothing else is sent on its behalf).
  const headers = {};
  for (const [name, value] of Object.entries(data.headers && typeof data.headers === "object" ? data.headers : {})) headers[name] = String(value);
  event.waitUntil((async () => {
    for (const path of paths) {
      const url = new URL(path, self.location.origin);
      if (url.origin !== self.location.origin || !isKeptAnswer(url, new Request(url))) continue;
      try {
        const response = await fetch(url, { headers, credentials: "same-origin" });
        if (response.ok) await inTurn(() => keep(url, response));
      } catch {
        // Offline already: what was kept before stays.
      }
    }
    if (event.ports[0]) event.ports[0].postMessage("kept");
  })());
});

// MARK: The shell

/** Fetches projects.html and everything it needs (stylesheets, icons, the module graph) into SHELL. */
async function keepShell() {
  const cache = await caches.open(SHELL);
  const seen = new Set();
  const load = async (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    const response = await fetch(new Request(path, { cache: "no-cache" }));
    // Without the page itself nothing opens offline: the worker does not install (and is tried again on the next
    // visit). A file it names that is missing is left out, as the page would miss it online too.
    if (!response.ok) {
      if (path === PAGE) throw new Error(`${path}: ${response.status}`);
      return;
    }
    await cache.put(path, response.clone());
    const base = new URL(path, self.location.origin);
    const text = /\.(js|css)$/.test(path) || path === PAGE ? await response.text() : "";
    await Promise.all(references(text, path).map((found) => {
      const next = new URL(found, base);
      return next.origin === self.location.origin ? load(next.pathname) : null;
    }));
  };
  await load(PAGE);
}

/** The files a page, stylesheet or module names: src/href of files, url(), static and dynamic imports. */
function references(text, path) {
  const found = [];
  const patterns = path === PAGE
    ? [/(?:src|href)="([^"?#]+\.(?:js|css|svg|png|ico|webp))"/g]
    : path.endsWith(".css")
      ? [/url\(\s*["']?([^"')?#]+)["']?\s*\)/g]
      : [/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm, /^\s*import\s*["']([^"']+)["']/gm, /\bimport\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) if (!match[1].startsWith("data:")) found.push(match[1]);
  return found;
}

function shellMatch(request) {
  return caches.open(SHELL).then((cache) => cache.match(request, { ignoreSearch: request === PAGE }));
}

/** The network's answer (kept in `cacheName` when good); the kept one when the network fails. */
async function networkFirst(request, cacheName, fallback) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request.mode === "navigate" ? PAGE : request, copy)).catch(() => {});
    }
    return response;
  } catch (error) {
    const kept = await fallback();
    if (kept) return kept;
    throw error;
  }
}

// MARK: Personal answers

/** The API answers the page draws from; never the live stream, a search, the export or anything else. */
function isKeptAnswer(url, request) {
  if ((request.headers.get("Accept") || "").includes("text/event-stream")) return false;
  const path = url.pathname;
  if (path === "/api/me" || path === "/api/projects") return true;
  if (path === "/api/tasks/today" || path === "/api/tasks/upcoming") return true;
  return /^\/api\/projects\/[^/]+\/tasks$/.test(path) && !url.searchParams.has("after");
}

/** The work on DATA, one step after the other (an /api/me answer may drop it). */
let queue = Promise.resolve();
function inTurn(work) {
  queue = queue.then(work).catch(() => {});
  return queue;
}

async function answer(event, request, url) {
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    const kept = await inTurn(() => keptAnswer(url));
    if (kept) return kept;
    throw error;
  }
  if (response.ok) {
    const copy = response.clone();
    event.waitUntil(inTurn(() => keep(url, copy)));
  }
  return response;
}

async function keep(url, response) {
  let cache = await caches.open(DATA);
  // Read each time: the home page may have deleted DATA meanwhile (a sign-in or sign-out there).
  const recorded = await cache.match(OWNER);
  const owner = recorded ? await recorded.text() : null;
  if (url.pathname === "/api/me") {
    const me = await response.clone().json();
    const id = String((me && me.id) || "");
    if (id !== owner) {
      // Another person signed in in this browser: nothing kept for the one before may be shown to them.
      await caches.delete(DATA);
      cache = await caches.open(DATA);
      await cache.put(OWNER, new Response(id));
    }
  } else if (owner === null) {
    return; // whose answer this is is not known yet: /api/me comes first
  }
  // A list's first page that is the whole list (no `next`) stands for the list; a partial one only for itself.
  let key = url.pathname + url.search;
  if (url.searchParams.has("limit")) {
    const list = await response.clone().json();
    if (list && !list.next) key = url.pathname;
  }
  await cache.put(key, response);
}

async function keptAnswer(url) {
  const cache = await caches.open(DATA);
  const exact = await cache.match(url.pathname + url.search);
  if (exact) return exact;
  // A list asked for with its first page offline: the whole list kept from before answers it.
  if (url.searchParams.has("limit")) return cache.match(url.pathname);
  return undefined;
}
