// The ring test bench: records the ring's value frame by frame while it moves and draws it over the server's
// duration, with the server's curve from each point the ring (re)started from, so a wrong curve, a jump or a
// late start is visible at a glance. Nothing here decides a value: it reads the ring and the server's payload.
import { ringIsMoving, ringTarget, ringValue } from "../progress-ring.js";

/** The last animation: frames `[ms since start, value]` and each retarget `{at, from, to}`. */
let run = null;
let frameId = 0;
let timing = { duration: 0, samples: [] };
let onFrame = () => {};
let onRest = () => {};

/** Takes the server's ring payload (`duration` in seconds, `samples` of the eased curve). */
export function setTiming(payload) {
  timing = { duration: Number(payload && payload.duration) || 0, samples: Array.isArray(payload && payload.samples) ? payload.samples.map(Number) : [] };
}

/** `frame(value, target, moving)` runs at every recorded frame; `rest(run)` once the ring stopped. */
export function watch({ frame, rest }) {
  onFrame = frame;
  onRest = rest;
}

/**
 * Starts following the ring of `projectId` if it is not already followed. `busy()` tells whether the bench
 * still has changes in flight (the run is over only when the ring rests and nothing more is coming).
 */
export function follow(projectId, busy = () => false) {
  if (run && run.projectId === projectId && frameId) return;
  const now = performance.now();
  run = { projectId, start: now, frames: [[0, ringValue(projectId)]], retargets: [], lastTarget: null, busy };
  noteTarget(now);
  frameId = requestAnimationFrame(step);
}

function noteTarget(now) {
  const target = ringTarget(run.projectId);
  if (target === run.lastTarget) return;
  run.lastTarget = target;
  run.retargets.push({ at: now - run.start, from: ringValue(run.projectId), to: target });
}

function step(now) {
  const value = ringValue(run.projectId);
  if (value == null) {
    frameId = 0;
    return;
  }
  noteTarget(now);
  run.frames.push([Math.max(0, now - run.start), value]);
  const moving = ringIsMoving(run.projectId);
  onFrame(value, ringTarget(run.projectId), moving);
  if (moving || run.busy()) {
    frameId = requestAnimationFrame(step);
    return;
  }
  frameId = 0;
  draw();
  onRest(summary());
}

/** What the last run did, in numbers (for the page's words and the tests). */
export function summary() {
  if (!run) return null;
  const frames = run.frames;
  const last = frames[frames.length - 1];
  let backwards = 0;
  // A step away from the target it headed for and from the one it heads for now is a jump the ring must never
  // make (a retarget between two frames may end a step toward the old target, which is no jump).
  const away = (target, before, now) => (target > before && now < before - 1e-9) || (target < before && now > before + 1e-9) || (target === before && Math.abs(now - before) > 1e-9);
  for (let i = 1; i < frames.length; i++) {
    const before = frames[i - 1][1];
    const now = frames[i][1];
    if (away(targetAt(frames[i - 1][0]), before, now) && away(targetAt(frames[i][0]), before, now)) backwards += 1;
  }
  return {
    from: frames[0][1], to: last[1], ms: Math.round(last[0]), frames: frames.length,
    retargets: Math.max(0, run.retargets.length - 1), backwards,
  };
}

function targetAt(ms) {
  let target = run.retargets.length ? run.retargets[0].to : 0;
  for (const change of run.retargets) if (change.at <= ms) target = change.to;
  return target;
}

/** Draws the last run on `#lab-plot`: time across (at least the server's duration), value up. */
export function draw(canvas = document.querySelector("#lab-plot")) {
  if (!canvas || !run) return;
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth || 480;
  const height = canvas.clientHeight || 200;
  if (canvas.width !== Math.round(width * ratio)) canvas.width = Math.round(width * ratio);
  if (canvas.height !== Math.round(height * ratio)) canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const style = getComputedStyle(canvas);
  const ink = style.getPropertyValue("--ink-soft").trim() || "#5f5a52";
  const valueColor = style.getPropertyValue("--accent").trim() || "#2f6f5e";
  const curveColor = style.getPropertyValue("--gold").trim() || "#c99a2e";
  const pad = { left: 36, right: 8, top: 8, bottom: 22 };
  const durationMs = timing.duration * 1000;
  const last = run.frames[run.frames.length - 1][0];
  const span = Math.max(durationMs, last, 1);
  const x = (ms) => pad.left + (ms / span) * (width - pad.left - pad.right);
  const y = (value) => pad.top + (1 - value) * (height - pad.top - pad.bottom);

  // Axes: 0, 50 and 100 %, and the server's duration marked on the time axis.
  ctx.lineWidth = 1;
  ctx.strokeStyle = ink;
  ctx.fillStyle = ink;
  ctx.font = "11px system-ui, sans-serif";
  ctx.globalAlpha = 0.35;
  for (const level of [0, 0.5, 1]) {
    ctx.beginPath();
    ctx.moveTo(pad.left, y(level));
    ctx.lineTo(width - pad.right, y(level));
    ctx.stroke();
  }
  if (durationMs > 0) {
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x(durationMs), pad.top);
    ctx.lineTo(x(durationMs), height - pad.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.globalAlpha = 1;
  for (const [level, label] of [[0, "0%"], [0.5, "50%"], [1, "100%"]]) ctx.fillText(label, 2, y(level) + 4);
  ctx.fillText("0 s", pad.left, height - 6);
  if (durationMs > 0) ctx.fillText(`${timing.duration} s`, x(durationMs) - 12, height - 6);

  // The server's curve from each point the ring started from, as far as the next retarget.
  const samples = timing.samples;
  if (samples.length > 1 && durationMs > 0) {
    ctx.strokeStyle = curveColor;
    ctx.setLineDash([5, 4]);
    ctx.lineWidth = 1.5;
    run.retargets.forEach((change, index) => {
      const end = index + 1 < run.retargets.length ? run.retargets[index + 1].at : Infinity;
      ctx.beginPath();
      for (let i = 0; i < samples.length; i++) {
        const at = change.at + (durationMs * i) / (samples.length - 1);
        if (at > end) break;
        const value = change.from + (change.to - change.from) * samples[i];
        if (i === 0) ctx.moveTo(x(at), y(value));
        else ctx.lineTo(x(at), y(value));
      }
      ctx.stroke();
    });
    ctx.setLineDash([]);
  }

  // The ring's own value, frame by frame.
  ctx.strokeStyle = valueColor;
  ctx.lineWidth = 2;
  ctx.beginPath();
  run.frames.forEach(([ms, value], index) => {
    if (index === 0) ctx.moveTo(x(ms), y(value));
    else ctx.lineTo(x(ms), y(value));
  });
  ctx.stroke();
}

window.addEventListener("resize", () => draw());
