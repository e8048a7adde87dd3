// Labyrinth: a stone path through the forest, from START to ZIEL (where the Lemminge wait for Bennie).
// The page only draws the maze the server sent and the child's finger line; one whole trace (touch-down to
// lift) goes to the server in the maze's own space, and the server judges it (reached ZIEL, left the path,
// did not begin at START). On `clearTrace` the line fades away and the child simply tries again.
//
// Everything of the maze is drawn in maze space (`width` × `height`, y down) inside groups that carry one
// transform: on a tall, narrow play area (a phone held upright) the maze is turned a quarter so it can be
// drawn much larger; the finger's position is mapped back through the same transform, so the server always
// gets maze points. The words (START, ZIEL) are never turned.

const SVG = "http://www.w3.org/2000/svg";
/** Points closer than this (maze points) to the last one add nothing to a trace. */
const MIN_STEP = 1.5;
/** Half of START's cream rim (kids.css: stroke-width 6), in maze points. */
const START_RIM = 3;

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (parent) parent.append(element);
  return element;
}

function round(value) {
  return Math.round(value * 10) / 10;
}

/** `count` points spread evenly over `points`, the first and the last always kept. */
export function thin(points, count) {
  if (points.length <= count) return points;
  const last = points.length - 1;
  return Array.from({ length: count }, (_, index) => points[Math.round((index * last) / (count - 1))]);
}

/** Stepping stones along the paths: one on every cell middle, and evenly between them (never doubled). */
function stonePlaces(segments, spacing) {
  const places = new Map();
  for (const [x1, y1, x2, y2] of segments) {
    for (const [x, y] of [[x1, y1], [x2, y2]]) places.set(`${round(x)},${round(y)}`, [x, y]);
    const steps = Math.max(1, Math.round(Math.hypot(x2 - x1, y2 - y1) / spacing));
    for (let step = 1; step < steps; step += 1) {
      const t = step / steps;
      places.set(`s${places.size}`, [x1 + (x2 - x1) * t, y1 + (y2 - y1) * t]);
    }
  }
  return [...places.values()];
}

export class LabyrinthBoard {
  /**
   * `maze` is the view's `level.labyrinth`; `onTrace(points)` gets each finished trace (maze points);
   * `reduced()` says whether motion is reduced; `words` has the labels (start, goal, label).
   */
  constructor(maze, { onTrace, reduced, fade, words }) {
    this.maze = maze;
    this.onTrace = onTrace;
    this.reduced = reduced;
    // The clearing line's fade, from the core's choreography (kidsTraceFade).
    this.fade = fade;
    this.words = words;
    this.enabled = true;
    this.current = null;
    this.rotated = null;

    this.element = document.createElement("div");
    this.element.className = "labyrinth-board";
    this.element.dataset.testid = "labyrinth";
    this.element.dataset.state = "ready";
    this.element.dataset.points = "0";

    const svg = node("svg", {
      class: "labyrinth-svg", role: "img", "aria-label": words.label, focusable: "false",
      viewBox: `0 0 ${maze.width} ${maze.height}`, preserveAspectRatio: "xMidYMid meet",
    });
    this.svg = svg;
    this.ground = node("rect", { class: "labyrinth-ground", x: 0, y: 0, width: maze.width, height: maze.height, rx: 34 }, svg);
    this.paths = node("g", { class: "labyrinth-paths" }, svg);
    // The finger's line lies on the path, under START and ZIEL, so their words stay readable.
    this.traces = node("g", { class: "labyrinth-traces" }, svg);
    this.marks = node("g", { class: "labyrinth-marks" }, svg);
    this.drawPaths();
    this.drawMarks();
    this.live = node("polyline", { class: "labyrinth-trace", points: "" }, this.traces);
    // The wooden frame holds the maze with a strip of forest floor around it, as wide as START reaches past
    // the maze's edge (START is a child-sized stone, a little wider than its cell): the stone stays inside.
    this.frame = document.createElement("div");
    this.frame.className = "labyrinth-frame";
    this.frame.dataset.testid = "labyrinth-frame";
    this.frame.append(svg);
    this.element.append(this.frame);
    this.bind();

    // The maze takes the orientation that draws it larger, and START keeps its size on screen.
    this.observer = new ResizeObserver(() => this.layout());
  }

