// What the page watches for: touches (idle prompts, sound), the tab going out of sight, connectivity, the
// motion preference, and the room a Puzzle Matching grid has. `page` is the page's shared context (see kids.js).
import { unlockAudio } from "./audio.js";
import { stopConfetti } from "./confetti.js";
import { preference } from "../motion.js";
import { setFilmPlaying } from "./video.js";

/** Input, visibility, connectivity and motion preference, as they change. */
export function watchPage(page) {
  // Any touch counts as input for the idle prompts, and unlocks sound.
  const input = () => {
    unlockAudio();
    if (page.state.view && page.state.view.screen === "playing") page.resetIdle();
  };
  window.addEventListener("pointerdown", input, { capture: true, passive: true });
  window.addEventListener("keydown", input, { capture: true });
  document.addEventListener("visibilitychange", () => {
    if (!page.state.view) return;
    if (document.visibilityState === "hidden") {
      // The tab gives up its place too: a page opened next (even within seconds) is a launch, not a join.
      page.send("appBackgrounded", { tab: page.tab });
      // The film stops with the clock, at once (the server's answer may come after the page is gone).
      setFilmPlaying(page.state.video.player, false);
    } else {
      page.send("appForegrounded");
    }
  });
  const connectivity = () => {
    page.main.dataset.online = String(navigator.onLine);
    page.refresh();
  };
  window.addEventListener("online", connectivity);
  window.addEventListener("offline", connectivity);
  const motion = () => {
    page.main.dataset.motion = preference();
    if (page.reduced()) stopConfetti(document.querySelector("#confetti"));
  };
  window.addEventListener("motionpreferencechange", motion);
  motion();
  connectivity();
}

/**
 * Tells the server how large a Puzzle Matching grid this screen holds with child-sized cells: the DU grid's
 * room comes from the style sheet (--du-room, read through a hidden probe), the cell size from --target. The
 * server keeps later levels within it. Sent at the start and whenever a resize changes the answer.
 */
export function watchPuzzleRoom(page) {
  const probe = document.createElement("div");
  probe.className = "puzzle-room-probe";
  probe.setAttribute("aria-hidden", "true");
  document.body.append(probe);
  let reported = null;
  const report = () => {
    const style = getComputedStyle(document.documentElement);
    const target = parseFloat(style.getPropertyValue("--target")) || 96;
    const chrome = parseFloat(style.getPropertyValue("--du-chrome")) || 0;
    const fits = Math.max(1, Math.floor((probe.getBoundingClientRect().width - chrome) / target));
    page.main.dataset.puzzleRoom = String(fits);
    if (fits === reported || !page.state.view) return;
    reported = fits;
    page.send("screenFits", { number: fits });
  };
  let pending = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(report);
  });
  report();
}
