// Challenges: which section shows (one at a time on a phone, two columns wider), and keeping focus in sight.
import { $ } from "../lib/dom.js";
import { loadPeopleSection } from "./people.js";
import { state } from "./state.js";

/** Two columns from here on (keep in step with challenges.css). */
export const WIDE = window.matchMedia("(min-width: 960px)");

// MARK: Sections

export function paneVisible(name) {
  if (WIDE.matches) return name === "challenges" || state.side === name;
  return state.view === name;
}

/** Shows a section: one at a time on a phone; Feed or People beside the challenges on a wider screen. */
export function setView(view, { focus = false } = {}) {
  if (!["challenges", "feed", "people"].includes(view)) view = "challenges";
  state.view = view;
  if (view !== "challenges") state.side = view;
  const app = $("#main");
  app.dataset.view = view;
  app.dataset.side = state.side;
  for (const tab of document.querySelectorAll("[data-tab]")) {
    if (tab.dataset.tab === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  if (paneVisible("feed")) $("#feed-dot").hidden = true;
  if (paneVisible("people") && !state.people.loaded) loadPeopleSection();
  if (focus) {
    const target = typeof focus === "string" ? $(focus) : $(`#${view === "challenges" ? "challenges" : view}-title`);
    if (!WIDE.matches) window.scrollTo({ top: 0 });
    target?.focus({ preventScroll: !WIDE.matches });
  }
}

export function viewFromHash() {
  const name = location.hash.replace("#", "");
  return ["challenges", "feed", "people"].includes(name) ? name : "challenges";
}

// MARK: Dialog comfort

/**
 * Keeps what has the keyboard in sight. In a dialog: a field above a phone's keyboard (the visual viewport
 * shrinks; the layout does not). On the page: clear of the sticky top bar and the phone's tab bar at the bottom.
 * Tab already stops short of them (the root's scroll padding is their height, and --topbar-h is measured here
 * as the top bar wraps); this also covers focus moved by a script, and a keyboard that comes up afterwards.
 */
export function keepFocusVisible() {
  const viewport = window.visualViewport;
  const root = document.documentElement;
  const topbar = $(".topbar");
  const tabs = $(".ch-tabs");
  const measure = () => {
    if (viewport) root.style.setProperty("--ch-vvh", `${viewport.height}px`);
    root.style.setProperty("--topbar-h", `${Math.ceil(topbar.getBoundingClientRect().height)}px`);
  };
  /** The band of the window nothing covers. */
  const clearBand = () => {
    let top = viewport ? viewport.offsetTop : 0;
    let bottom = viewport ? viewport.offsetTop + viewport.height : window.innerHeight;
    top = Math.max(top, topbar.getBoundingClientRect().bottom);
    if (getComputedStyle(tabs).position === "fixed") bottom = Math.min(bottom, tabs.getBoundingClientRect().top);
    return { top, bottom };
  };
  const reveal = () => {
    const element = document.activeElement;
    if (!element || element === document.body || !element.isConnected) return;
    if (element.closest("dialog[open]")) {
      if (element.matches("input, textarea")) element.scrollIntoView({ block: "nearest" });
      return;
    }
    if (element.closest(".topbar, .ch-tabs")) return;
    const box = element.getBoundingClientRect();
    const band = clearBand();
    const hidden = box.top < band.top || box.bottom > band.bottom;
    // A whole card taller than the band is left where it is: scrolling to one of its edges would only jump.
    if (hidden && box.height > 0 && box.height <= band.bottom - band.top) element.scrollIntoView({ block: "nearest" });
  };
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);
  const resized = () => {
    measure();
    reveal();
  };
  (viewport || window).addEventListener("resize", resized);
  if (viewport) window.addEventListener("resize", resized);
  document.addEventListener("focusin", () => requestAnimationFrame(reveal));
}