  /** Starts following the size of `area` (the element whose box the maze fills). */
  observe(area) {
    this.area = area;
    this.observer.observe(area);
    this.observer.observe(this.svg);
    this.layout();
  }

  destroy() {
    this.observer.disconnect();
  }

  /** Tracing is possible only while the level is being played (not under level complete or the celebration). */
  setEnabled(enabled) {
    this.enabled = enabled;
    this.element.dataset.disabled = String(!enabled);
    if (!enabled && this.current) this.cancel();
  }

  // MARK: Drawing

  drawPaths() {
    const { segments, tolerance } = this.maze;
    const d = segments.map(([x1, y1, x2, y2]) => `M${x1} ${y1}L${x2} ${y2}`).join("");
    const width = tolerance * 2;
    // A soft moss edge, the stone path (exactly as wide as the corridor the server allows), stepping stones.
    node("path", { class: "labyrinth-edge", d, "stroke-width": width + 10 }, this.paths);
    node("path", { class: "labyrinth-path", d, "stroke-width": width }, this.paths);
    const stones = node("g", { class: "labyrinth-stones" }, this.paths);
    for (const [x, y] of stonePlaces(segments, Math.max(14, tolerance * 0.62) * 1.55)) {
      node("circle", { cx: round(x), cy: round(y), r: round(Math.max(7, tolerance * 0.31)) }, stones);
    }
  }

  drawMarks() {
    const { tolerance } = this.maze;
    // ZIEL: a warm glow exactly where the server counts the goal as reached, a Lemming, and its sign.
    this.goalGlow = node("circle", { class: "labyrinth-goal-glow", r: tolerance }, this.marks);
    this.goalFriend = node("image", { class: "labyrinth-goal-lemming", href: "/img/kids/lemming.svg" }, this.marks);
    this.goalSign = node("g", { class: "labyrinth-goal-sign" }, this.marks);
    this.goalBoard = node("rect", { class: "labyrinth-sign-board", rx: 10 }, this.goalSign);
    this.goalText = node("text", { class: "labyrinth-sign-text", "text-anchor": "middle", "dominant-baseline": "central" }, this.goalSign);
    this.goalText.textContent = this.words.goal;
    // START: a round stone with its word.
    this.startRing = node("circle", { class: "labyrinth-start" }, this.marks);
    this.startText = node("text", { class: "labyrinth-start-text", "text-anchor": "middle", "dominant-baseline": "central" }, this.marks);
    this.startText.textContent = this.words.start;
  }

  /** A maze point in the SVG's view space (turned a quarter when the maze stands upright). */
  toView([x, y]) {
    return this.rotated ? [this.maze.height - y, x] : [x, y];
  }

  layout() {
    const { width, height } = this.maze;
    const area = this.area ? this.area.getBoundingClientRect() : null;
    if (area && area.width > 0 && area.height > 0) {
      const wide = Math.min(area.width / width, area.height / height);
      const tall = Math.min(area.width / height, area.height / width);
      const rotated = tall > wide * 1.1;
      if (rotated !== this.rotated) this.orient(rotated);
    } else if (this.rotated === null) {
      this.orient(false);
    }
    const box = this.svg.getBoundingClientRect();
    const viewWidth = this.rotated ? height : width;
    const scale = box.width > 0 ? box.width / viewWidth : 1;
    this.placeMarks(scale);
  }

