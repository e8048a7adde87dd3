// Wähle die Zahl, trace mode: the number glows thick and gold in a square box, the child draws over it
// with a finger. Each finished stroke goes to the server in the box's own 0…1 coordinates (y down); the
// server judges it and answers with traceProgress, clearTrace or the level's success.

const SVG = "http://www.w3.org/2000/svg";
const SCALE = 100;
/** Points closer than this (box units) add nothing to a stroke. */
const MIN_STEP = 0.004;

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.append(element);
  return element;
}

function pointsAttribute(points) {
  return points.map(([x, y]) => `${(x * SCALE).toFixed(2)},${(y * SCALE).toFixed(2)}`).join(" ");
}

export class TraceBox {
  /** `onStroke(points)` is called with each finished stroke; a stroke keeps at most `maxPoints` (the server's limit). */
  constructor({ onStroke, label, maxPoints }) {
    this.onStroke = onStroke;
    this.maxPoints = maxPoints;
    this.element = document.createElement("div");
    this.element.className = "trace-box";
    this.element.dataset.testid = "trace-box";
    this.element.setAttribute("role", "img");
    if (label) this.element.setAttribute("aria-label", label);
    const svg = node("svg", { viewBox: `0 0 ${SCALE} ${SCALE}`, class: "trace-svg" });
    const defs = node("defs", {}, svg);
    const glow = node("filter", { id: "trace-glow", x: "-20%", y: "-20%", width: "140%", height: "140%" }, defs);
    node("feGaussianBlur", { stdDeviation: "2.2", result: "blur" }, glow);
    const merge = node("feMerge", {}, glow);
    node("feMergeNode", { in: "blur" }, merge);
    node("feMergeNode", { in: "SourceGraphic" }, merge);
    this.guideShadow = node("g", { class: "trace-guide-track" }, svg);
    this.guide = node("g", { class: "trace-guide", filter: "url(#trace-glow)" }, svg);
    this.start = node("g", { class: "trace-start" }, svg);
    this.traced = node("g", { class: "trace-done" }, svg);
    this.live = node("polyline", { class: "trace-live", points: "" }, svg);
    this.svg = svg;
    this.element.append(svg);
    this.strokesKey = "";
    this.current = null;
    this.bind();
  }

  /** Draws the number's strokes and what has been traced of it so far. */
  update(level) {
    const key = JSON.stringify(level.strokes || []);
    if (key !== this.strokesKey) {
      this.strokesKey = key;
      this.guide.textContent = "";
      this.guideShadow.textContent = "";
      this.start.textContent = "";
      for (const stroke of level.strokes || []) {
        node("polyline", { points: pointsAttribute(stroke) }, this.guideShadow);
        node("polyline", { points: pointsAttribute(stroke) }, this.guide);
        // A soft dot where each stroke begins.
        if (stroke.length) node("circle", { cx: stroke[0][0] * SCALE, cy: stroke[0][1] * SCALE, r: 3.2 }, this.start);
      }
    }
    this.showTraced(level.traced || []);
    this.element.dataset.number = String(level.askedNumber ?? "");
  }

  showTraced(strokes) {
    this.traced.textContent = "";
    for (const stroke of strokes) node("polyline", { points: pointsAttribute(stroke) }, this.traced);
    this.element.dataset.traced = String(strokes.length);
  }

  /** Wipes the child's strokes (clearTrace). */
  clear() {
    this.traced.textContent = "";
    this.live.setAttribute("points", "");
    this.element.dataset.traced = "0";
  }

  boxPoint(event) {
    const rect = this.svg.getBoundingClientRect();
    const side = rect.width || 1;
    return [(event.clientX - rect.left) / side, (event.clientY - rect.top) / (rect.height || side)];
  }

  bind() {
    const svg = this.svg;
    svg.addEventListener("pointerdown", (event) => {
      if (this.element.dataset.disabled === "true") return;
      event.preventDefault();
      try {
        svg.setPointerCapture(event.pointerId);
      } catch {
        // Capture is a nicety: strokes still work without it.
      }
      this.current = { id: event.pointerId, points: [this.boxPoint(event)] };
      this.live.setAttribute("points", pointsAttribute(this.current.points));
    });
    svg.addEventListener("pointermove", (event) => {
      if (!this.current || event.pointerId !== this.current.id) return;
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
      for (const each of events.length ? events : [event]) {
        const point = this.boxPoint(each);
        const last = this.current.points[this.current.points.length - 1];
        if (Math.hypot(point[0] - last[0], point[1] - last[1]) < MIN_STEP) continue;
        if (this.current.points.length >= this.maxPoints) break;
        this.current.points.push(point);
      }
      this.live.setAttribute("points", pointsAttribute(this.current.points));
    });
    const finish = (event) => {
      if (!this.current || event.pointerId !== this.current.id) return;
      const points = this.current.points.map(([x, y]) => [round(x), round(y)]);
      this.current = null;
      // The stroke stays drawn until the server's answer redraws what counts.
      const kept = node("polyline", { points: pointsAttribute(points) }, this.traced);
      kept.classList.add("is-pending");
      this.live.setAttribute("points", "");
      this.onStroke(points);
    };
    svg.addEventListener("pointerup", finish);
    svg.addEventListener("pointercancel", finish);
  }
}

function round(value) {
  return Math.round(value * 10000) / 10000;
}
