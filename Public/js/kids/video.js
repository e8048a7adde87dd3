// The treasure, video-selection and video screens of Waldabenteuer (same `build`/`update` shape as screens.js).
import { art, fill, h, setData, setText } from "./dom.js";
import { CountdownClock } from "./clock.js";
import { backButton, lockOverlay, plaque } from "./pieces.js";

// MARK: Treasure

function tierButton(tier, ui) {
  const label = tier === "fiveMinutes" ? ui.t("fiveMinutesButton") : ui.t("twelveMinutesButton");
  const cost = ui.catalog.tiers[tier].cost;
  return h("button", {
    type: "button", class: "tier", data: { tier, testid: `tier-${tier}` },
    onclick: (event) => {
      if (event.currentTarget.getAttribute("aria-disabled") === "true") return;
      ui.send("redeem", { tier, online: navigator.onLine });
    },
  },
  h("span", { class: "tier-play", "aria-hidden": "true" }),
  h("span", { class: "tier-label" }, label),
  h("span", { class: "tier-cost" }, art("coin", { className: "coin-icon" }), ui.t("coinCount", { X: cost })),
  tier === "twelveMinutes" ? h("span", { class: "tier-badges", "aria-hidden": "true" }, h("span", { class: "badge" }, ui.t("bonusBadge")), h("span", { class: "badge badge-soft" }, ui.t("bonusMinutesBadge"))) : null,
  lockOverlay());
}

export const treasureScreen = {
  build(view, ui) {
    return h("section", { class: "screen screen-treasure" },
      h("header", { class: "plain-top" }, backButton(ui)),
      h("div", { class: "treasure-body" },
        h("p", { class: "treasure-count plaque", data: { testid: "treasure-coins" } }, art("coin", { className: "coin-icon" }), h("span", {})),
        h("div", { class: "treasure-chest" }, h("span", { class: "chest-glow", "aria-hidden": "true" }), art("chest-closed", { className: "chest-img" })),
        h("div", { class: "tiers" }, tierButton("fiveMinutes", ui), tierButton("twelveMinutes", ui))));
  },
  update(element, view, ui) {
    const treasure = view.treasure;
    if (!treasure) return;
    const count = element.querySelector(".treasure-count");
    setData(count, "coins", treasure.coins);
    setText(count.querySelector("span"), view.activePlayer ? view.activePlayer.coinsLabel : "");
    const chest = element.querySelector(".treasure-chest");
    const open = treasure.chestOpen;
    if (chest.dataset.open !== String(open)) {
      chest.dataset.open = String(open);
      chest.querySelector(".chest-img").src = `/img/kids/${open ? "chest-open" : "chest-closed"}.svg`;
    }
    for (const tier of ["fiveMinutes", "twelveMinutes"]) {
      const button = element.querySelector(`[data-tier=${tier}]`);
      const state = treasure[tier];
      setData(button, "state", state);
      const usable = state === "active" || state === "activeWithBonus";
      button.setAttribute("aria-disabled", String(!usable));
    }
  },
};

// MARK: Video selection

function uploadFrame() {
  const frame = h("span", { class: "upload-frame", "aria-hidden": "true" });
  frame.innerHTML = '<svg viewBox="0 0 200 112" preserveAspectRatio="xMidYMid meet"><rect x="4" y="4" width="192" height="104" rx="14" fill="#B3D1E6" stroke="#A67C52" stroke-width="8"/><path d="M4 84 C50 58 78 70 104 82 S160 70 196 60 V96 a12 12 0 0 1-12 12H16A12 12 0 0 1 4 96Z" fill="#7A9973"/><circle cx="156" cy="30" r="12" fill="#F5E6C8"/><circle cx="100" cy="52" r="24" fill="#FAF5EB" opacity=".92"/><path d="M92 40l20 12-20 12z" fill="#738F66"/></svg>';
  return frame;
}

/** A film's picture: YouTube's thumbnail, an uploaded film's own frame, or the drawn frame when neither loads. */
export function filmPicture(video) {
  if (video.frameURL) {
    const frame = h("video", {
      class: "video-thumb", src: video.frameURL, preload: "metadata", playsinline: true, disablepictureinpicture: true,
      "aria-hidden": "true", tabindex: "-1", data: { testid: "film-frame" },
    });
    frame.muted = true;
    frame.addEventListener("error", () => frame.replaceWith(uploadFrame()), { once: true });
    return frame;
  }
  const offline = video.needsInternet && !navigator.onLine;
  const thumb = !video.thumbnailURL || offline
    ? uploadFrame()
    : h("img", { class: "video-thumb", src: video.thumbnailURL, alt: "", width: 200, height: 112, loading: "lazy", referrerpolicy: "no-referrer" });
  if (thumb.tagName === "IMG") thumb.addEventListener("error", () => thumb.replaceWith(uploadFrame()), { once: true });
  return thumb;
}

