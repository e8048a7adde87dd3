// The /api page: a readable rendering of the server's OpenAPI 3.1 document, for people.
// Everything is built with DOM calls (never innerHTML from the document), and an operation's details are only
// built when it is opened, so a document with a hundred and more operations still paints at once.
// This entry loads the document and starts the page; the parts live in js/api-docs/.
import { DEFAULT_SOURCE, isObject, state } from "./api-docs/common.js";
import { applyFilter, bindInteractions, narrowQuery, revealHash, setTocOpen } from "./api-docs/navigation.js";
import { collect, renderAuth, renderIntro, renderOperations } from "./api-docs/render.js";
import { boot } from "./app.js";
import { $, h } from "./lib/dom.js";
import { preference } from "./motion.js";

// MARK: Loading

function chooseSource() {
  const src = new URLSearchParams(location.search).get("src");
  if (!src) return { url: DEFAULT_SOURCE };
  try {
    const url = new URL(src, location.href);
    if (url.origin === location.origin && (url.protocol === "http:" || url.protocol === "https:")) {
      return { url: url.pathname + url.search };
    }
  } catch {
    // fall through
  }
  return { url: DEFAULT_SOURCE, note: "Only documents from this site can be shown here, so this is the site's own API description." };
}

function showError(title, text, detail = "") {
  $("#ad-status").replaceChildren();
  $("#ad-error-title").textContent = title;
  $("#ad-error-text").textContent = text;
  $("#ad-error-detail").textContent = detail;
  $("#ad-error").hidden = false;
  $("#ad-toc").hidden = true;
  $("#ad-content").hidden = true;
  $("#main").removeAttribute("aria-busy");
}

async function fetchDocument(url) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20000);
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-cache", signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    const err = new Error(error && error.name === "AbortError"
      ? "The server took too long to answer."
      : "We could not reach the server. Check your connection and try again.");
    err.kind = "network";
    throw err;
  }
  try {
    if (!response.ok) {
      const err = new Error(response.status === 404
        ? "The API description has not been published here yet."
        : response.status === 503 || response.status === 502 || response.status === 504
          ? "The server is busy or starting up."
          : response.status >= 500
            ? "The server had a problem sending the API description."
            : `The server did not hand out the API description (status ${response.status}).`);
      err.kind = "status";
      err.detail = `${url} — HTTP ${response.status}`;
      throw err;
    }
    const text = await response.text();
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      const err = new Error("The document arrived, but it is not valid JSON — it may still be being written.");
      err.detail = `${url} — ${error.message}`;
      throw err;
    }
    if (!isObject(doc) || !(doc.openapi || doc.swagger) || !(isObject(doc.paths) || isObject(doc.webhooks))) {
      const err = new Error("The document arrived, but it does not look like an OpenAPI description (it has no “openapi” version or no paths).");
      err.detail = url;
      throw err;
    }
    return doc;
  } finally {
    clearTimeout(timer);
  }
}

async function load() {
  const source = chooseSource();
  state.source = source.url;
  for (const el of [$("#ad-download"), $("#ad-footer-link"), $("#ad-error-link")]) el.href = source.url;
  $("#ad-footer-link").textContent = source.url.split("?")[0];
  $("#ad-error").hidden = true;
  $("#main").setAttribute("aria-busy", "true");
  $("#ad-status").replaceChildren(h("p", { class: "ad-loading muted" }, "Loading the API description…"));
  let doc;
  try {
    doc = await fetchDocument(source.url);
  } catch (error) {
    showError("We could not load the API description", `${error.message} You can try again in a moment, or open the raw document.`, error.detail || "");
    return;
  }
  state.doc = doc;
  state.byId.clear();
  state.usedIds.clear();
  try {
    renderIntro(doc);
    renderAuth(doc);
    collect(doc);
    $("#ad-status").replaceChildren(source.note ? h("p", { class: "ad-note" }, source.note) : "");
    $("#ad-toc").hidden = false;
    $("#ad-content").hidden = false;
    setTocOpen(!narrowQuery.matches);
    await renderOperations();
  } catch (error) {
    console.error(error);
    showError("We could not show the API description", "The document loaded, but part of it could not be read. The raw document is still available.", error.message);
    return;
  }
  $("#main").removeAttribute("aria-busy");
  applyFilter($("#ad-filter-input").value);
  if (!state.ops.length) $("#ad-groups").replaceChildren(h("p", { class: "card" }, "This document lists no operations yet."));
  revealHash({ focus: true });
}

boot();
// Calm mode (or the system's reduced motion) stills the page's few transitions too.
const applyCalm = () => document.documentElement.classList.toggle("ad-calm", preference() === "reduced");
applyCalm();
window.addEventListener("motionpreferencechange", applyCalm);
bindInteractions();
$("#ad-retry").addEventListener("click", () => load());
load();