  orient(rotated) {
    const { width, height } = this.maze;
    this.rotated = rotated;
    this.element.dataset.rotated = String(rotated);
    this.svg.setAttribute("viewBox", rotated ? `0 0 ${height} ${width}` : `0 0 ${width} ${height}`);
    this.ground.setAttribute("width", rotated ? height : width);
    this.ground.setAttribute("height", rotated ? width : height);
    // (x, y) → (height − y, x): a quarter turn clockwise, START at the top, ZIEL at the bottom.
    const transform = rotated ? `translate(${height} 0) rotate(90)` : "";
    for (const group of [this.paths, this.traces]) {
      if (transform) group.setAttribute("transform", transform);
      else group.removeAttribute("transform");
    }
  }

  placeMarks(scale) {
    const { tolerance, start, goal } = this.maze;
    const cells = this.cellSize();
    const room = Math.min(cells[0], cells[1]);
    // START: the stone the server accepts a first touch on (it fills most of its cell).
    const startRadius = this.maze.startRadius || tolerance;
    const [sx, sy] = this.toView(start);
    for (const circle of [this.startRing]) {
      circle.setAttribute("cx", round(sx));
      circle.setAttribute("cy", round(sy));
      circle.setAttribute("r", round(startRadius));
    }
    this.startText.setAttribute("x", round(sx));
    this.startText.setAttribute("y", round(sy));
    this.startText.setAttribute("font-size", round(Math.min(startRadius * 0.5, Math.max(22, 17 / scale))));
    this.element.dataset.startPx = String(Math.round(startRadius * 2 * scale));
    // How far the stone (with its rim) reaches past each edge of the maze, as a share of the drawn width: the
    // frame's strip of floor on that side (kids.css) is that wide. Independent of the scale, so it settles at once.
    const viewWidth = this.rotated ? this.maze.height : this.maze.width;
    const viewHeight = this.rotated ? this.maze.width : this.maze.height;
    const reach = startRadius + START_RIM;
    const past = { left: reach - sx, top: reach - sy, right: sx + reach - viewWidth, bottom: sy + reach - viewHeight };
    for (const [side, length] of Object.entries(past)) {
      this.frame.style.setProperty(`--over-${side}`, String(Math.ceil(Math.max(0, length)) / viewWidth));
    }

    const [gx, gy] = this.toView(goal);
    this.goalGlow.setAttribute("cx", round(gx));
    this.goalGlow.setAttribute("cy", round(gy));
    const friend = Math.max(tolerance * 1.3, room * 0.56);
    this.goalFriend.setAttribute("x", round(gx - friend / 2));
    this.goalFriend.setAttribute("y", round(gy - friend * 0.62));
    this.goalFriend.setAttribute("width", round(friend));
    this.goalFriend.setAttribute("height", round(friend));
    const font = Math.min(room * 0.2, Math.max(24, 18 / scale));
    const boardWidth = font * 3.1;
    const boardHeight = font * 1.45;
    const boardY = gy + friend * 0.3;
    this.goalBoard.setAttribute("x", round(gx - boardWidth / 2));
    this.goalBoard.setAttribute("y", round(boardY));
    this.goalBoard.setAttribute("width", round(boardWidth));
    this.goalBoard.setAttribute("height", round(boardHeight));
    this.goalText.setAttribute("x", round(gx));
    this.goalText.setAttribute("y", round(boardY + boardHeight / 2 + font * 0.04));
    this.goalText.setAttribute("font-size", round(font));
  }

  /** The size of one maze cell, from the spacing of the path's ends (maze points; turned with the maze). */
  cellSize() {
    let across = Infinity;
    let down = Infinity;
    for (const [x1, y1, x2, y2] of this.maze.segments) {
      if (Math.abs(x2 - x1) > 1) across = Math.min(across, Math.abs(x2 - x1));
      if (Math.abs(y2 - y1) > 1) down = Math.min(down, Math.abs(y2 - y1));
    }
    if (!Number.isFinite(across)) across = this.maze.tolerance * 3;
    if (!Number.isFinite(down)) down = this.maze.tolerance * 3;
    return this.rotated ? [down, across] : [across, down];
  }

  // MARK: The finger

  /** A pointer position in maze space, through the traced group's own transform. */
  mazePoint(event) {
    const matrix = this.traces.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  }

