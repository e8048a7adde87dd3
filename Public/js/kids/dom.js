// Small DOM helpers for the Waldabenteuer screens, beside the shared ones every page uses (js/lib/).
import { h } from "../lib/dom.js";

export { h };
/** An id for an event, so a retried request is not applied twice (the shared idempotency key). */
export { newIdempotencyKey as newEventID } from "../lib/api.js";

/** An image from /img/kids/. Art still being drawn simply stays out of sight until it exists. */
export function art(name, { alt = "", className = "", width, height } = {}) {
  const image = h("img", {
    src: `/img/kids/${name}.svg`, alt, class: className, width, height, draggable: "false", decoding: "async",
  });
  image.addEventListener("error", () => image.classList.add("is-missing"), { once: true });
  return image;
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.textContent = "";
  for (const child of children.flat()) if (child != null && child !== false) element.append(child);
  return element;
}

/** Sets `element.textContent` only when it changed (keeps screen readers and animations calm). */
export function setText(element, text) {
  if (element && element.textContent !== text) element.textContent = text;
}

/** Sets a data attribute only when it changed. */
export function setData(element, key, value) {
  const text = String(value);
  if (element && element.dataset[key] !== text) element.dataset[key] = text;
}

export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
