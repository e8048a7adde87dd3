// The /api page: the filter, the table of contents, and deep links (#fragments) to operations and sections.
import { $ } from "../lib/dom.js";
import { debounce, FILTER_DELAY, state } from "./common.js";
import { ensureBody } from "./operations.js";

// MARK: Filter

export function applyFilter(raw) {
  const value = raw.trim().toLowerCase();
  const terms = value.split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const group of state.groups) {
    let count = 0;
    for (const op of group.ops) {
      const match = terms.every((term) => op.search.includes(term));
      if (op.el.hidden === match) {
        op.el.hidden = !match;
        op.tocItem.hidden = !match;
      }
      if (match) count++;
    }
    group.el.hidden = count === 0;
    group.tocItem.hidden = count === 0;
    group.tocCount.textContent = terms.length ? `${count}/${group.ops.length}` : String(group.ops.length);
    shown += count;
  }
  const total = state.ops.length;
  $("#ad-filter-count").textContent = terms.length
    ? `${shown} of ${total} ${total === 1 ? "operation matches" : "operations match"}.`
    : `${total} ${total === 1 ? "operation" : "operations"}.`;
  $("#ad-empty").hidden = shown > 0 || !terms.length;
  $("#ad-empty-term").textContent = raw.trim();
}

// MARK: Table of contents and deep links

export const narrowQuery = window.matchMedia("(max-width: 899px)");

export function setTocOpen(open) {
  $("#ad-toc").classList.toggle("is-collapsed", !open);
  $("#ad-toc-toggle").setAttribute("aria-expanded", String(open));
  $("#ad-toc-toggle-text").textContent = open ? "Hide list" : "Show list";
}

function markCurrent(id) {
  for (const current of document.querySelectorAll('.ad-toc [aria-current="location"]')) current.removeAttribute("aria-current");
  const op = state.byId.get(id);
  if (!op) return;
  op.tocLink.setAttribute("aria-current", "location");
  // Keep the current entry in view inside the contents' own scroll area (without moving the page).
  const body = $("#ad-toc-body");
  if (body.scrollHeight > body.clientHeight) {
    const linkBox = op.tocLink.getBoundingClientRect();
    const bodyBox = body.getBoundingClientRect();
    if (linkBox.top < bodyBox.top || linkBox.bottom > bodyBox.bottom) body.scrollTop += linkBox.top - bodyBox.top - bodyBox.height / 3;
  }
}

function targetFromHash() {
  if (!location.hash || location.hash.length < 2) return null;
  let id = location.hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // keep it as it is
  }
  return id;
}

/** Opens the operation (or section) named by the address's #fragment and scrolls to it. */
export function revealHash({ focus = true } = {}) {
  const id = targetFromHash();
  if (!id) return;
  const el = document.getElementById(id);
  if (!el) return;
  const op = state.byId.get(id);
  if (el.closest("[hidden]") || el.hidden) {
    $("#ad-filter-input").value = "";
    filter.flush("");
  }
  if (op) {
    ensureBody(op);
    op.el.open = true;
    markCurrent(id);
  }
  // Tags off screen are not laid out (content-visibility); lay them all out once so the jump lands exactly,
  // and let them rest again when their sizes are remembered.
  const groups = $("#ad-groups");
  groups.classList.add("is-measuring");
  el.scrollIntoView({ block: "start" });
  requestAnimationFrame(() => requestAnimationFrame(() => {
    groups.classList.remove("is-measuring");
  }));
  if (focus) {
    const target = op ? op.el.querySelector("summary") : el.matches("a, button, summary, [tabindex]") ? el : null;
    if (target) target.focus({ preventScroll: true });
    else {
      el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    }
  }
}

const filter = debounce(applyFilter, FILTER_DELAY);

export function bindInteractions() {
  $("#ad-filter-input").addEventListener("input", (event) => filter(event.target.value));
  $("#ad-filter-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      filter.flush(event.target.value);
    }
  });
  // Details are built when an operation opens (toggle does not bubble, so listen while it is captured).
  $("#ad-groups").addEventListener("toggle", (event) => {
    const op = state.byId.get(event.target.id);
    if (op && op.el === event.target && event.target.open) ensureBody(op);
  }, true);
  $("#ad-toc-toggle").addEventListener("click", () => setTocOpen($("#ad-toc").classList.contains("is-collapsed")));
  // A link to the address we are already at does not fire hashchange: open the target anyway.
  document.addEventListener("click", (event) => {
    const anchor = event.target.closest && event.target.closest('a[href^="#"]');
    if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (anchor.closest(".ad-toc") && narrowQuery.matches) setTocOpen(false);
    if (anchor.hash === location.hash) {
      event.preventDefault();
      revealHash();
    }
  });
  window.addEventListener("hashchange", () => revealHash());
}
