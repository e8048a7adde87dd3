// Challenges: what one can do with a post: congrats, comments, the public link, and a report.
import { announce } from "../lib/announce.js";
import { api } from "../lib/api.js";
import { $, closeOnBackdrop, h, setBusy } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { itemMessage } from "./feed.js";
import { icon } from "./icons.js";
import { commentLimit, overLimit, renderCounter } from "./limits.js";
import { renderShareLink, setShareStatus } from "./share.js";
import { enc, nextId, state } from "./state.js";
import { timeElement } from "./time.js";

// MARK: Congrats

export function renderCongrats(entry) {
  const button = entry.element.querySelector("[data-testid=congrats]");
  if (!button) return;
  button.setAttribute("aria-pressed", String(entry.item.congratulated));
  button.querySelector("[data-testid=congrats-count]").textContent = String(entry.item.congrats);
}

/** Answers at once; the server's count replaces the guess, and a failure puts the old one back. */
export async function toggleCongrats(entry) {
  if (entry.pending) return;
  const before = { congrats: entry.item.congrats, congratulated: entry.item.congratulated };
  const wanted = !before.congratulated;
  entry.pending = true;
  entry.item = { ...entry.item, congratulated: wanted, congrats: Math.max(0, before.congrats + (wanted ? 1 : -1)) };
  renderCongrats(entry);
  itemMessage(entry, "");
  try {
    const answer = await api(`/api/activities/${enc(entry.item.id)}/congrats`, { method: wanted ? "POST" : "DELETE" });
    entry.item = { ...entry.item, congrats: answer.congrats, congratulated: answer.congratulated };
  } catch (error) {
    entry.item = { ...entry.item, ...before };
    itemMessage(entry, `Your congrats didn’t go through: ${error.message}`);
  } finally {
    entry.pending = false;
    renderCongrats(entry);
  }
}

// MARK: Comments

export function thread(entry) {
  const item = entry.item;
  const inputId = `comment-input-${item.id}`;
  const counterId = `comment-count-${item.id}`;
  const form = h("form", { class: "ch-comment-form", novalidate: true, onsubmit: (event) => postComment(event, entry) },
    h("label", { class: "vh", for: inputId, text: "Write a comment" }),
    h("textarea", { class: "ch-textarea", id: inputId, rows: "2", placeholder: "Say something kind…", "aria-describedby": counterId,
      "data-testid": "comment-input", oninput: () => updateCommentCounter(form) }),
    h("button", { class: "button ch-primary ch-small", type: "submit", "data-testid": "comment-post", disabled: true }, "Post"),
    h("p", { class: "ch-counter ch-comment-count", id: counterId, "data-testid": "comment-count", hidden: true }));
  return h("div", { class: "ch-thread", id: `thread-${item.id}`, hidden: true, "data-testid": "comment-thread" },
    h("ol", { class: "ch-comments", "data-testid": "comment-list", "aria-label": `Comments on ${item.title}` }),
    h("button", { class: "button quiet ch-small ch-more-comments", type: "button", hidden: true, "data-testid": "comment-more",
      onclick: () => loadComments(entry, { more: true }) }, "Show more comments"),
    h("p", { class: "ch-comments-empty muted small", hidden: true, text: "No comments yet — be the first to cheer them on." }),
    h("p", { class: "message error", role: "alert", "data-role": "thread-error" }),
    form);
}

/** Post is there once there is something to say; the counter shows itself as the comment nears the server's limit. */
export function updateCommentCounter(form) {
  const input = form.querySelector("[data-testid=comment-input]");
  const counter = form.querySelector("[data-testid=comment-count]");
  const button = form.querySelector("[data-testid=comment-post]");
  const { count } = renderCounter(counter, input, commentLimit());
  counter.hidden = !(commentLimit() > 0 && count >= commentLimit() * 0.8);
  if (button.getAttribute("aria-busy") !== "true") button.disabled = !input.value.trim();
}