function videoCard(video, ui) {
  const offline = video.needsInternet && !navigator.onLine;
  const thumb = filmPicture(video);
  return h("button", {
    type: "button", class: `video-card${offline ? " is-offline" : ""}`,
    data: { video: video.id, source: video.source, testid: "video-card" }, "aria-disabled": String(offline),
    onclick: () => {
      if (video.needsInternet && !navigator.onLine) {
        ui.say({ speaker: "B", text: ui.noInternetLine(), delay: 0, trigger: "noInternet" });
        return;
      }
      ui.send("chooseVideo", { video: video.id, online: navigator.onLine });
    },
  },
  h("span", { class: "video-thumb-frame" }, thumb),
  h("span", { class: "video-title" }, video.title),
  offline ? h("span", { class: "video-offline", data: { testid: "video-offline" } }, ui.noInternetLine()) : null);
}

export const videoSelection = {
  build(view, ui) {
    return h("section", { class: "screen screen-videos" },
      h("header", { class: "plain-top" }, backButton(ui)),
      h("div", { class: "videos-body" },
        plaque(ui.t("videoSelectionTitle")),
        h("p", { class: "videos-time", data: { testid: "video-time" } }),
        h("div", { class: "video-grid", data: { testid: "video-grid" } })));
  },
  update(element, view, ui) {
    setText(element.querySelector(".videos-time"), view.paidTimeLabel || "");
    const grid = element.querySelector(".video-grid");
    const key = JSON.stringify([view.videos.map((v) => v.id), navigator.onLine]);
    if (grid.dataset.key === key) return;
    grid.dataset.key = key;
    if (!view.videos.length) {
      fill(grid, h("div", { class: "videos-empty", data: { testid: "videos-empty" } },
        art("lemming", { className: "empty-lemming" }),
        h("p", { class: "empty-title" }, ui.t("noVideos")),
        h("p", { class: "empty-text" }, ui.t("askParent"))));
      return;
    }
    fill(grid, view.videos.map((video) => videoCard(video, ui)));
  },
};

// MARK: Video playing

export const videoPlaying = {
  build(view, ui) {
    const playback = view.playback;
    const clock = new CountdownClock();
    ui.state.video.clock = clock;
    clock.onLocalMark = () => ui.send("videoTick");
    let player;
    if (playback.video.source === "upload") {
      player = h("video", {
        // It starts only while the server's clock runs (see update), never on its own.
        class: "video-element", src: playback.src, autoplay: !playback.paused, playsinline: true, loop: true,
        disablepictureinpicture: true, controlslist: "nodownload noplaybackrate noremoteplayback", preload: "auto",
        data: { testid: "video-element" },
      });
      player.controls = false;
      guardAgainstSeeking(player);
      player.addEventListener("contextmenu", (event) => event.preventDefault());
    } else {
      player = h("iframe", {
        class: "video-element", src: playback.src, title: playback.video.title, allow: "autoplay; encrypted-media",
        referrerpolicy: "strict-origin-when-cross-origin", data: { testid: "video-element" },
      });
    }
    ui.state.video.player = player;
    // When the browser does not start a film by itself (after a reload), one big tap starts it.
    const start = h("button", {
      type: "button", class: "video-start", hidden: true, "aria-label": "Film starten", data: { testid: "video-start" },
      onclick: () => {
        start.hidden = true;
        if (player.play) player.play().catch(() => { start.hidden = false; });
      },
    });
    return h("section", { class: "screen screen-video", data: { video: playback.video.id } },
      h("div", { class: "video-frame", data: { testid: "video-player" } }, player, h("div", { class: "video-shield", "aria-hidden": "true" }), start),
      h("aside", { class: "video-side" }, clock.element));
  },
  update(element, view, ui) {
    if (!view.playback) return;
    const clock = ui.state.video.clock;
    clock.sync(view.playback);
    const player = ui.state.video.player;
    // The film plays exactly while the server's clock runs (and the page is in front).
    const running = !view.playback.paused && document.visibilityState === "visible" && !ui.state.video.over;
    setFilmPlaying(player, running, () => {
      const start = element.querySelector(".video-start");
      if (start && !ui.state.video.over) start.hidden = false;
    });
  },
};

/**
 * Starts or stops the film: a video element directly, a YouTube embed through its player API (the embed is
 * loaded with enablejsapi=1). `blocked` runs when the browser refuses to start a film without a tap.
 */
export function setFilmPlaying(player, playing, blocked = () => {}) {
  if (!player) return;
  if (player.tagName === "VIDEO") {
    if (!playing && !player.paused) player.pause();
    else if (playing && player.paused) player.play().catch(blocked);
    return;
  }
  if (player.tagName === "IFRAME" && player.contentWindow && player.dataset.playing !== String(playing)) {
    player.dataset.playing = String(playing);
    const command = { event: "command", func: playing ? "playVideo" : "pauseVideo", args: [] };
    player.contentWindow.postMessage(JSON.stringify(command), "https://www.youtube-nocookie.com");
  }
}

/** No seeking: a jump away from where the video was is put back. */
function guardAgainstSeeking(video) {
  let last = 0;
  video.addEventListener("timeupdate", () => {
    if (!video.seeking) last = video.currentTime;
  });
  video.addEventListener("seeking", () => {
    // Looping back to the start is the video's own doing; anything else was a seek.
    if (Math.abs(video.currentTime - last) > 1 && video.currentTime > 0.5) video.currentTime = last;
  });
  video.addEventListener("ratechange", () => {
    if (video.playbackRate !== 1) video.playbackRate = 1;
  });
}
