// The /api page: the small part of CommonMark that API descriptions use, built with DOM calls (never innerHTML).
import { h } from "../lib/dom.js";
import { children } from "./schemas.js";

// MARK: Markdown (the small part of CommonMark that API descriptions use)

function safeHref(url) {
  const value = String(url).trim();
  if (/^(https?:|mailto:)/i.test(value)) return value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return null; // javascript:, data: and friends
  return value; // relative: /path, #anchor, ./file
}

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|\[([^\]]+)\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^"']*["'])?\s*\)|(?<![\w*])\*(?!\s)([^*]+?)\*(?![\w*])|(?<![\w_])_(?!\s)([^_]+?)_(?![\w_])|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s<]*[^\s<.,;:!?)\]'"])/;

function inline(text, depth = 0) {
  const out = [];
  let rest = String(text);
  while (rest) {
    const match = depth > 4 ? null : INLINE.exec(rest);
    if (!match) {
      out.push(rest);
      break;
    }
    if (match.index > 0) out.push(rest.slice(0, match.index));
    const [whole, , code, bold1, bold2, linkText, linkURL, em1, em2, auto1, auto2] = match;
    if (code !== undefined) out.push(h("code", null, code.trim() || code));
    else if (bold1 !== undefined || bold2 !== undefined) out.push(h("strong", null, inline(bold1 ?? bold2, depth + 1)));
    else if (linkText !== undefined) out.push(link(linkURL, inline(linkText, depth + 1)) || inline(linkText, depth + 1));
    else if (em1 !== undefined || em2 !== undefined) out.push(h("em", null, inline(em1 ?? em2, depth + 1)));
    else if (auto1 !== undefined || auto2 !== undefined) out.push(link(auto1 ?? auto2, [auto1 ?? auto2]));
    rest = rest.slice(match.index + whole.length);
  }
  return out;
}

/** Inline markdown for places that are already links or buttons: code spans stay, links and emphasis become text. */
export function inlinePlain(text) {
  return String(text).split(/(`+[^`]+`+)/).filter(Boolean).map((part) => {
    const code = /^(`+)([^`]+)\1$/.exec(part);
    if (code) return h("code", null, code[2]);
    return part.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, "$1$2").replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, "$1$2");
  });
}

function link(url, children) {
  const href = safeHref(url);
  if (!href) return null;
  let external = false;
  try {
    external = /^https?:/i.test(href) && new URL(href, location.href).origin !== location.origin;
  } catch {
    return null;
  }
  return h("a", { href, rel: external ? "noopener noreferrer" : null }, children);
}

/** Paragraphs, lists, fenced code and headings (shown as bold lines, so the page's heading order holds). */
export function markdown(text) {
  const fragment = document.createDocumentFragment();
  if (typeof text !== "string" || !text.trim()) return fragment;
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let paragraph = [];
  let list = null;
  let item = null;
  const flushParagraph = () => {
    if (paragraph.length) fragment.append(h("p", null, inline(paragraph.join(" "))));
    paragraph = [];
  };
  const flushList = () => {
    if (item) list.el.append(h("li", null, inline(item.join(" "))));
    if (list) fragment.append(list.el);
    list = null;
    item = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flushParagraph();
      flushList();
      const body = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      fragment.append(h("pre", { class: "ad-code", tabindex: "0" }, h("code", null, body.join("\n"))));
      continue;
    }
    const bullet = /^\s*([-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      flushParagraph();
      const ordered = /\d/.test(bullet[1]);
      if (list && list.ordered !== ordered) flushList();
      if (!list) list = { ordered, el: h(ordered ? "ol" : "ul") };
      if (item) list.el.append(h("li", null, inline(item.join(" "))));
      item = [bullet[2]];
      continue;
    }
    if (!line.trim()) {
      flushParagraph();
      flushList();
      continue;
    }
    if (item && /^\s{2,}\S/.test(line)) {
      item.push(line.trim());
      continue;
    }
    flushList();
    const heading = /^\s*#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flushParagraph();
      fragment.append(h("p", { class: "ad-md-heading" }, h("strong", null, inline(heading[1]))));
      continue;
    }
    paragraph.push(line.trim());
  }
  flushParagraph();
  flushList();
  return fragment;
}

/** A long description keeps its opening in view and the rest behind "More…", so the operations stay near the top. */
export function longText(fragment, label, keep = 420) {
  const blocks = [...fragment.childNodes];
  const total = blocks.reduce((sum, node) => sum + node.textContent.length, 0);
  if (blocks.length < 2 || total < keep * 2) return fragment;
  let shown = 0;
  let cut = 0;
  while (cut < blocks.length - 1 && (cut === 0 || shown + blocks[cut].textContent.length <= keep)) {
    shown += blocks[cut].textContent.length;
    cut++;
  }
  const rest = h("div", { class: "ad-md" }, blocks.slice(cut));
  const more = h("details", { class: "ad-more ad-readmore" }, h("summary", null, label), rest);
  const out = document.createDocumentFragment();
  out.append(...blocks.slice(0, cut), more);
  return out;
}

export function markdownBlock(text, className = "ad-md") {
  if (typeof text !== "string" || !text.trim()) return null;
  return h("div", { class: className }, markdown(text));
}

/** A schema's description: long ones (a list of every error code…) keep their first lines in view. */
export function descriptionBlock(text) {
  if (typeof text !== "string" || !text.trim()) return null;
  return h("div", { class: "ad-md" }, longText(markdown(text), "Read the full description", 240));
}

/** A disclosure whose content is built the first time it opens. */
export function lazyDetails(label, build, className = "ad-more") {
  const details = h("details", { class: className }, h("summary", null, label));
  details.addEventListener("toggle", () => {
    if (details.open && !details.dataset.built) {
      details.dataset.built = "1";
      details.append(build());
    }
  });
  return details;
}
