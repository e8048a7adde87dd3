// The CompletionKit motion runtime: plays timelines computed by the server's Swift core with the
// Web Animations API. It never invents a timing: delays, durations and easings all come from the payload.
import { api } from "./lib/api.js";

const CALM_KEY = "completionkit.calm";
const reducedQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/** Whether the person switched calm mode on in this app. */
export function calmMode() {
  return localStorage.getItem(CALM_KEY) === "1";
}

/** Turns calm mode on or off and tells listeners. */
export function setCalmMode(on) {
  localStorage.setItem(CALM_KEY, on ? "1" : "0");
  window.dispatchEvent(new CustomEvent("motionpreferencechange", { detail: preference() }));
}

/** "full", or "reduced" when the system asks for reduced motion or calm mode is on. */
export function preference() {
  if (calmMode() || (reducedQuery && reducedQuery.matches)) return "reduced";
  return "full";
}

if (reducedQuery && reducedQuery.addEventListener) {
  reducedQuery.addEventListener("change", () =>
    window.dispatchEvent(new CustomEvent("motionpreferencechange", { detail: preference() })));
}

/**
 * Wires a checkbox to calm mode. The switch says what the page does: when the system asks for reduced motion
 * the page is already calm, so the switch reads "on" and cannot be turned off here (the system's setting wins);
 * its help text (aria-describedby) says why.
 */
export function bindCalmSwitch(input) {
  if (!input) return;
  const help = document.getElementById(input.getAttribute("aria-describedby") || "");
  const ownHelp = help ? help.textContent : "";
  const show = () => {
    const system = Boolean(reducedQuery && reducedQuery.matches);
    input.checked = system || calmMode();
    input.disabled = system;
    input.closest("label")?.classList.toggle("is-system", system);
    if (help) help.textContent = system ? "On because your device asks for reduced motion." : ownHelp;
  };
  show();
  input.addEventListener("change", () => setCalmMode(input.checked));
  reducedQuery?.addEventListener?.("change", show);
}

function getJSON(path) {
  return api(path, { fallback: (status) => `Request failed (${status})` });
}

/** Fetches a named choreography for the current preference. */
export function fetchChoreography(name, pref = preference()) {
  return getJSON(`/api/motion/choreographies/${encodeURIComponent(name)}?preference=${pref}`);
}

/** Fetches a stagger timeline: {config, count, origin, direction, previous}. */
export function fetchStagger({ config = "standard", count, origin = "first", direction = "enter", previous = 0 }, pref = preference()) {
  const query = new URLSearchParams({ config, count: String(count), origin, direction, previous: String(previous), preference: pref });
  return getJSON(`/api/motion/stagger?${query}`);
}

/** Fetches wave keyframes for `count` items. */
export function fetchWave(count, pref = preference()) {
  return getJSON(`/api/motion/wave?count=${count}&preference=${pref}`);
}

function frame(appearance) {
  const { opacity, offsetX, offsetY, scale } = appearance;
  return { opacity, transform: `translate(${offsetX}px, ${offsetY}px) scale(${scale})` };
}

/** The animation each element last got from `animate`, so a new one replaces it. Kept here rather than
 *  asked of the element (`getAnimations()` recalculates the document's style: at the start of a sequence,
 *  right after the page changed, that was a long task). */
const lastAnimation = new WeakMap();

function animate(element, from, to, { delay, duration, easing }) {
  lastAnimation.get(element)?.cancel();
  const animation = element.animate([frame(from), frame(to)], {
    delay: delay * 1000,
    duration: Math.max(duration * 1000, 0),
    easing: duration > 0 ? easing : "linear",
    fill: "both",
  });
  lastAnimation.set(element, animation);
  return animation;
}

/**
 * Plays a choreography payload. `elements` maps a step id to an element or a list of elements.
 * `startTime` (the document timeline's, in ms) starts its clock earlier than now, at a moment another
 * animation already started — so steps keep their times from that moment. Resolves when every step has finished.
 */
