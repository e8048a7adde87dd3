// DOM helpers every page shares: `h()` builds an element tree, `$` finds one, and a dialog's backdrop click closes it.

/** The first element matching `selector` inside `root` (the document by default). */
export const $ = (selector, root = document) => root.querySelector(selector);

/**
 * Creates an element: `h("p", { class: "x" }, "text", child)`. `props`: class, text, html (trusted constants
 * only), data (an object for the dataset), style (a string, or an object of style properties), on<event>
 * listeners, the properties value/checked/hidden/disabled, and any other attribute (true is an empty attribute;
 * null, undefined and false leave it out). Children may be nested arrays; strings become text.
 */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "data" && typeof value === "object") Object.assign(element.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (key === "text") element.textContent = value;
    else if (key === "html") element.innerHTML = value;
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "hidden" || key === "disabled") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) if (child != null && child !== false) element.append(child);
  return element;
}

/** A click on a dialog's backdrop (outside its box) closes it, as Escape does; `canClose` can hold it open. */
export function closeOnBackdrop(dialog, canClose = () => true) {
  dialog.addEventListener("click", (event) => {
    if (event.target !== dialog || !canClose()) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });
}

/**
 * Marks a button as working without disabling it: a disabled button drops the keyboard focus to <body>, and a
 * keyboard or screen-reader user would have to find their place again. Its handler ignores presses meanwhile.
 */
export function setBusy(button, busy) {
  if (busy) {
    button.setAttribute("aria-busy", "true");
    button.setAttribute("aria-disabled", "true");
  } else {
    button.removeAttribute("aria-busy");
    button.removeAttribute("aria-disabled");
  }
}
