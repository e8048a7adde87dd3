// The parent area: the math gate in front of it and the dashboard behind it. Parents may read a plain
// message when something did not work; the children's screens never show one.
import { art, fill, h, setData, setText } from "./dom.js";
import { calmMode, setCalmMode } from "../motion.js";

// MARK: Gate

const gate = {
  build(view, ui) {
    const pad = h("div", { class: "gate-pad", role: "group", "aria-label": "Ziffern" },
      [1, 2, 3, 4, 5, 6, 7, 8, 9].map((digit) => padKey(digit, ui)),
      h("span", { class: "gate-pad-gap", "aria-hidden": "true" }),
      padKey(0, ui),
      h("button", { type: "button", class: "gate-key gate-erase", data: { testid: "gate-erase" }, "aria-label": "Löschen", onclick: () => ui.send("gateErase") }, "⌫"));
    return h("section", { class: "screen screen-gate" },
      h("div", { class: "parent-card gate-card", role: "dialog", "aria-labelledby": "gate-title" },
        h("h1", { id: "gate-title", class: "parent-title" }, ui.t("parentArea")),
        h("p", { class: "gate-prompt" }, ui.t("gatePrompt")),
        h("p", { class: "gate-question", data: { testid: "gate-question" } }),
        h("output", { class: "gate-input", data: { testid: "gate-input", value: "" }, "aria-live": "polite" }),
        h("p", { class: "gate-message", data: { testid: "gate-message" }, role: "status", "aria-live": "polite" }),
        pad,
        h("div", { class: "gate-actions" },
          h("button", { type: "button", class: "parent-button quiet", data: { testid: "gate-cancel" }, onclick: () => ui.send("back") }, ui.t("gateCancel")),
          h("button", { type: "button", class: "parent-button primary", data: { testid: "gate-confirm" }, onclick: () => ui.send("gateConfirm") }, ui.t("gateConfirm")))));
  },
  update(element, view, ui) {
    if (!view.gate) return;
    setText(element.querySelector(".gate-question"), view.gate.question);
    const input = element.querySelector(".gate-input");
    setText(input, view.gate.input || "");
    setData(input, "value", view.gate.input || "");
    element.querySelector(".gate-input").classList.toggle("is-empty", !view.gate.input);
  },
};

function padKey(digit, ui) {
  return h("button", { type: "button", class: "gate-key", data: { digit: String(digit) }, onclick: () => ui.send("gateDigit", { number: digit }) }, String(digit));
}

/** gateRejected: "Versuch es nochmal" for `seconds`. */
export function showGateMessage(element, text, seconds) {
  const message = element && element.querySelector(".gate-message");
  if (!message) return;
  message.textContent = text;
  message.dataset.shown = "true";
  clearTimeout(message._timer);
  message._timer = setTimeout(() => {
    message.textContent = "";
    message.dataset.shown = "false";
  }, seconds * 1000);
}

// MARK: Dashboard

/** German words for what the server may refuse in the parent area (its own messages are for developers). */
const PARENT_MESSAGES = {
  invalid_youtube_link: null, // from the catalog: "Ungültiger YouTube Link"
  duplicate_video: "Dieses Video ist schon in der Liste.",
  last_player: "Ein Kind muss bleiben.",
  unknown_player: "Dieses Kind gibt es nicht mehr. Die Liste ist jetzt aktuell.",
  unknown_video: "Dieses Video gibt es nicht mehr. Die Liste ist jetzt aktuell.",
  invalid_time_limit: "Bitte wähle eine der angebotenen Spielzeiten.",
  upload_too_large: "Das Video ist zu groß.",
  empty_upload: "Die Datei ist leer. Bitte wähle ein Video aus.",
  upload_quota_exceeded: "Der Platz für eigene Videos ist voll. Bitte entferne zuerst ein Video aus der Liste.",
  parent_gate_required: "Bitte öffne den Elternbereich noch einmal.",
};