export function toggleThread(entry) {
  const toggle = entry.element.querySelector("[data-testid=comment-toggle]");
  const box = entry.element.querySelector(".ch-thread");
  const open = toggle.getAttribute("aria-expanded") !== "true";
  toggle.setAttribute("aria-expanded", String(open));
  box.hidden = !open;
  // Opened again, the thread is read again: comments added or removed meanwhile show.
  if (open) entry.thread.loaded ? refreshThread(entry) : loadComments(entry);
}

/** Whether the post's comment thread is open on the page. */
export function threadOpen(entry) {
  return entry.element.querySelector("[data-testid=comment-toggle]")?.getAttribute("aria-expanded") === "true";
}

/**
 * The thread's comments read again from the start, at least as many as were shown, so a comment someone added or
 * removed elsewhere shows in an open thread. The keyboard stays on the comment it was on.
 */
export async function refreshThread(entry) {
  const t = entry.thread;
  if (!t.loaded) return;
  if (t.loading) {
    t.stale = true;
    return;
  }
  t.loading = true;
  const box = entry.element.querySelector(".ch-thread");
  const list = box.querySelector(".ch-comments");
  const moreButton = box.querySelector(".ch-more-comments");
  const base = `/api/activities/${enc(entry.item.id)}/comments`;
  try {
    let page = await api(base);
    let comments = page.comments;
    while (page.next && comments.length < list.children.length) {
      page = await api(`${base}?cursor=${enc(page.next)}`);
      comments = comments.concat(page.comments);
    }
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    const focusedId = focused?.closest(".ch-comment")?.dataset.id;
    const focusedRole = focused?.dataset.testid;
    list.replaceChildren(...comments.map((comment) => commentRow(entry, comment)));
    if (focusedId) {
      const row = [...list.children].find((child) => child.dataset.id === focusedId);
      const target = row && (focusedRole ? row.querySelector(`[data-testid=${focusedRole}]`) : row);
      (target || entry.element.querySelector("[data-testid=comment-input]")).focus({ preventScroll: true });
    }
    t.next = page.next || null;
    entry.item = { ...entry.item, comments: page.total };
  } catch {
    // The thread stays as it was; the next change, or opening it again, reads it again.
  } finally {
    t.loading = false;
    moreButton.hidden = !t.next;
    renderCommentCount(entry);
    if (t.stale) {
      t.stale = false;
      refreshThread(entry);
    }
  }
}

export function renderCommentCount(entry) {
  const count = entry.element.querySelector("[data-role=comment-count]");
  if (count) count.textContent = entry.item.comments ? String(entry.item.comments) : "";
  const list = entry.element.querySelector(".ch-comments");
  entry.element.querySelector(".ch-comments-empty").hidden = !entry.thread.loaded || list.children.length > 0;
}

/** The thread reads oldest first: the first page, then the later ones after it with the `next` cursor. */
async function loadComments(entry, { more = false } = {}) {
  const t = entry.thread;
  if (t.loading || (more && !t.next)) return;
  t.loading = true;
  const box = entry.element.querySelector(".ch-thread");
  const list = box.querySelector(".ch-comments");
  const moreButton = box.querySelector(".ch-more-comments");
  const error = box.querySelector("[data-role=thread-error]");
  error.textContent = "";
  setBusy(moreButton, true);
  const cursor = more ? `?cursor=${enc(t.next)}` : "";
  try {
    const page = await api(`/api/activities/${enc(entry.item.id)}/comments${cursor}`);
    // A comment posted here may already be shown when its page arrives.
    const shown = new Set([...list.children].map((row) => row.dataset.id));
    const rows = page.comments.filter((comment) => !shown.has(comment.id)).map((comment) => commentRow(entry, comment));
    if (more) list.append(...rows);
    else list.replaceChildren(...rows);
    t.next = page.next || null;
    t.loaded = true;
    entry.item = { ...entry.item, comments: page.total };
    if (more && rows.length) rows[0].focus();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    t.loading = false;
    setBusy(moreButton, false);
    moreButton.hidden = !t.next;
    renderCommentCount(entry);
  }
}

