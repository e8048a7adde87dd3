// Challenges: the feed: pages, filters, items arriving live in their place by time, and a post's card.
import { announce } from "../lib/announce.js";
import { api } from "../lib/api.js";
import { $, h, setBusy } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { fetchStagger, playStagger } from "../motion.js";
import { icon } from "./icons.js";
import {
  itemMenu, publicLinkRow, refreshThread, renderCommentCount, renderCongrats, thread, threadOpen, toggleCongrats, toggleThread,
} from "./posts.js";
import { paneVisible, setView } from "./sections.js";
import { openShare, renderShareLink } from "./share.js";
import { nextId, state } from "./state.js";
import { timeElement } from "./time.js";

// MARK: Feed

function admits(filter, item) {
  if (filter === "challenges") return item.type === "challenge_completed";
  if (filter === "social") return item.type === "follow";
  return true;
}

export async function loadFeed({ more = false } = {}) {
  const feed = state.feed;
  const list = $("#feed-list");
  const button = $("#load-more");
  if (more && (!feed.next || feed.loading)) return;
  const token = more ? feed.token : ++feed.token;
  if (!more) {
    feed.entries.clear();
    feed.next = null;
    feed.loaded = false;
    list.replaceChildren();
    $("#feed-empty").hidden = true;
  }
  feed.loading = true;
  list.setAttribute("aria-busy", "true");
  setBusy(button, true);
  $("#feed-error").textContent = "";
  // The server says how many items a page holds; the page follows its `next` cursor.
  const query = new URLSearchParams({ filter: feed.filter });
  if (more) query.set("cursor", feed.next);
  try {
    const page = await api(`/api/feed?${query}`);
    if (token !== feed.token) return;
    const added = [];
    for (const item of page.items) {
      if (feed.entries.has(item.id)) continue;
      const entry = makeEntry(item);
      list.append(entry.element);
      added.push(entry);
    }
    feed.next = page.next || null;
    feed.loaded = true;
    if (more && added.length && !feed.next) added[0].element.querySelector("[data-focus]")?.focus();
  } catch (error) {
    if (token === feed.token) $("#feed-error").textContent = error.message;
  } finally {
    if (token === feed.token) {
      feed.loading = false;
      list.removeAttribute("aria-busy");
      setBusy(button, false);
      renderFeedChrome();
    }
  }
}

/** The empty state and the "Load more" button. */
function renderFeedChrome() {
  const feed = state.feed;
  const empty = $("#feed-empty");
  empty.hidden = !feed.loaded || feed.entries.size > 0;
  if (!empty.hidden) {
    const words = feed.filter === "social"
      ? ["Nothing here yet", "New followers show up here."]
      // Said to people who follow no one and to people whose friends have not posted yet alike, so true for both.
      : ["Nothing here yet", "Completions of the people you follow show up here — and yours too."];
    const go = h("button", { class: "button ch-small", type: "button", onclick: () => setView("people", { focus: "#follow-username" }) },
      icon("userPlus"), "Find people");
    empty.replaceChildren(h("p", { class: "ch-empty-title", text: words[0] }), h("p", { class: "muted small", text: words[1] }),
      feed.filter === "social" ? null : go);
  }
  $("#load-more").hidden = !feed.next;
}

function setFilter(filter) {
  if (state.feed.filter === filter) return;
  state.feed.filter = filter;
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.setAttribute("aria-pressed", String(button.dataset.filter === filter));
  }
  loadFeed();
}

/** A feed item and its card; `item` is replaced by the server's answers. */
function makeEntry(item) {
  const entry = { item, element: null, pending: false, thread: { loaded: false, next: null, loading: false } };
  entry.element = item.type === "challenge_completed" ? completionCard(entry) : compactRow(entry);
  state.feed.entries.set(item.id, entry);
  return entry;
}

/** Takes a FeedItemView from the stream or a completion: in its place by time, if the filter shows it and it is new. */
export function receiveItem(item, { live }) {
  const feed = state.feed;
  if (!feed.loaded || !admits(feed.filter, item) || feed.entries.has(item.id)) return false;
  if (item.status && item.status !== "visible" && !item.isMine) return false;
  const entry = makeEntry(item);
  insertByTime(entry.element, item.createdAt);
  renderFeedChrome();
  // One's own post is no news: whether the stream or the completion's answer brings it first, it arrives quietly.
  if (live && !item.isMine) {
    entry.element.classList.add("is-new");
    entry.element.addEventListener("animationend", () => entry.element.classList.remove("is-new"), { once: true });
    // The entrance is the server's stagger for one item (opacity only in calm mode).
    fetchStagger({ config: "standard", count: 1 })
      .then((timeline) => playStagger(timeline, [entry.element]))
      .catch(() => null);
    if (!paneVisible("feed")) $("#feed-dot").hidden = false;
    announce(`New in your feed: ${item.actor.displayName} — ${item.title}`);
  }
  return true;
}

