// The page's side of a playing film: the clock's ticks, pausing with the server's clock, and time up.
// `page` is the page's shared context (see kids.js).
import { playSound } from "./audio.js";
import { wait } from "./dom.js";
import { setFilmPlaying } from "./video.js";

/** While a film plays, the server's clock is asked every `videoTickSeconds`. */
export function syncVideo(page, view, kind) {
  const video = page.state.video;
  if (kind !== "videoPlaying") return;
  if (!video.ticker) {
    video.ticker = setInterval(() => {
      if (document.visibilityState === "visible" && !video.over) page.send("videoTick");
    }, page.every("videoTickSeconds"));
    video.clock.element.dataset.ticking = "true";
  }
}

/** The clock stops or runs on, and the film with it. */
export function pauseVideo(page, paused) {
  const { clock, player } = page.state.video;
  if (clock) clock.setPaused(paused);
  setFilmPlaying(player, !paused && document.visibilityState === "visible" && !page.state.video.over, () => {
    const start = page.main.querySelector(".video-start");
    if (start && !page.state.video.over) start.hidden = false;
  });
}

/** Time up: the film stops, "Zeit ist um!" shows for the effect's seconds, the lines are said. */
export async function holdForTimeUp(page, effect, effects) {
  const video = page.state.video;
  video.over = true;
  clearInterval(video.ticker);
  if (video.player && video.player.tagName === "VIDEO") video.player.pause();
  if (video.player && video.player.tagName === "IFRAME") video.player.src = "about:blank";
  if (video.clock) video.clock.finish(page.t("timeUp"));
  const overlay = document.querySelector("#timeup");
  document.querySelector("#timeup-text").textContent = page.t("timeUp");
  overlay.hidden = false;
  const fade = page.motionStep("kidsTimeUp", "overlay");
  if (!page.reduced() && overlay.animate) {
    overlay.animate([{ opacity: fade.from.opacity }, { opacity: fade.to.opacity }], { duration: fade.duration, easing: fade.easing });
  }
  for (const each of effects) {
    if (each.type === "speak") page.narrator.say(each);
    if (each.type === "sound") playSound(each.name);
  }
  await wait((effect.seconds || 0) * 1000);
  overlay.hidden = true;
}