export function playChoreography(payload, elements, { startTime = null } = {}) {
  const animations = [];
  for (const step of payload.steps) {
    const targets = [].concat(elements[step.id] || []);
    for (const element of targets) {
      const animation = animate(element, step.from, step.to, { delay: step.delay, duration: step.duration, easing: step.curve.css });
      animation.id = `step:${step.id}`;
      if (startTime != null) animation.startTime = startTime;
      animations.push(animation);
    }
  }
  const finished = Promise.all(animations.map((a) => a.finished.catch(() => null)));
  // The animations themselves, so a caller can cancel them or wait for one step without asking the
  // document for its animations (a style recalculation at the worst moment).
  finished.animations = animations;
  return finished;
}

/**
 * Plays a stagger payload over `elements` (index i ↔ payload.items[i]). Items the server marks as
 * already shown (delay null) are left as they are. Resolves when the last item has finished.
 */
export function playStagger(payload, elements) {
  const animations = [];
  payload.items.forEach((item, index) => {
    const element = elements[index];
    if (!element) return;
    element.dataset.staggerDelay = item.delay == null ? "" : String(item.delay);
    if (item.delay == null) return;
    const animation = animate(element, payload.from, payload.to, { delay: item.delay, duration: payload.duration, easing: payload.curve.css });
    animation.id = `stagger:${index}`;
    animations.push(animation);
  });
  return Promise.all(animations.map((a) => a.finished.catch(() => null)));
}

/** Starts a looping wave over `elements`; returns a handle whose stop() ends it. */
export function playWave(payload, elements) {
  const animations = [];
  if (payload.active) {
    payload.items.forEach((item, index) => {
      const element = elements[index];
      if (!element) return;
      const keyframes = item.keyframes.map((y) => ({ transform: `translateY(${y}px)` }));
      const animation = element.animate(keyframes, { duration: payload.period * 1000, iterations: Infinity, easing: "linear" });
      animation.id = `wave:${index}`;
      animations.push(animation);
    });
  }
  return { stop: () => animations.forEach((a) => a.cancel()), animations };
}

/** How many wiggling cells one frame sets up (presentation only: a frame's share of the work). */
const WIGGLE_BATCH = 16;

/**
 * Plays a wiggle payload (the solved-puzzle shake): `elements[i]` moves `payload.cells[i].offset × shape[k]` px
 * sideways, the server's shape sampled every `payload.sampleInterval` seconds from the cell's own delay.
 * Entries without an element are skipped; an inactive payload (calm mode) moves nothing. Resolves when every
 * cell is back at rest.
 */
export function playWiggle(payload, elements) {
  const animations = [];
  const shape = (payload && payload.shape) || [];
  if (!(payload && payload.active && shape.length >= 2)) {
    const none = Promise.resolve([]);
    none.animations = animations;
    return none;
  }
  const duration = (shape.length - 1) * payload.sampleInterval * 1000;
  const start = (cell, index) => {
    const keyframes = new Array(shape.length);
    for (let k = 0; k < shape.length; k++) keyframes[k] = { transform: `translateX(${(cell.offset * shape[k]).toFixed(2)}px)` };
    const animation = elements[index].animate(keyframes, { delay: cell.delay * 1000, duration, easing: "linear" });
    animation.id = `wiggle:${index}`;
    animations.push(animation);
    return animation;
  };
  // Cells are set up a few at a time, a frame apart, in the order they start (the stagger's delays), each on
  // the first one's clock: timing stays exact (a cell set up a frame late starts where it would have been),
  // while no single frame sets up a hundred animations.
  const order = payload.cells.map((cell, index) => [cell, index]).filter(([, index]) => elements[index]);
  order.sort((a, b) => a[0].delay - b[0].delay || a[1] - b[1]);
  const batches = [];
  for (let at = 0; at < order.length; at += WIGGLE_BATCH) batches.push(order.slice(at, at + WIGGLE_BATCH));
  const [first = [], ...later] = batches;
  const leader = first.map(([cell, index]) => start(cell, index))[0];
  const all = !leader ? Promise.resolve() : leader.ready.then(() => new Promise((resolve) => {
    const next = () => {
      const group = later.shift();
      if (!group) return resolve();
      for (const [cell, index] of group) start(cell, index).startTime = leader.startTime;
      requestAnimationFrame(next);
    };
    requestAnimationFrame(next);
  }), () => null);
  const finished = all.then(() => Promise.all(animations.map((a) => a.finished.catch(() => null))));
  finished.animations = animations;
  return finished;
}
