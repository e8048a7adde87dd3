// The project completion ring: a thin outer circle in the project's colour and, once anything is done,
// an inner ring with a pie slice that fills clockwise from 12 o'clock.
//
// One ring *model* per project id holds the animation state (what is on screen, where it is heading, since
// when). A model can be shown by several canvases at once (sidebar, selector, header, celebration), and a
// page that re-renders asks for the same element again, so a re-render or a reconnected live stream never
// restarts or jumps a ring. Timing and picture come from the server (`ring` in GET /api/projects): a duration,
// the eased curve sampled at evenly spaced times, and the geometry (the inner ring's and the pie's diameters
// as fractions of the size, the outer stroke). With reduced motion (calm mode or the system setting) values
// are set at once.
//
// One shared requestAnimationFrame loop drives every moving ring and stops when none moves. The frame loop
// allocates nothing: no arrays, objects, closures or strings, only numbers and canvas calls.
import { h } from "./lib/dom.js";
import { preference } from "./motion.js";

const TAU = Math.PI * 2;
/** 12 o'clock in canvas angles (0 is 3 o'clock, angles grow clockwise on screen). */
const TOP = -Math.PI / 2;
/** The server's curve. Until it arrives, rings are set without animating. */
const curve = { samples: new Float64Array(0), durationMs: 0 };
/**
 * The server's picture of the ring (ProjectRing.Geometry): fractions of the ring's size for the inner ring and
 * the pie slice, and the outer stroke. Until it arrives, nothing is drawn.
 */
const geometry = { known: false, innerRing: 0, pie: 0, outerStroke: 0 };

/** projectId → RingModel. */
const models = new Map();
/** The models that are moving now (indexed loops only, so the frame loop makes no iterators). */
const moving = [];
let frameId = 0;
let pixelRatio = window.devicePixelRatio || 1;

// MARK: Colours

/** Colour name → resolved CSS colour, read once from the `--project-<name>` custom properties. */
let colorCache = Object.create(null);

function resolveColor(name) {
  let color = colorCache[name];
  if (color === undefined) {
    const style = getComputedStyle(document.documentElement);
    color = style.getPropertyValue(`--project-${name}`).trim() || style.getPropertyValue("--project-gray").trim() || "#77726b";
    colorCache[name] = color;
  }
  return color;
}

// MARK: Models and views

class RingModel {
  constructor(id) {
    this.id = id;
    this.name = "";
    this.colorName = "gray";
    this.color = resolveColor("gray");
    this.percent = 0;
    /** The value drawn now, 0…1. */
    this.displayed = 0;
    /** Where the current animation started and where it heads. */
    this.origin = 0;
    this.target = 0;
    this.startedAt = 0;
    this.isMoving = false;
    /** False until the first ProjectView arrives: that one is shown at once, later ones animate. */
    this.known = false;
    /** slot → view, plus the same views as an array for the frame loop. */
    this.views = new Map();
    this.viewList = [];
  }
}

/**
 * A canvas showing a model. `decorative` views (the celebration's big ring) are hidden from assistive
 * technology; the others are progress bars.
 */
function createView(model, size, slot, decorative) {
  const canvas = h("canvas", { "aria-hidden": "true" });
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const host = h("span", {
    class: decorative ? "ring ring-decorative" : "ring",
    "data-project-id": model.id, "data-size": String(size), "data-slot": slot,
    "data-testid": decorative ? "celebration-ring" : "ring",
    // Decorative rings (the celebration's) are hidden from assistive technology; the others are progress bars.
    "aria-hidden": decorative ? "true" : null,
    role: decorative ? null : "progressbar", "aria-valuemin": decorative ? null : "0", "aria-valuemax": decorative ? null : "100",
  }, canvas);
  host.style.setProperty("--ring-size", `${size}px`);
  const view = {
    slot, size, decorative, host, canvas,
    ctx: canvas.getContext("2d"),
    ratio: 0,
  };
  sizeBackingStore(view);
  return view;
}

/** Sizes the canvas's pixels for the screen, so a 16 px ring is drawn with 32 pixels on a 2× display. */
function sizeBackingStore(view) {
  view.ratio = pixelRatio;
  const pixels = Math.max(1, Math.round(view.size * pixelRatio));
  view.canvas.width = pixels;
  view.canvas.height = pixels;
}

function describe(view, model) {
  if (view.decorative) return;
  view.host.setAttribute("aria-valuenow", String(model.percent));
  view.host.setAttribute("aria-label", `${model.name}: ${model.percent}% complete`);
}

