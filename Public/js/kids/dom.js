// Small DOM helpers for the Waldabenteuer screens.

/**
 * Makes an element: `h("button", { class: "x", data: { testid: "y" }, onclick }, "Text", child)`.
 * Keys starting with "on" become listeners; `data` fills the dataset; `false`/null attributes are left out.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === false || value == null) continue;
    if (key === "class") element.className = value;
    else if (key === "data") Object.assign(element.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

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

/** An id for an event, so a retried request is not applied twice. */
export function newEventID() {
  if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
