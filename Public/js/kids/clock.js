// The analog countdown clock beside a video: 12 markers (every third bolder), a green arc for the time left
// that shrinks counter-clockwise towards 12, one hand turning clockwise from 12, and a gold centre dot.
// The server's clock decides; between its updates the face moves on smoothly from the last values it sent.

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 150;
const CENTER = SIZE / 2;
const ARC_RADIUS = 58;
const CIRCUMFERENCE = 2 * Math.PI * ARC_RADIUS;

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.append(element);
  return element;
}

export class CountdownClock {
  constructor() {
    this.element = document.createElement("figure");
    this.element.className = "clock";
    this.element.dataset.testid = "clock";
    const svg = node("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, width: SIZE, height: SIZE, role: "img", "aria-hidden": "true" });
    node("circle", { cx: CENTER, cy: CENTER, r: 72, class: "clock-rim" }, svg);
    node("circle", { cx: CENTER, cy: CENTER, r: 66, class: "clock-face" }, svg);
    node("circle", { cx: CENTER, cy: CENTER, r: ARC_RADIUS, class: "clock-track" }, svg);
    this.arc = node("circle", {
      cx: CENTER, cy: CENTER, r: ARC_RADIUS, class: "clock-arc",
      "stroke-dasharray": `${CIRCUMFERENCE} ${CIRCUMFERENCE}`,
    }, svg);
    for (let index = 0; index < 12; index += 1) {
      const bold = index % 3 === 0;
      const angle = (index * 30 * Math.PI) / 180;
      const outer = 50;
      const inner = bold ? 38 : 43;
      node("line", {
        x1: CENTER + Math.sin(angle) * inner, y1: CENTER - Math.cos(angle) * inner,
        x2: CENTER + Math.sin(angle) * outer, y2: CENTER - Math.cos(angle) * outer,
        class: bold ? "clock-marker is-bold" : "clock-marker",
      }, svg);
    }
    this.hand = node("line", { x1: CENTER, y1: CENTER + 8, x2: CENTER, y2: CENTER - 46, class: "clock-hand" }, svg);
    node("circle", { cx: CENTER, cy: CENTER, r: 7, class: "clock-dot" }, svg);
    this.label = document.createElement("figcaption");
    this.label.className = "clock-label";
    this.label.dataset.testid = "clock-label";
    this.element.append(svg, this.label);
    this.base = null;
    this.frame = null;
    this.onLocalMark = null;
    this.marks = new Set();
  }

  /** Takes the server's playback values as the new starting point. */
  sync(playback) {
    this.base = {
      remaining: playback.remainingSeconds,
      granted: playback.grantedSeconds,
      paused: playback.paused,
      at: performance.now(),
    };
    this.label.textContent = playback.label;
    this.element.dataset.warned = String(Boolean(playback.warned));
    this.element.dataset.paused = String(Boolean(playback.paused));
    this.draw();
    this.start();
  }

  /** Stops or continues the local interpolation (the page was hidden, or came back). */
  setPaused(paused) {
    if (!this.base) return;
    const remaining = this.remaining();
    this.base = { ...this.base, remaining, paused, at: performance.now() };
    this.element.dataset.paused = String(paused);
  }

  /** Seconds left now, interpolated from the last server values. */
  remaining() {
    if (!this.base) return 0;
    if (this.base.paused) return this.base.remaining;
    return Math.max(0, this.base.remaining - (performance.now() - this.base.at) / 1000);
  }

  /** Time is up: the arc is gone, the hand is round at 12, the label says so. */
  finish(label) {
    this.stop();
    this.base = { remaining: 0, granted: this.base ? this.base.granted : 1, paused: true, at: performance.now() };
    this.marks.add(60).add(0);
    this.draw();
    if (label) this.label.textContent = label;
  }

  /**
   * The one-minute warning: the arc turns gold and the clock swells gently, one swell per step of the
   * server's warning choreography (`pulses`: Web Animations timing; none under reduced motion).
   */
  warn(pulses = []) {
    this.element.dataset.warned = "true";
    if (!this.element.animate) return;
    for (const pulse of pulses) {
      const rest = { transform: `scale(${pulse.from.scale})` };
      this.element.animate([rest, { transform: `scale(${pulse.to.scale})` }, rest],
        { delay: pulse.delay, duration: pulse.duration, easing: pulse.easing }).id = "clock-pulse";
    }
  }

  draw() {
    if (!this.base) return;
    const remaining = this.remaining();
    const fraction = this.base.granted > 0 ? Math.min(1, Math.max(0, remaining / this.base.granted)) : 0;
    const angle = (1 - fraction) * 360;
    // The arc runs clockwise from the hand round to 12, so it shrinks counter-clockwise as the hand turns.
    this.arc.setAttribute("stroke-dasharray", `${fraction * CIRCUMFERENCE} ${CIRCUMFERENCE}`);
    this.arc.setAttribute("transform", `rotate(${angle - 90} ${CENTER} ${CENTER})`);
    this.hand.setAttribute("transform", `rotate(${angle} ${CENTER} ${CENTER})`);
    this.element.dataset.remaining = String(Math.round(remaining));
    this.element.dataset.fraction = fraction.toFixed(3);
    this.element.dataset.angle = angle.toFixed(1);
    // The page tells the server right when its own countdown reaches one minute and zero.
    for (const mark of [60, 0]) {
      if (remaining <= mark && !this.marks.has(mark) && this.base.remaining > mark) {
        this.marks.add(mark);
        if (this.onLocalMark) this.onLocalMark(mark);
      }
    }
  }

  start() {
    if (this.frame) return;
    const loop = () => {
      this.draw();
      this.frame = this.element.isConnected ? requestAnimationFrame(loop) : null;
    };
    this.frame = requestAnimationFrame(loop);
  }

  stop() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = null;
  }
}