/** Newest first: before the first card that is older (an item caught up after a reconnect may be older than one that came live). */
function insertByTime(element, createdAt) {
  const list = $("#feed-list");
  const older = [...list.children].find((row) => {
    const shown = state.feed.entries.get(row.dataset.id);
    return shown && shown.element !== element && shown.item.createdAt < createdAt;
  });
  list.insertBefore(element, older || null);
}

/**
 * Brings the feed up to date when the stream opens: what was posted while no stream was attached (before the
 * first connection, or while it was down) is in the newest page. The server counts on this: it drops every
 * page's stream when it loses its own notifications (FeedLive), so that the pages reload what they missed.
 */
export async function catchUpFeed() {
  const feed = state.feed;
  if (feed.loading) return;
  // A feed whose last load failed (the server was down) loads again whole once the stream is back.
  if (!feed.loaded) {
    if ($("#feed-error").textContent) loadFeed();
    return;
  }
  const token = feed.token;
  try {
    const page = await api(`/api/feed?${new URLSearchParams({ filter: feed.filter })}`);
    if (token !== feed.token) return;
    for (const item of [...page.items].reverse()) receiveItem(item, { live: true });
  } catch {
    // Nothing is lost: the next time the stream opens, it catches up again.
  }
}

export function removeItem(id) {
  const entry = state.feed.entries.get(id);
  if (!entry) return;
  const hadFocus = entry.element.contains(document.activeElement);
  const next = entry.element.nextElementSibling || entry.element.previousElementSibling;
  entry.element.remove();
  state.feed.entries.delete(id);
  if (state.share.entry === entry) $("#share-panel").close();
  if (hadFocus) (next ? next.querySelector("[data-focus]") : $("#feed-title"))?.focus();
  renderFeedChrome();
}

function compactRow(entry) {
  const item = entry.item;
  return h("li", { class: `ch-item ch-item-compact is-${item.type}`, "data-testid": "feed-item", "data-id": item.id, "data-type": item.type },
    h("span", { class: "ch-avatar ch-avatar-sm", "aria-hidden": "true", text: item.actor.initial }),
    h("p", { class: "ch-compact-text", tabindex: "-1", "data-focus": "" },
      h("span", { class: "ch-compact-title", text: item.title }), " ",
      h("span", { class: "ch-compact-time" }, timeElement(item.createdAt))),
    item.type === "follow" ? icon("userPlus", "ch-compact-icon") : null);
}

function completionCard(entry) {
  const item = entry.item;
  const titleId = nextId("item-title");
  const li = h("li", { class: "ch-item", "data-testid": "feed-item", "data-id": item.id, "data-type": item.type });
  const post = h("article", { class: "ch-post", "aria-labelledby": titleId });
  const head = h("header", { class: "ch-post-head" },
    h("span", { class: "ch-avatar", "aria-hidden": "true", text: item.actor.initial }),
    h("div", { class: "ch-post-who" },
      h("h3", { class: "ch-post-title", id: titleId, tabindex: "-1", "data-focus": "", text: item.title }),
      h("p", { class: "ch-post-meta" }, h("span", { class: "ch-post-name", text: item.actor.displayName }), " · ", timeElement(item.createdAt))),
    icon("trophy", "ch-trophy"),
    item.isMine ? null : itemMenu(entry));
  post.append(head);
  post.append(h("p", { class: "ch-post-status", "data-testid": "post-status" }));
  renderStatus(entry, post);
  if (item.photoUrl) {
    post.append(h("figure", { class: "ch-post-photo" },
      h("img", { src: item.photoUrl, loading: "lazy", decoding: "async",
        alt: `Photo for ${item.challengeTitle || "the challenge"} by ${item.actor.displayName}` }),
      // A completion revoked after review is no longer one: no badge.
      item.status === "revoked" ? null : h("span", { class: "ch-complete-badge" }, icon("check"), "Challenge Complete")));
  }
  if (item.story) post.append(h("p", { class: "ch-post-story", text: item.story }));
  if (item.points != null) {
    post.append(h("p", { class: "ch-earned", "data-testid": "points-earned" }, icon("star"), `${plural(item.points, "point")} earned`));
  }
  post.append(postActions(entry, titleId));
  // A revoked post has nothing left to share: no public link switch (the server sends no share text for it).
  if (item.isMine && item.status !== "revoked") post.append(publicLinkRow(entry));
  post.append(h("p", { class: "ch-post-msg", role: "status", "data-role": "message" }));
  post.append(thread(entry));
  li.append(post);
  return li;
}

