// Soft full-screen confetti for as long as the server's celebration says: round flakes and little leaves in the game's own colours, drifting
// down and swaying slowly. Nothing flickers: pieces turn slowly and never flip. Skipped under reduced motion.

const COLOURS = ["#D9C27A", "#99BF8C", "#B3D1E6", "#6FA8DC", "#E8A0A0", "#FAF5EB", "#C4A574"];

let running = null;

/**
 * Starts confetti on `canvas` for `duration` milliseconds (the server's celebration choreography says how
 * long); `amount` 0…1 (a level's success is lighter than a celebration).
 */
export function playConfetti(canvas, { amount = 1, duration }) {
  if (!canvas || !canvas.getContext) return;
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const width = window.innerWidth;
  const height = window.innerHeight;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const context = canvas.getContext("2d");
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  const count = Math.round(40 + 110 * amount);
  const pieces = Array.from({ length: count }, () => ({
    x: Math.random() * width,
    y: -20 - Math.random() * height * 0.6,
    size: 6 + Math.random() * 8,
    speed: 90 + Math.random() * 110,
    sway: 14 + Math.random() * 22,
    phase: Math.random() * Math.PI * 2,
    turn: (Math.random() - 0.5) * 1.2,
    leaf: Math.random() < 0.45,
    colour: COLOURS[Math.floor(Math.random() * COLOURS.length)],
  }));
  if (running) cancelAnimationFrame(running.frame);
  const started = performance.now();
  canvas.dataset.active = "true";
  canvas.hidden = false;
  const state = { frame: 0 };
  running = state;
  const step = (now) => {
    const t = (now - started) / 1000;
    const left = 1 - (now - started) / duration;
    context.clearRect(0, 0, width, height);
    if (left <= 0) {
      canvas.dataset.active = "false";
      running = null;
      return;
    }
    // The last half second fades everything out together.
    context.globalAlpha = Math.min(1, left * 6);
    for (const piece of pieces) {
      const y = piece.y + piece.speed * t;
      const x = piece.x + Math.sin(piece.phase + t * 1.6) * piece.sway;
      context.save();
      context.translate(x, y);
      context.rotate(piece.phase + t * piece.turn);
      context.fillStyle = piece.colour;
      context.beginPath();
      if (piece.leaf) context.ellipse(0, 0, piece.size * 0.45, piece.size, 0, 0, Math.PI * 2);
      else context.arc(0, 0, piece.size * 0.5, 0, Math.PI * 2);
      context.fill();
      context.restore();
    }
    state.frame = requestAnimationFrame(step);
  };
  state.frame = requestAnimationFrame(step);
}

/** Stops confetti at once (a screen change, reduced motion switched on). */
export function stopConfetti(canvas) {
  if (running) cancelAnimationFrame(running.frame);
  running = null;
  if (!canvas) return;
  const context = canvas.getContext && canvas.getContext("2d");
  if (context) context.clearRect(0, 0, canvas.width, canvas.height);
  canvas.dataset.active = "false";
}