function commentRow(entry, comment) {
  const row = h("li", { class: "ch-comment", "data-id": comment.id, tabindex: "-1" },
    h("span", { class: "ch-avatar ch-avatar-xs", "aria-hidden": "true", text: comment.author.initial }),
    h("div", { class: "ch-comment-main" },
      h("p", { class: "ch-comment-meta" }, h("span", { class: "ch-comment-name", text: comment.author.displayName }), " · ",
        timeElement(comment.createdAt)),
      h("p", { class: "ch-comment-body", text: comment.body })));
  // Its writer may delete a comment, and so may the post's author (the server allows both).
  if (comment.isMine || entry.item.isMine) {
    row.append(h("button", { class: "ch-comment-delete", type: "button", "data-testid": "comment-delete",
      "aria-label": comment.isMine ? "Delete your comment" : `Delete ${comment.author.displayName}’s comment`,
      onclick: () => deleteComment(entry, comment, row) }, comment.isMine ? "Delete" : "Remove"));
  }
  return row;
}

async function postComment(event, entry) {
  event.preventDefault();
  const form = event.currentTarget;
  const input = form.querySelector("textarea");
  const button = form.querySelector("[data-testid=comment-post]");
  const body = input.value.trim();
  const error = entry.element.querySelector("[data-role=thread-error]");
  if (!body || button.getAttribute("aria-busy") === "true") return;
  const over = overLimit(body, commentLimit());
  if (over) {
    error.textContent = `Your comment is ${plural(over, "character")} too long — it can have up to ${commentLimit()}.`;
    input.focus();
    return;
  }
  setBusy(button, true);
  error.textContent = "";
  try {
    const comment = await api(`/api/activities/${enc(entry.item.id)}/comments`, { method: "POST", body: { body } });
    const list = entry.element.querySelector(".ch-comments");
    // The live stream may have brought the thread (with this comment) back first.
    if (![...list.children].some((row) => row.dataset.id === comment.id)) {
      list.append(commentRow(entry, comment));
      entry.item = { ...entry.item, comments: entry.item.comments + 1 };
    }
    input.value = "";
    announce("Comment posted.");
    // Post has nothing left to send (it is disabled below): the keyboard goes to the empty field, ready for another.
    if (form.contains(document.activeElement) || document.activeElement === document.body) input.focus({ preventScroll: true });
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    setBusy(button, false);
    updateCommentCounter(form);
    renderCommentCount(entry);
  }
}

