// The /api page: its constants, what it holds, and the small helpers every part uses.
import { h } from "../lib/dom.js";

export const DEFAULT_SOURCE = "/openapi.json";
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
export const IN_ORDER = { path: 0, query: 1, header: 2, cookie: 3 };
export const FILTER_DELAY = 150;
export const LAZY_DEPTH = 2; // nested schemas this deep or deeper are built when opened
export const ENUM_PREVIEW = 12; // longer lists of values show this many, and the rest on request
export const REASONS = {
  100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
  204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 300: "Multiple Choices",
  301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
  308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
  404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
  411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
  415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot",
  421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked", 425: "Too Early", 426: "Upgrade Required",
  428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
  503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported", 507: "Insufficient Storage",
};

export const state = {
  doc: null,
  source: DEFAULT_SOURCE,
  ops: [],
  byId: new Map(),
  groups: [],
  usedIds: new Set(),
};

// MARK: Small helpers

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

export function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "section";
}

/** An id no element of the page uses yet (so an operation id can never take over the page's own ids). */
export function uniqueId(wanted) {
  let base = String(wanted).trim().replace(/\s+/g, "-") || "operation";
  let id = base;
  for (let n = 2; state.usedIds.has(id) || document.getElementById(id); n++) id = `${base}-${n}`;
  state.usedIds.add(id);
  return id;
}

export function debounce(fn, delay) {
  let timer = 0;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), delay);
  };
  wrapped.flush = (...args) => {
    clearTimeout(timer);
    fn(...args);
  };
  return wrapped;
}

/** A path with a break opportunity after every slash, and `{parameters}` marked. */
export function pathNode(path, className = "ad-path") {
  const code = h("code", { class: className });
  const parts = String(path).split(/(\/|\{[^}]*\})/).filter(Boolean);
  for (const part of parts) {
    if (part === "/") code.append("/", h("wbr"));
    else if (part.startsWith("{")) code.append(h("span", { class: "ad-path-param" }, part));
    else code.append(part);
  }
  return code;
}

export function methodBadge(method) {
  return h("span", { class: `ad-method ad-m-${slug(method)}` }, method.toUpperCase());
}
