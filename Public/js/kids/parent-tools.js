// The parent area's helpers: its notice line, the in-page question ("Video entfernen?", and the child's
// "Neu anfangen?") and the film upload. `page` is the page's shared context (see kids.js).
import { apiHeaders } from "../app.js";
import { h } from "./dom.js";
import { parentMessage } from "./parent.js";

/** A short message at the top of the parent area ("Gespeichert.", an error). */
export function parentNotice(page, text, kind = "info") {
  const notice = page.state.current && page.state.current.element.querySelector(".parent-notice");
  if (!notice) return;
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = false;
  clearTimeout(notice._timer);
  if (kind === "ok") notice._timer = setTimeout(() => { notice.textContent = ""; }, page.every("parentNoticeSeconds"));
}

/** An in-page question ("Video entfernen?") with Abbrechen and a confirming button. */
export function confirmDialog(page, { title, message, confirm, danger = false, kids = false, onConfirm }) {
  const previous = document.activeElement;
  const close = () => {
    layer.remove();
    if (previous && previous.focus) previous.focus({ preventScroll: true });
  };
  const yes = h("button", { type: "button", class: `parent-button ${danger ? "danger" : "primary"}`, data: { testid: "confirm-yes" }, onclick: () => { close(); onConfirm(); } }, confirm);
  // A child is never asked to "cancel": the way out of the child's question says what happens.
  const no = h("button", { type: "button", class: "parent-button quiet", data: { testid: "confirm-no" }, onclick: close }, page.t(kids ? "keepPlaying" : "gateCancel"));
  // A child's question (the puzzle's "Neu anfangen?") gets big buttons, like every child's target.
  const layer = h("div", { class: `dialog-layer${kids ? " is-kids" : ""}`, data: { testid: "confirm" } },
    h("div", { class: "dialog", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "dialog-title", "aria-describedby": "dialog-text" },
      h("h2", { id: "dialog-title", class: "dialog-title" }, title),
      h("p", { id: "dialog-text", class: "dialog-text" }, message),
      h("div", { class: "dialog-actions" }, no, yes)));
  layer.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });
  page.main.append(layer);
  no.focus({ preventScroll: true });
}

/** Uploads a film file from the parent area and shows the answer. */
export function upload(page, file, title) {
  const max = page.state.view.dashboard ? page.state.view.dashboard.maxUploadBytes : 0;
  if (max && file.size > max) {
    parentNotice(page, `Das Video ist zu groß (höchstens ${Math.floor(max / (1024 * 1024))} MB).`, "error");
    return Promise.resolve();
  }
  parentNotice(page, "Das Video wird hochgeladen …", "info");
  return page.enqueue(async () => {
    let response;
    try {
      response = await fetch(`/api/kids/videos?title=${encodeURIComponent(title)}`, {
        method: "POST", credentials: "same-origin",
        // A file the browser cannot type goes as the first type the server takes; the server reads its bytes anyway.
        headers: apiHeaders({ "Content-Type": file.type || page.state.catalog.videoTypes[0] }),
        body: file,
      });
    } catch {
      parentNotice(page, "Der Server ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.", "error");
      return;
    }
    const body = await response.json().catch(() => null);
    if (body && body.view) await page.apply(body, { refusedCode: response.ok ? null : body.code });
    if (response.ok) parentNotice(page, "Das Video ist jetzt in der Liste.", "ok");
    else if (!body || !body.view) {
      const code = body && body.code ? body.code : response.status === 413 ? "upload_too_large" : response.status === 415 ? "unsupported_video_type" : null;
      parentNotice(page, parentMessage(code, page.ui), "error");
    }
  });
}