async function deleteComment(entry, comment, row) {
  const error = entry.element.querySelector("[data-role=thread-error]");
  error.textContent = "";
  try {
    await api(`/api/comments/${enc(comment.id)}`, { method: "DELETE" });
    row.remove();
    entry.item = { ...entry.item, comments: Math.max(0, entry.item.comments - 1) };
    renderCommentCount(entry);
    announce("Comment deleted.");
    entry.element.querySelector("[data-testid=comment-input]").focus();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

// MARK: Public link and report

export function publicLinkRow(entry) {
  const input = h("input", { type: "checkbox", role: "switch", "data-testid": "public-link", checked: entry.item.publicLink,
    onchange: (event) => setPublicLink(entry, event.currentTarget.checked) });
  return h("div", { class: "ch-post-owner" },
    h("label", { class: "switch ch-mini-switch" }, input, "Public link: ",
      h("span", { class: "ch-switch-state", "data-role": "public-state", text: entry.item.publicLink ? "on" : "off" })));
}

function renderPublicLink(entry) {
  const on = entry.item.publicLink;
  const input = entry.element.querySelector("[data-testid=public-link]");
  if (input) input.checked = on;
  const label = entry.element.querySelector("[data-role=public-state]");
  if (label) label.textContent = on ? "on" : "off";
  if (state.share.entry === entry) renderShareLink(entry);
}

/**
 * The switch moves at once; the server hears one change at a time, so quick on-off-on clicks end with the server
 * holding what the switch shows (two requests in flight could land in either order).
 */
export function setPublicLink(entry, on) {
  if (!entry.publicLinkSending) entry.publicLinkStored = entry.item.publicLink;
  entry.item = { ...entry.item, publicLink: on };
  renderPublicLink(entry);
  setShareStatus("");
  if (!entry.publicLinkSending) entry.publicLinkSending = sendPublicLink(entry).finally(() => { entry.publicLinkSending = null; });
}

async function sendPublicLink(entry) {
  try {
    while (entry.item.publicLink !== entry.publicLinkStored) {
      const on = entry.item.publicLink;
      const item = await api(`/api/activities/${enc(entry.item.id)}`, { method: "PATCH", body: { publicLink: on } });
      entry.publicLinkStored = item.publicLink;
      if (entry.item.publicLink === on) {
        entry.item = { ...entry.item, ...item };
        announce(on ? "Public link is on: anyone with the link can see it." : "Public link is off.");
      }
    }
  } catch (error) {
    entry.item = { ...entry.item, publicLink: entry.publicLinkStored };
    itemMessage(entry, error.message);
    if (state.share.entry === entry) setShareStatus(error.message, "error");
  }
  renderPublicLink(entry);
}

export function itemMenu(entry) {
  const menuId = nextId("menu");
  const toggle = h("button", { class: "ch-menu-toggle", type: "button", "aria-expanded": "false", "aria-controls": menuId,
    "aria-label": `More options for ${entry.item.actor.displayName}’s post`, "data-testid": "item-menu" }, icon("more"));
  const panel = h("div", { class: "ch-menu-panel", id: menuId, hidden: true },
    h("button", { class: "ch-menu-item", type: "button", "data-testid": "report",
      onclick: () => {
        closeMenu();
        openReport(entry, toggle);
      } }, icon("flag"), "Report…"));
  const wrap = h("div", { class: "ch-menu" }, toggle, panel);
  function closeMenu() {
    toggle.setAttribute("aria-expanded", "false");
    panel.hidden = true;
  }
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    panel.hidden = !open;
    if (open) panel.querySelector("button").focus();
  });
  wrap.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !panel.hidden) {
      event.stopPropagation();
      closeMenu();
      toggle.focus();
    }
  });
  wrap.addEventListener("focusout", (event) => {
    if (!wrap.contains(event.relatedTarget)) closeMenu();
  });
  return wrap;
}

function openReport(entry, returnTo) {
  state.report = { entry, returnTo };
  $("#report-reason").value = "";
  $("#report-reason").removeAttribute("aria-invalid");
  $("#report-error").textContent = "";
  $("#report-dialog").returnValue = "";
  $("#report-dialog").showModal();
}

async function onReportClosed() {
  const { entry, returnTo } = state.report;
  state.report = { entry: null };
  if (!entry) return;
  if ($("#report-dialog").returnValue !== "report") {
    returnTo?.focus();
    return;
  }
  const reason = $("#report-reason").value.trim();
  try {
    await api(`/api/activities/${enc(entry.item.id)}/report`, { method: "POST", body: reason ? { reason } : {} });
    const menu = entry.element.querySelector(".ch-menu");
    const note = h("p", { class: "ch-reported", "data-testid": "report-done", tabindex: "-1", text: "Thanks — we’ll take a look." });
    entry.element.querySelector(".ch-post-actions").after(note);
    menu?.remove();
    note.focus();
  } catch (error) {
    itemMessage(entry, error.message);
    returnTo?.focus();
  }
}

/** The report dialog: a reason over the server's limit is not sent. */
export function wireReport() {
  // Report
  const report = $("#report-dialog");
  report.addEventListener("close", onReportClosed);
  // A reason over the server's limit is not sent: the dialog stays and says by how much.
  $("#report-form").addEventListener("submit", (event) => {
    const field = $("#report-reason");
    const over = event.submitter && event.submitter.value === "report" ? overLimit(field.value, commentLimit()) : 0;
    $("#report-error").textContent = over ? `That’s ${plural(over, "character")} too long — a reason can have up to ${commentLimit()}.` : "";
    if (!over) return;
    event.preventDefault();
    field.setAttribute("aria-invalid", "true");
    field.focus();
  });
  closeOnBackdrop(report);
}