/** One's own post that is not in feeds says why; the line is empty (and hidden) otherwise. */
function renderStatus(entry, root = entry.element) {
  const line = root.querySelector("[data-testid=post-status]");
  if (!line) return;
  const item = entry.item;
  const text = !item.isMine || !item.status || item.status === "visible" ? ""
    : item.status === "revoked" ? "Removed after review — only you can see this."
    : "Hidden from feeds while we take a look.";
  line.textContent = text;
  line.hidden = !text;
}

/** A card whose counts or state moved elsewhere (someone's congrats or comment, another tab, a review): updated where it is. */
export function updateItem(item) {
  const entry = state.feed.entries.get(item.id);
  if (!entry) return;
  if (!item.isMine && item.status && item.status !== "visible") {
    removeItem(item.id);
    return;
  }
  // A congrats of ours still on its way keeps what the page shows; the server's answer to it settles the count.
  const own = entry.pending ? { congrats: entry.item.congrats, congratulated: entry.item.congratulated } : {};
  const statusChanged = (entry.item.status || "visible") !== (item.status || "visible");
  const commentsChanged = entry.item.comments !== item.comments;
  // The whole card is replaced: a field the server now leaves out (a public link, the points) is gone.
  entry.item = { ...item, ...own };
  if (statusChanged && entry.item.type === "challenge_completed") {
    // Hidden, shown again or revoked: the card is drawn again (a revoked one loses its points and share card).
    const hadFocus = entry.element.contains(document.activeElement);
    const fresh = completionCard(entry);
    entry.element.replaceWith(fresh);
    entry.element = fresh;
    if (hadFocus) fresh.querySelector("[data-focus]")?.focus();
    if (state.share.entry === entry) {
      if (entry.item.share) renderShareLink(entry);
      else $("#share-panel").close();
    }
    return;
  }
  renderCongrats(entry);
  renderCommentCount(entry);
  renderStatus(entry);
  // An open thread shows a comment added or removed elsewhere; a closed one is read again when it opens.
  if (commentsChanged && threadOpen(entry)) refreshThread(entry);
}

function postActions(entry, titleId) {
  const item = entry.item;
  const threadId = `thread-${item.id}`;
  return h("div", { class: "ch-post-actions" },
    h("button", { class: "ch-action ch-congrats", type: "button", "data-testid": "congrats", "aria-pressed": String(item.congratulated),
      "aria-describedby": titleId, onclick: () => toggleCongrats(entry) },
    icon("clap"), h("span", { text: "Congrats!" }), h("span", { class: "ch-action-count", "data-testid": "congrats-count", text: String(item.congrats) })),
    h("button", { class: "ch-action", type: "button", "data-testid": "comment-toggle", "aria-expanded": "false", "aria-controls": threadId,
      "aria-describedby": titleId, onclick: () => toggleThread(entry) },
    icon("comment"), h("span", { text: "Comment" }), h("span", { class: "ch-action-count", "data-role": "comment-count", text: item.comments ? String(item.comments) : "" })),
    // Share is offered while the server composes a share text for the post (never for a revoked one).
    item.share ? h("button", { class: "ch-action ch-share-open", type: "button", "data-testid": "share-open", "aria-haspopup": "dialog",
      "aria-describedby": titleId, onclick: () => openShare(entry) }, icon("share"), h("span", { text: "Share" })) : null);
}

export function itemMessage(entry, text) {
  const message = entry.element.querySelector("[data-role=message]");
  if (message) message.textContent = text;
}

/** The feed's filters and its "Load more". */
export function wireFeed() {
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.addEventListener("click", () => setFilter(button.dataset.filter));
  }
  $("#load-more").addEventListener("click", () => loadFeed({ more: true }));
}