  bind() {
    const svg = this.svg;
    svg.addEventListener("pointerdown", (event) => {
      if (!this.enabled || this.current) return;
      if (event.pointerType === "mouse" && event.button !== 0) return;
      const point = this.mazePoint(event);
      if (!point) return;
      event.preventDefault();
      try {
        svg.setPointerCapture(event.pointerId);
      } catch {
        // Capture is a nicety: a trace still works without it.
      }
      this.current = { id: event.pointerId, points: [point] };
      this.element.dataset.state = "tracing";
      this.drawLive();
    });
    svg.addEventListener("pointermove", (event) => {
      if (!this.current || event.pointerId !== this.current.id) return;
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [];
      for (const each of events.length ? events : [event]) {
        const point = this.mazePoint(each);
        if (!point) continue;
        const last = this.current.points[this.current.points.length - 1];
        if (Math.hypot(point[0] - last[0], point[1] - last[1]) < MIN_STEP) continue;
        this.current.points.push(point);
      }
      this.drawLive();
    });
    const finish = (event) => {
      if (!this.current || event.pointerId !== this.current.id) return;
      const point = event.type === "pointerup" ? this.mazePoint(event) : null;
      const points = this.current.points;
      const last = points[points.length - 1];
      if (point && Math.hypot(point[0] - last[0], point[1] - last[1]) >= MIN_STEP) points.push(point);
      this.current = null;
      const sent = thin(points, this.maze.maxPoints).map(([x, y]) => [round(x), round(y)]);
      // The line stays until the server answers: the next level, or clearTrace.
      this.element.dataset.state = "sent";
      this.element.dataset.points = String(sent.length);
      this.onTrace(sent);
    };
    svg.addEventListener("pointerup", finish);
    svg.addEventListener("pointercancel", finish);
    svg.addEventListener("lostpointercapture", finish);
    svg.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  drawLive() {
    const points = this.current ? this.current.points : [];
    this.live.setAttribute("points", points.map(([x, y]) => `${round(x)},${round(y)}`).join(" "));
  }

  cancel() {
    this.current = null;
    this.live.setAttribute("points", "");
    this.element.dataset.state = "ready";
  }

  /**
   * showWay (the hint after a third miss): the way through, START to ZIEL, as a soft golden line under the
   * finger's for `seconds`; it fades like a cleared trace.
   */
  showWay(points, seconds) {
    if (this.way) this.way.remove();
    const way = node("polyline", {
      class: "labyrinth-way", points: points.map(([x, y]) => `${round(x)},${round(y)}`).join(" "),
      "stroke-width": round(Math.max(14, this.maze.tolerance * 0.5)),
    }, null);
    this.traces.insertBefore(way, this.traces.firstChild);
    this.way = way;
    this.element.dataset.hint = "way";
    setTimeout(() => {
      if (this.way !== way) return;
      this.way = null;
      delete this.element.dataset.hint;
      if (this.reduced() || !way.animate) return way.remove();
      const step = this.fade();
      const animation = way.animate([{ opacity: step.from.opacity }, { opacity: step.to.opacity }], { duration: step.duration, easing: step.easing, fill: "forwards" });
      animation.onfinish = () => way.remove();
      animation.oncancel = () => way.remove();
    }, seconds * 1000);
  }

  /** clearTrace: the line fades away gently (at once with reduced motion); a new trace may start meanwhile. */
  clear() {
    if (this.current) return;
    const points = this.live.getAttribute("points");
    this.live.setAttribute("points", "");
    this.element.dataset.state = "cleared";
    if (!points || this.reduced() || !this.live.animate) return;
    const fading = node("polyline", { class: "labyrinth-trace is-fading", points }, null);
    this.traces.insertBefore(fading, this.live);
    const step = this.fade();
    const animation = fading.animate([{ opacity: step.from.opacity }, { opacity: step.to.opacity }], { duration: step.duration, easing: step.easing, fill: "forwards" });
    animation.onfinish = () => fading.remove();
    animation.oncancel = () => fading.remove();
  }
}