/** Refusals whose words name a limit (a name's length, how many children, the video formats): the server's catalog says them. */
const CATALOG_LINES = { invalid_name: "invalidName", too_many_players: "tooManyPlayers", unsupported_video_type: "unsupportedVideoType" };

export function parentMessage(code, ui) {
  if (code === "invalid_youtube_link") return ui.t("invalidYouTubeLink");
  const line = CATALOG_LINES[code] && ui.catalog.lines[CATALOG_LINES[code]];
  return line || PARENT_MESSAGES[code] || "Das hat leider nicht geklappt. Bitte versuche es noch einmal.";
}

const MODE_LABELS = { trace: "Nachfahren", tap: "Antippen" };

function section(title, ...children) {
  return h("section", { class: "parent-section" }, h("h2", { class: "parent-heading" }, title), ...children);
}

function playerCard(card, view, ui) {
  const send = (type, fields) => ui.send(type, { player: card.id, ...fields });
  const usage = Math.max(0, card.usage);
  // The server says which signs have no games yet: the child sees them locked, so their switch is off
  // and cannot be turned on until they come.
  const comingSoon = new Set(view.dashboard.comingSoon || []);
  const activities = view.signs.map((sign) => {
    const soon = comingSoon.has(sign.activity);
    const on = !soon && Boolean(card.activities[sign.activity]);
    const noteID = `soon-${card.id}-${sign.activity}`;
    return h("label", { class: `toggle${soon ? " is-coming-soon" : ""}`, data: { comingSoon: String(soon) } },
      h("input", {
        type: "checkbox", role: "switch", checked: on, disabled: soon, "aria-describedby": soon ? noteID : null,
        data: { activity: sign.activity, testid: "activity-toggle" },
        onchange: (event) => send("setActivity", { activity: sign.activity, enabled: event.target.checked }),
      }),
      h("span", { class: "toggle-track", "aria-hidden": "true" }),
      h("span", { class: "toggle-label" }, sign.title),
      soon ? h("span", { class: "toggle-note", id: noteID, data: { testid: "coming-soon" } }, "kommt bald") : null);
  });
  // Each sign's difficulty as the server's rules set it, and a way back to the start.
  const difficulty = view.signs.filter((sign) => card.difficulty && sign.activity in card.difficulty).map((sign) => {
    const level = card.difficulty[sign.activity].toLocaleString("de-DE", { minimumFractionDigits: 1, maximumFractionDigits: 2 });
    return h("div", { class: "difficulty", data: { testid: "difficulty", activity: sign.activity, level: String(card.difficulty[sign.activity]) } },
      h("span", { class: "difficulty-text" }, `${sign.title}: ${card.difficultyLabel[sign.activity]} (Stufe ${level})`),
      h("button", {
        type: "button", class: "parent-button quiet small", data: { testid: "reset-difficulty" },
        "aria-label": `Schwierigkeit von ${card.name} in ${sign.title} zurücksetzen`,
        onclick: () => send("resetDifficulty", { activity: sign.activity }),
      }, "Zurücksetzen"));
  });
  const modes = ["trace", "tap"].map((mode) =>
    h("label", { class: "choice" },
      h("input", {
        type: "radio", name: `mode-${card.id}`, value: mode, checked: card.numberChoiceMode === mode, data: { testid: "mode" },
        onchange: () => send("setNumberChoiceMode", { mode }),
      }),
      h("span", {}, MODE_LABELS[mode])));
  const limit = h("select", {
    class: "parent-select", data: { testid: "daily-limit" }, "aria-label": `${ui.t("dailyPlayTime")} ${card.name}`,
    onchange: (event) => send("setDailyLimit", { number: Number(event.target.value) }),
  }, view.dashboard.limitOptions.map((minutes) => h("option", { value: String(minutes), selected: minutes === card.limitMinutes }, `${minutes} min`)));
  limit.value = String(card.limitMinutes);
  const nameInput = h("input", { type: "text", class: "parent-input", value: card.name, maxlength: String(ui.catalog.timing.maxNameLength), "aria-label": "Neuer Name", data: { testid: "rename-input" } });
  const renameForm = h("form", {
    class: "rename-form", hidden: true,
    onsubmit: (event) => {
      event.preventDefault();
      send("renamePlayer", { name: nameInput.value.trim() });
    },
  }, nameInput, h("button", { type: "submit", class: "parent-button primary small", data: { testid: "rename-save" } }, "Speichern"));
  return h("article", { class: "parent-player", data: { testid: "player-card", player: card.id, band: card.band } },
    h("header", { class: "parent-player-head" },
      art(`avatar-${card.avatar}`, { className: "parent-avatar", width: 64, height: 64 }),
      h("h2", { class: "parent-player-name" }, card.name),
      h("div", { class: "parent-player-actions" },
        h("button", {
          type: "button", class: "parent-button quiet small", data: { testid: "rename" },
          onclick: () => {
            renameForm.hidden = !renameForm.hidden;
            if (!renameForm.hidden) nameInput.focus();
          },
        }, "Umbenennen"),
        h("button", {
          type: "button", class: "parent-button danger-quiet small", data: { testid: "remove-player" },
          onclick: () => ui.confirm({
            title: `${card.name} entfernen?`, message: `Alle Münzen und Level von ${card.name} werden gelöscht.`,
            confirm: "Entfernen", danger: true, onConfirm: () => send("removePlayer"),
          }),
        }, "Entfernen"))),
    renameForm,
    h("p", { class: "parent-played", data: { testid: "played" } }, ui.t("playedToday", { X: card.playedMinutes, Y: card.limitMinutes })),
    h("div", { class: "usage", data: { band: card.band, testid: "usage" }, role: "meter", "aria-label": `${ui.t("dailyPlayTime")}: ${card.name}`, "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(Math.round(Math.min(usage, 1) * 100)) },
      h("span", { class: "usage-fill", style: { width: `${Math.min(usage, 1) * 100}%` } })),
    h("p", { class: "parent-coins", data: { testid: "parent-coins" } }, art("coin", { className: "coin-icon" }), ui.t("coinsLabel", { X: card.coins })),
    h("div", { class: "parent-row" }, h("span", { class: "parent-label" }, "Aktivitäten"), h("div", { class: "toggles" }, activities)),
    h("div", { class: "parent-row" }, h("span", { class: "parent-label" }, "Wähle die Zahl"), h("div", { class: "choices", role: "radiogroup" }, modes)),
    difficulty.length ? h("div", { class: "parent-row" }, h("span", { class: "parent-label" }, "Schwierigkeit"), h("div", { class: "difficulties" }, difficulty)) : null,
    h("div", { class: "parent-row" }, h("label", { class: "parent-label" }, ui.t("dailyPlayTime")), limit),
    h("div", { class: "parent-row" },
      h("button", {
        type: "button", class: "parent-button danger-quiet", data: { testid: "reset" },
        onclick: () => ui.confirm({
          title: ui.t("resetQuestion"), message: ui.t("resetMessage"), confirm: "Zurücksetzen", danger: true,
          onConfirm: () => send("resetProgress"),
        }),
      }, ui.t("resetQuestion").replace(/\?$/, ""))));
}

function videoRow(video, ui) {
  const thumb = video.source === "upload" || !video.thumbnailURL || !navigator.onLine
    ? h("span", { class: "parent-thumb is-upload", "aria-hidden": "true" }, "▶")
    : h("img", { class: "parent-thumb", src: video.thumbnailURL, alt: "", width: 80, height: 45, loading: "lazy", referrerpolicy: "no-referrer" });
  if (thumb.tagName === "IMG") thumb.addEventListener("error", () => thumb.replaceWith(h("span", { class: "parent-thumb is-upload", "aria-hidden": "true" }, "▶")), { once: true });
  const added = new Date(video.addedAt);
  return h("li", { class: "parent-video", data: { testid: "parent-video", video: video.id, source: video.source } },
    thumb,
    h("div", { class: "parent-video-text" },
      h("span", { class: "parent-video-title" }, video.title),
      h("span", { class: "parent-video-meta" }, `${video.source === "upload" ? "Eigenes Video" : "YouTube"}${Number.isNaN(added.getTime()) ? "" : ` · ${added.toLocaleDateString("de-DE")}`}`)),
    h("button", {
      type: "button", class: "parent-button danger-quiet small", data: { testid: "remove-video" },
      onclick: () => ui.confirm({
        title: ui.t("removeVideo"), message: video.title, confirm: "Entfernen", danger: true,
        onConfirm: () => ui.send("removeVideo", { video: video.id }),
      }),
    }, "Entfernen"));
}

function addVideoForms(view, ui) {
  const link = h("input", { type: "text", inputmode: "url", spellcheck: "false", autocapitalize: "off", class: "parent-input", id: "video-link", placeholder: "https://www.youtube.com/watch?v=…", data: { testid: "video-link" }, autocomplete: "off" });
  const title = h("input", { type: "text", class: "parent-input", id: "video-title", maxlength: String(ui.catalog.timing.maxTitleLength), data: { testid: "video-title" }, autocomplete: "off" });
  const paste = navigator.clipboard && navigator.clipboard.readText
    ? h("button", {
      type: "button", class: "parent-button quiet small",
      onclick: async () => {
        try {
          link.value = (await navigator.clipboard.readText()).trim();
        } catch {
          ui.parentNotice("Bitte füge den Link selbst ein (lange auf das Feld tippen).", "info");
        }
      },
    }, ui.t("pasteFromClipboard"))
    : null;
  const linkForm = h("form", {
    class: "add-video", data: { testid: "add-video-form" },
    onsubmit: (event) => {
      event.preventDefault();
      ui.send("addVideo", { link: link.value.trim(), name: title.value.trim() });
    },
  },
  h("div", { class: "field" }, h("label", { for: "video-link" }, ui.t("pasteLink")), h("div", { class: "field-row" }, link, paste)),
  h("div", { class: "field" }, h("label", { for: "video-title" }, "Titel (optional)"), title),
  h("button", { type: "submit", class: "parent-button primary", data: { testid: "add-video" } }, ui.t("add")));

  const maxMB = Math.floor((view.dashboard.maxUploadBytes || 0) / (1024 * 1024));
  const fileName = h("span", { class: "file-name" }, "Keine Datei ausgewählt");
  const file = h("input", {
    type: "file", id: "video-file", accept: (ui.catalog.videoTypes || []).join(","), data: { testid: "video-file" },
    onchange: () => {
      const chosen = file.files && file.files[0];
      fileName.textContent = chosen ? chosen.name : "Keine Datei ausgewählt";
    },
  });
  const pick = h("label", { class: "file-pick" }, file, h("span", { class: "parent-button quiet small" }, "Datei auswählen"), fileName);
  const uploadTitle = h("input", { type: "text", class: "parent-input", id: "upload-title", maxlength: String(ui.catalog.timing.maxTitleLength), data: { testid: "upload-title" }, autocomplete: "off" });
  const uploadForm = h("form", {
    class: "add-video", data: { testid: "upload-form" },
    onsubmit: (event) => {
      event.preventDefault();
      const chosen = file.files && file.files[0];
      if (!chosen) return ui.parentNotice("Bitte wähle zuerst eine Videodatei aus.", "info");
      ui.upload(chosen, uploadTitle.value.trim() || chosen.name.replace(/\.[^.]+$/, ""));
    },
  },
  h("div", { class: "field" }, h("span", { class: "field-label" }, `Eigenes Video hochladen${maxMB && ui.catalog.lines.videoFormats ? ` (${ui.catalog.lines.videoFormats}, bis ${maxMB} MB)` : ""}`), pick),
  h("div", { class: "field" }, h("label", { for: "upload-title" }, "Titel (optional)"), uploadTitle),
  h("button", { type: "submit", class: "parent-button primary", data: { testid: "upload" } }, "Hochladen"));
  return h("details", { class: "add-video-box", open: true },
    h("summary", { class: "parent-heading-small" }, ui.t("addVideo")),
    linkForm, uploadForm);
}

/** The app's calm mode (motion.js): no confetti, no flying coin, still characters, instant cuts. */
function calmSection() {
  const input = h("input", { type: "checkbox", role: "switch", checked: calmMode(), data: { testid: "calm-mode" }, onchange: (event) => setCalmMode(event.target.checked) });
  return h("section", { class: "parent-section calm-section" },
    h("h2", { class: "parent-heading" }, "Bewegung"),
    h("label", { class: "toggle" }, input, h("span", { class: "toggle-track", "aria-hidden": "true" }), h("span", { class: "toggle-label" }, "Ruhiger Modus: keine Animationen")));
}

const dashboard = {
  build(view, ui) {
    const notice = h("p", { class: "parent-notice", role: "status", "aria-live": "polite", data: { testid: "parent-notice" } });
    return h("section", { class: "screen screen-dashboard" },
      h("header", { class: "parent-top" },
        h("button", { type: "button", class: "parent-button back", data: { testid: "parent-back" }, onclick: () => ui.send("back") },
          art("back-button", { className: "parent-back-icon", width: 40, height: 40 }), ui.t("back")),
        h("h1", { class: "parent-title" }, ui.t("parentArea"))),
      notice,
      h("div", { class: "parent-body" },
        h("div", { class: "parent-players" }),
        h("div", { class: "parent-side" })));
  },
  update(element, view, ui) {
    if (!view.dashboard) return;
    const players = element.querySelector(".parent-players");
    const playersKey = JSON.stringify([view.dashboard.players, view.signs.map((s) => s.title)]);
    if (players.dataset.key !== playersKey) {
      players.dataset.key = playersKey;
      const addName = h("input", { type: "text", class: "parent-input", maxlength: String(ui.catalog.timing.maxNameLength), placeholder: "Name", "aria-label": "Name des Kindes", data: { testid: "new-player-name" } });
      fill(players,
        view.dashboard.players.map((card) => playerCard(card, view, ui)),
        h("form", {
          class: "add-player", data: { testid: "add-player-form" },
          onsubmit: (event) => {
            event.preventDefault();
            ui.send("addPlayer", { name: addName.value.trim() });
          },
        }, h("span", { class: "parent-label" }, "Kind hinzufügen"), addName, h("button", { type: "submit", class: "parent-button primary small", data: { testid: "add-player" } }, "Hinzufügen")));
    }
    const side = element.querySelector(".parent-side");
    const videosKey = JSON.stringify([view.dashboard.videos.map((v) => [v.id, v.title]), navigator.onLine]);
    if (side.dataset.key !== videosKey) {
      const keepForms = side.querySelector(".add-video-box");
      const before = side.querySelectorAll(".parent-video").length;
      side.dataset.key = videosKey;
      // A video was added: the forms start empty again.
      if (keepForms && view.dashboard.videos.length > before) {
        for (const input of keepForms.querySelectorAll("input")) {
          input.value = "";
          input.dispatchEvent(new Event("change"));
        }
      }
      const list = view.dashboard.videos.length
        ? h("ul", { class: "parent-videos", data: { testid: "parent-videos" } }, view.dashboard.videos.map((video) => videoRow(video, ui)))
        : h("p", { class: "parent-empty" }, ui.t("noVideos"));
      const keepCalm = side.querySelector(".calm-section");
      fill(side, section(ui.t("approvedVideos"), list), keepForms || addVideoForms(view, ui), keepCalm || calmSection());
    }
  },
};

export const parentScreens = { parentGate: gate, parentDashboard: dashboard };
