// Small pieces the children's screens share: plaques, wooden buttons, the lock over a locked sign.
import { art, h } from "./dom.js";

export function plaque(text, { testid, tag = "h1", className = "" } = {}) {
  return h(tag, { class: `plaque ${className}`.trim(), data: testid ? { testid } : {} }, text);
}

export function woodIconButton(name, label, testid, onclick) {
  return h("button", { type: "button", class: "icon-button", "aria-label": label, title: label, data: { testid }, onclick },
    art(name, { width: 96, height: 96 }));
}

/** "Zurück" as a wooden button with the arrow. */
export function backButton(ui, testid = "back-button") {
  return h("button", { type: "button", class: "wood-button back-wood", data: { testid }, onclick: () => ui.send("back") },
    art("back-button", { className: "wood-button-icon", width: 56, height: 56 }), h("span", {}, ui.t("back")));
}

export function lockOverlay() {
  return art("sign-locked", { className: "lock-overlay" });
}

/** A child's animal picture (the server keeps it per child). */
export function avatarOf(player) {
  return `avatar-${player.avatar}`;
}