/** Writes the displayed value and the target as attributes (not per frame: at rest only). */
function writeState(model) {
  const value = String(model.displayed);
  const target = String(model.target);
  for (let i = 0; i < model.viewList.length; i++) {
    const host = model.viewList[i].host;
    host.dataset.value = value;
    host.dataset.target = target;
  }
}

// MARK: Drawing (runs inside the frame loop: numbers and canvas calls only)

function paint(view, value, color) {
  const ctx = view.ctx;
  if (!ctx) return;
  const size = view.size;
  const center = size / 2;
  ctx.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
  ctx.clearRect(0, 0, size, size);
  if (!geometry.known) return;
  // The server's stroke at every listed size (10–20 px); the larger celebration ring thickens it in
  // proportion so it does not look like a hairline.
  const line = size > 24 ? Math.round((size / 24) * geometry.outerStroke) : geometry.outerStroke;
  ctx.lineWidth = line;
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  // Outer circle, inset by half the line so the whole stroke stays inside the box.
  ctx.beginPath();
  ctx.arc(center, center, center - line / 2, 0, TAU);
  ctx.stroke();
  const shown = value < 0 ? 0 : value > 1 ? 1 : value;
  if (shown > 0) {
    ctx.beginPath();
    ctx.arc(center, center, (size * geometry.innerRing) / 2, 0, TAU);
    ctx.stroke();
    ctx.beginPath();
    if (shown < 1) {
      ctx.moveTo(center, center);
      ctx.arc(center, center, (size * geometry.pie) / 2, TOP, TOP + TAU * shown, false);
      ctx.closePath();
    } else {
      ctx.arc(center, center, (size * geometry.pie) / 2, 0, TAU); // a whole disc, without the wedge's seam at 12
    }
    ctx.fill();
  }
}

function paintModel(model) {
  const views = model.viewList;
  for (let i = 0; i < views.length; i++) {
    const view = views[i];
    if (view.canvas.isConnected) paint(view, model.displayed, model.color);
  }
}

/** The curve's progress at `t` (0…1 of the duration), linear between the server's samples. */
function eased(t) {
  const samples = curve.samples;
  const last = samples.length - 1;
  if (last < 1 || t >= 1) return 1;
  if (t <= 0) return samples[0];
  const position = t * last;
  const index = Math.floor(position);
  const from = samples[index];
  return from + (samples[index + 1] - from) * (position - index);
}

/** Moves `model.displayed` to where it is at time `now`; ends the animation when the time is up. */
function advance(model, now) {
  const elapsed = now - model.startedAt;
  const t = elapsed <= 0 ? 0 : elapsed / curve.durationMs;
  if (t >= 1) {
    model.displayed = model.target;
    model.isMoving = false;
  } else {
    model.displayed = model.origin + (model.target - model.origin) * eased(t);
  }
}

function frame(now) {
  let kept = 0;
  for (let i = 0; i < moving.length; i++) {
    const model = moving[i];
    if (!model.isMoving) continue;
    advance(model, now);
    paintModel(model);
    if (model.isMoving) moving[kept++] = model;
    else writeState(model); // once, at the end of its animation
  }
  moving.length = kept;
  frameId = kept > 0 ? requestAnimationFrame(frame) : 0;
}

function startLoop(model) {
  if (moving.indexOf(model) < 0) moving.push(model);
  if (!frameId) frameId = requestAnimationFrame(frame);
}

// MARK: Setting values

function clamp01(value) {
  return Number.isFinite(value) ? Math.min(Math.max(value, 0), 1) : 0;
}

function canAnimate() {
  return curve.durationMs > 0 && curve.samples.length > 1 && preference() === "full";
}

/** Shows `model.target` at once and stops its animation. */
function settle(model) {
  model.displayed = model.target;
  model.origin = model.target;
  model.isMoving = false;
  paintModel(model);
  writeState(model);
}

/**
 * Heads for `value`. A ring already heading there keeps going untouched; otherwise the new animation
 * starts from the value on screen now (never from an old value) with a fresh clock.
 */
function setTarget(model, value) {
  const next = clamp01(value);
  if (next === model.target) return;
  const now = performance.now();
  if (model.isMoving) advance(model, now);
  model.target = next;
  if (!canAnimate()) {
    settle(model);
    return;
  }
  model.origin = model.displayed;
  model.startedAt = now;
  model.isMoving = true;
  for (let i = 0; i < model.viewList.length; i++) model.viewList[i].host.dataset.target = String(next);
  startLoop(model);
}

// MARK: Public API

/**
 * Takes the server's ring: `{duration (s), samples: [eased progress at evenly spaced times], geometry:
 * {innerRing, pie, outerStroke}}`. Rings already on the page are drawn again with the geometry.
 */
export function configureRingMotion(payload) {
  if (!payload || !Array.isArray(payload.samples)) return;
  curve.samples = Float64Array.from(payload.samples, Number);
  curve.durationMs = Math.max(0, Number(payload.duration) || 0) * 1000;
  const shape = payload.geometry;
  if (!shape) return;
  const changed = !geometry.known || geometry.innerRing !== shape.innerRing || geometry.pie !== shape.pie || geometry.outerStroke !== shape.outerStroke;
  geometry.innerRing = Number(shape.innerRing) || 0;
  geometry.pie = Number(shape.pie) || 0;
  geometry.outerStroke = Number(shape.outerStroke) || 0;
  geometry.known = true;
  if (changed) repaintAll();
}

/**
 * Brings the ring of `project` (a ProjectView) up to date: name, colour, percent and the value it heads
 * for (`project.fraction`). A project seen for the first time starts at its value without animating.
 */
export function syncRing(project) {
  let model = models.get(project.id);
  if (!model) {
    model = new RingModel(project.id);
    models.set(project.id, model);
  }
  const isNew = !model.known;
  model.known = true;
  const colorChanged = model.colorName !== project.color;
  model.name = project.name;
  model.colorName = project.color;
  model.color = resolveColor(project.color);
  model.percent = project.percent;
  for (let i = 0; i < model.viewList.length; i++) describe(model.viewList[i], model);
  if (isNew) {
    model.target = clamp01(project.fraction);
    settle(model);
  } else {
    setTarget(model, project.fraction);
    if (colorChanged && !model.isMoving) paintModel(model);
  }
  return model;
}

/**
 * The ring element of a project at `size` CSS pixels (10, 12, 16 or 20; larger for decoration). The same
 * element comes back for the same project and slot, so re-rendered rows re-attach it instead of starting
 * over. `slot` tells apart two rings of one size shown at once (defaults to the size).
 */
export function ringElement(projectId, size, { slot = String(size), decorative = false } = {}) {
  let model = models.get(projectId);
  if (!model) {
    model = new RingModel(projectId);
    models.set(projectId, model);
  }
  let view = model.views.get(slot);
  if (!view || view.size !== size) {
    if (view) model.viewList.splice(model.viewList.indexOf(view), 1);
    view = createView(model, size, slot, decorative);
    model.views.set(slot, view);
    model.viewList.push(view);
    describe(view, model);
    view.host.dataset.value = String(model.displayed);
    view.host.dataset.target = String(model.target);
  }
  if (view.ratio !== pixelRatio) sizeBackingStore(view);
  paint(view, model.displayed, model.color);
  return view.host;
}

/** Forgets a deleted project's ring. */
export function forgetRing(projectId) {
  const model = models.get(projectId);
  if (!model) return;
  model.isMoving = false;
  models.delete(projectId);
}

/** The value a project's ring shows now (0…1), or null for an unknown project. */
export function ringValue(projectId) {
  const model = models.get(projectId);
  return model ? model.displayed : null;
}

/** The value a project's ring is heading for. */
export function ringTarget(projectId) {
  const model = models.get(projectId);
  return model ? model.target : null;
}

/** Whether a project's ring is animating now. */
export function ringIsMoving(projectId) {
  const model = models.get(projectId);
  return Boolean(model && model.isMoving);
}

function repaintAll() {
  for (const model of models.values()) {
    model.color = resolveColor(model.colorName);
    for (const view of model.viewList) {
      if (view.ratio !== pixelRatio) sizeBackingStore(view);
    }
    paintModel(model);
  }
}

// Calm mode switched on mid-animation: every ring goes straight to its value.
window.addEventListener("motionpreferencechange", () => {
  if (preference() === "full") return;
  for (const model of models.values()) if (model.isMoving) settle(model);
});

// Dark mode changes the colours; zooming or moving to another screen changes the pixel ratio.
const darkQuery = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
if (darkQuery && darkQuery.addEventListener) {
  darkQuery.addEventListener("change", () => {
    colorCache = Object.create(null);
    repaintAll();
  });
}
window.addEventListener("resize", () => {
  const ratio = window.devicePixelRatio || 1;
  if (ratio === pixelRatio) return;
  pixelRatio = ratio;
  repaintAll();
});

// For tests: the displayed value and the target of a project's ring (all sizes share one model).
window.__rings = {
  value: (projectId) => ringValue(projectId),
  target: (projectId) => ringTarget(projectId),
  moving: (projectId) => ringIsMoving(projectId),
};
