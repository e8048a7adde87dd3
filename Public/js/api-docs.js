// The /api page: a readable rendering of the server's OpenAPI 3.1 document, for people.
// Everything is built with DOM calls (never innerHTML from the document), and an operation's details are only
// built when it is opened, so a document with a hundred and more operations still paints at once.
import { boot } from "./app.js";
import { preference } from "./motion.js";

const DEFAULT_SOURCE = "/openapi.json";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const IN_ORDER = { path: 0, query: 1, header: 2, cookie: 3 };
const FILTER_DELAY = 150;
const LAZY_DEPTH = 2; // nested schemas this deep or deeper are built when opened
const ENUM_PREVIEW = 12; // longer lists of values show this many, and the rest on request
const REASONS = {
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

const $ = (selector) => document.querySelector(selector);

const state = {
  doc: null,
  source: DEFAULT_SOURCE,
  ops: [],
  byId: new Map(),
  groups: [],
  usedIds: new Set(),
};

// MARK: Small DOM helpers

/** `h("p", {class: "x"}, "text", child)`: an element with attributes and children (strings become text). */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = value;
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.append(child);
    else parent.append(document.createTextNode(String(child)));
  }
  return parent;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

function slug(text) {
  return String(text).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "section";
}

/** An id no element of the page uses yet (so an operation id can never take over the page's own ids). */
function uniqueId(wanted) {
  let base = String(wanted).trim().replace(/\s+/g, "-") || "operation";
  let id = base;
  for (let n = 2; state.usedIds.has(id) || document.getElementById(id); n++) id = `${base}-${n}`;
  state.usedIds.add(id);
  return id;
}

function debounce(fn, delay) {
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
function pathNode(path, className = "ad-path") {
  const code = h("code", { class: className });
  const parts = String(path).split(/(\/|\{[^}]*\})/).filter(Boolean);
  for (const part of parts) {
    if (part === "/") code.append("/", h("wbr"));
    else if (part.startsWith("{")) code.append(h("span", { class: "ad-path-param" }, part));
    else code.append(part);
  }
  return code;
}

function methodBadge(method) {
  return h("span", { class: `ad-method ad-m-${slug(method)}` }, method.toUpperCase());
}

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
function inlinePlain(text) {
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
function markdown(text) {
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
function longText(fragment, label, keep = 420) {
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

function markdownBlock(text, className = "ad-md") {
  if (typeof text !== "string" || !text.trim()) return null;
  return h("div", { class: className }, markdown(text));
}

/** A schema's description: long ones (a list of every error code…) keep their first lines in view. */
function descriptionBlock(text) {
  if (typeof text !== "string" || !text.trim()) return null;
  return h("div", { class: "ad-md" }, longText(markdown(text), "Read the full description", 240));
}

/** A disclosure whose content is built the first time it opens. */
function lazyDetails(label, build, className = "ad-more") {
  const details = h("details", { class: className }, h("summary", null, label));
  details.addEventListener("toggle", () => {
    if (details.open && !details.dataset.built) {
      details.dataset.built = "1";
      details.append(build());
    }
  });
  return details;
}

// MARK: References

function pointer(ref) {
  if (typeof ref !== "string" || !ref.startsWith("#")) return undefined;
  let node = state.doc;
  const path = ref.slice(1).split("/").slice(1);
  for (const raw of path) {
    let key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    try {
      key = decodeURIComponent(key);
    } catch {
      // keep the raw key
    }
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function refName(ref) {
  const last = String(ref).split("/").pop() || String(ref);
  try {
    return decodeURIComponent(last.replace(/~1/g, "/").replace(/~0/g, "~"));
  } catch {
    return last;
  }
}

/** Follows a chain of `$ref`s (3.1 allows siblings next to `$ref`; those win). Never loops. */
function deref(value, stack = []) {
  let node = value;
  let extras = null;
  const refs = [];
  for (let hop = 0; hop < 32 && isObject(node) && typeof node.$ref === "string"; hop++) {
    const { $ref: ref, ...siblings } = node;
    if (Object.keys(siblings).length) extras = { ...siblings, ...(extras || {}) };
    if (stack.includes(ref) || refs.includes(ref)) return { node: extras || {}, refs, name: refName(ref), cyclic: true };
    refs.push(ref);
    const target = pointer(ref);
    if (target === undefined) return { node: extras || {}, refs, name: refName(ref), missing: ref };
    node = target;
  }
  if (extras && isObject(node)) node = { ...node, ...extras };
  return { node: isObject(node) ? node : {}, refs, name: refs.length ? refName(refs[0]) : null };
}

// MARK: Schemas

const typesOf = (schema) => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
const isNullSchema = (schema) => isObject(schema) && (schema.type === "null" || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === "null") || schema.const === null || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null));

/**
 * What a schema is, for display: its resolved form, its name when it came from a `$ref`, whether it may be
 * null, and its kind ("object", "array", "variants", "map", "scalar" or "any").
 */
function analyze(raw, stack = []) {
  const resolved = deref(raw, stack);
  const info = {
    schema: resolved.node,
    name: resolved.name || (typeof resolved.node.title === "string" ? resolved.node.title : null),
    refs: resolved.refs,
    stack: stack.concat(resolved.refs),
    cyclic: Boolean(resolved.cyclic),
    missing: resolved.missing || null,
    nullable: false,
    kind: "any",
  };
  let schema = info.schema;
  if (info.cyclic || info.missing) return info;

  const types = typesOf(schema);
  info.nullable = types.includes("null") || schema.nullable === true;
  info.types = types.filter((type) => type !== "null");

  // `oneOf: [X, {type: "null"}]` reads as "X or null".
  for (const keyword of ["oneOf", "anyOf"]) {
    const variants = schema[keyword];
    if (!Array.isArray(variants)) continue;
    const resolvedVariants = variants.map((variant) => ({ raw: variant, node: deref(variant, info.stack).node }));
    const nonNull = resolvedVariants.filter((variant) => !isNullSchema(variant.node));
    if (nonNull.length < variants.length) info.nullable = true;
    if (nonNull.length === 1 && !schema.properties) {
      const inner = analyze(nonNull[0].raw, info.stack);
      const { [keyword]: _omit, ...outer } = schema;
      inner.schema = { ...inner.schema, ...stripStructure(outer) };
      inner.nullable = true;
      inner.name = inner.name || info.name;
      inner.refs = info.refs.concat(inner.refs);
      return inner;
    }
    info.kind = "variants";
    info.variantKeyword = keyword;
    info.variants = nonNull.map((variant) => variant.raw);
    return info;
  }

  if (Array.isArray(schema.allOf)) {
    const merged = mergeAllOf(schema, info.stack);
    if (merged) {
      schema = info.schema = merged.schema;
      info.stack = info.stack.concat(merged.refs);
      info.name = info.name || merged.name;
      info.cyclicParts = merged.cyclicParts;
      info.types = typesOf(schema).filter((type) => type !== "null");
    } else {
      info.kind = "variants";
      info.variantKeyword = "allOf";
      info.variants = schema.allOf;
      return info;
    }
  }

  if (info.types.includes("array") || schema.items || schema.prefixItems) {
    info.kind = "array";
  } else if (info.types.includes("object") || schema.properties || schema.patternProperties || isObject(schema.additionalProperties)) {
    const hasProperties = isObject(schema.properties) && Object.keys(schema.properties).length > 0;
    info.kind = !hasProperties && isObject(schema.additionalProperties) ? "map" : "object";
  } else if (info.types.length || "const" in schema || Array.isArray(schema.enum)) {
    info.kind = "scalar";
  }
  return info;
}

/** The descriptive keywords of a schema, without the ones that give it a shape. */
function stripStructure(schema) {
  const { type, properties, items, required, oneOf, anyOf, allOf, additionalProperties, $ref, ...rest } = schema;
  return rest;
}

/** `allOf` of object parts becomes one object; anything else stays a list of parts. */
function mergeAllOf(schema, stack) {
  const properties = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const refs = [];
  const cyclicParts = [];
  let name = null;
  let additionalProperties;
  for (const part of schema.allOf) {
    const resolved = deref(part, stack);
    if (resolved.cyclic) {
      cyclicParts.push(resolved.name);
      continue;
    }
    let node = resolved.node;
    if (Array.isArray(node.allOf)) {
      const inner = mergeAllOf(node, stack.concat(resolved.refs));
      if (!inner) return null;
      node = inner.schema;
    }
    const types = typesOf(node).filter((type) => type !== "null");
    if (types.length && !types.includes("object")) return null;
    if (node.oneOf || node.anyOf) return null;
    if (!name && resolved.name) name = resolved.name;
    refs.push(...resolved.refs);
    Object.assign(properties, node.properties || {});
    for (const key of node.required || []) required.add(key);
    if (node.additionalProperties !== undefined) additionalProperties = node.additionalProperties;
  }
  const { allOf, ...outer } = schema;
  const first = deref(schema.allOf[0], stack).node;
  const merged = {
    description: first.description,
    ...outer,
    type: "object",
    properties: { ...properties, ...(schema.properties || {}) },
    required: [...required],
  };
  if (additionalProperties !== undefined && merged.additionalProperties === undefined) merged.additionalProperties = additionalProperties;
  return { schema: merged, refs, name, cyclicParts };
}

/** "string (uuid) or null", "array of Task", "ProjectColor (string)", "one of 3 shapes"… */
function typeLabel(info, depth = 0) {
  if (info.missing) return `${info.name} (not found)`;
  if (info.cyclic) return info.name;
  const schema = info.schema;
  let label;
  if (info.kind === "variants") {
    const word = { oneOf: "one of", anyOf: "any of", allOf: "all of" }[info.variantKeyword];
    const names = depth < 2 ? info.variants.map((variant) => typeLabel(analyze(variant, info.stack), depth + 1)) : [];
    label = names.length && names.length <= 3 && names.join("").length < 48 ? `${word}: ${names.join(", ")}` : `${word} ${info.variants.length} shapes`;
  } else if (info.kind === "array") {
    const items = isObject(schema.items) ? analyze(schema.items, info.stack) : null;
    label = items && depth < 4 ? `array of ${typeLabel(items, depth + 1)}` : "array";
    if (items && items.kind === "variants") label = `array (each ${typeLabel(items, depth + 1)})`;
  } else if (info.kind === "map") {
    label = `map of ${typeLabel(analyze(schema.additionalProperties, info.stack), depth + 1)}`;
  } else if (info.kind === "object") {
    label = info.name || "object";
  } else if ("const" in schema && !info.types.length) {
    label = "constant";
  } else if (info.types.length) {
    label = info.types.join(" or ");
    if (schema.format) label += ` (${schema.format})`;
    else if (schema.contentMediaType) label += ` (${schema.contentMediaType})`;
    if (info.name) label = `${info.name} (${label})`;
  } else if (Array.isArray(schema.enum)) {
    label = info.name || "enum";
  } else {
    label = info.name || "any";
  }
  return info.nullable ? `${label} or null` : label;
}

function showValue(value) {
  if (typeof value === "string") return value === "" ? '""' : value;
  return JSON.stringify(value);
}

function valueList(values) {
  const out = [];
  values.forEach((value, index) => {
    if (index) out.push(" ");
    out.push(h("code", { class: "ad-value" }, showValue(value)));
  });
  return out;
}

/** Limits in words: "3 to 32 characters", "at least 0", "less than 10". */
function range(min, max, exclusiveMin, exclusiveMax, noun = "") {
  const unit = (n) => (noun ? ` ${n === 1 ? noun.replace(/s$/, "").replace(/ie$/, "y") : noun}` : "");
  const fmt = (n) => (Math.abs(n) >= 10000 && Number.isInteger(n) ? n.toLocaleString("en-US") : String(n));
  [min, max, exclusiveMin, exclusiveMax] = [min, max, exclusiveMin, exclusiveMax].map((v) => (typeof v === "number" ? v : undefined));
  const num = (value) => typeof value === "number";
  const low = num(exclusiveMin) ? { value: exclusiveMin, open: true } : num(min) ? { value: min, open: false } : null;
  const high = num(exclusiveMax) ? { value: exclusiveMax, open: true } : num(max) ? { value: max, open: false } : null;
  if (!low && !high) return "";
  if (low && high && !low.open && !high.open) return low.value === high.value ? `exactly ${fmt(low.value)}${unit(low.value)}` : `${fmt(low.value)} to ${fmt(high.value)}${unit(high.value)}`;
  const parts = [];
  if (low) parts.push(`${low.open ? "more than" : "at least"} ${fmt(low.value)}`);
  if (high) parts.push(`${high.open ? "less than" : "at most"} ${fmt(high.value)}`);
  return parts.join(" and ") + unit((high || low).value);
}

/** The constraints and hints of a schema as a short list: values, default, limits, example… */
function facets(info, extra = []) {
  const schema = info.schema;
  const items = [...extra];
  const add = (term, ...value) => items.push(h("li", null, h("span", { class: "ad-facet-term" }, term), " ", value));
  if (info.cyclic) add("Shape:", `the same as ${info.name} above (it contains itself).`);
  if (info.missing) add("Reference:", h("code", null, info.missing), " is not in this document.");
  if (info.kind === "array" && isObject(schema.items)) {
    const items = analyze(schema.items, info.stack);
    if (items.cyclic) add("Each item:", `the same shape as ${items.name} above (it contains itself).`);
  }
  if (info.kind === "map") {
    const value = analyze(schema.additionalProperties, info.stack);
    if (value.cyclic) add("Each value:", `the same shape as ${value.name} above (it contains itself).`);
  }
  if (info.cyclicParts && info.cyclicParts.length) add("Also:", `everything ${info.cyclicParts.join(", ")} has (described above).`);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum;
    if (values.length > ENUM_PREVIEW + 4) {
      add("Values:", valueList(values.slice(0, ENUM_PREVIEW)), " …",
        lazyDetails(`Show all ${values.length} values`, () => h("p", { class: "ad-enum-all" }, valueList(values))));
    } else {
      add(values.length === 1 ? "Value:" : "Values:", valueList(values));
    }
  }
  if ("const" in schema) add("Always:", valueList([schema.const]));
  if (schema.default !== undefined) add("Default:", valueList([schema.default]));
  const length = schema.maxLength === 0 ? "empty (no characters)" : range(schema.minLength, schema.maxLength, undefined, undefined, "characters");
  if (length) add("Length:", length);
  const bounds = range(schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum);
  if (bounds) add("Range:", bounds);
  if (schema.multipleOf !== undefined) add("Multiple of:", String(schema.multipleOf));
  const count = range(schema.minItems, schema.maxItems, undefined, undefined, "items");
  if (count) add("Items:", count);
  if (schema.uniqueItems) add("Items:", "no duplicates");
  const props = range(schema.minProperties, schema.maxProperties, undefined, undefined, "properties");
  if (props) add("Properties:", props);
  if (typeof schema.pattern === "string") add("Pattern:", h("code", null, schema.pattern));
  if (schema.contentEncoding) add("Encoding:", schema.contentEncoding);
  if (info.kind === "object" && schema.additionalProperties === false) add("Other properties:", "not allowed");
  if (schema.discriminator && typeof schema.discriminator.propertyName === "string") {
    add("Told apart by:", h("code", null, schema.discriminator.propertyName));
  }
  const examples = Array.isArray(schema.examples) ? schema.examples : schema.example !== undefined ? [schema.example] : [];
  const simple = examples.filter((value) => value === null || typeof value !== "object");
  if (simple.length) add(simple.length === 1 ? "Example:" : "Examples:", valueList(simple.slice(0, 5)));
  return items.length ? h("ul", { class: "ad-facets" }, items) : null;
}

function flags(schema, required) {
  const out = [];
  if (required) out.push(h("span", { class: "ad-flag ad-required" }, "required"));
  if (schema.readOnly) out.push(h("span", { class: "ad-flag" }, "read-only"));
  if (schema.writeOnly) out.push(h("span", { class: "ad-flag" }, "write-only"));
  if (schema.deprecated) out.push(h("span", { class: "ad-flag ad-deprecated" }, "deprecated"));
  return out;
}

/** What goes under a schema: its properties, its items, its variants. Null when there is nothing more to show. */
function children(info, depth) {
  const schema = info.schema;
  if (info.cyclic || info.missing || depth > 24) return null;
  if (info.kind === "object") {
    const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
    if (!properties.length) return null;
    return () => propertyList(schema, info.stack, depth);
  }
  if (info.kind === "map") {
    const value = analyze(schema.additionalProperties, info.stack);
    const inner = children(value, depth);
    return inner ? () => h("div", { class: "ad-nested-label" }, h("p", { class: "ad-each" }, "Each value:"), inner()) : null;
  }
  if (info.kind === "array") {
    if (!isObject(schema.items)) return null;
    const items = analyze(schema.items, info.stack);
    const inner = children(items, depth);
    if (!inner) return null;
    return () => h("div", { class: "ad-nested-label" }, h("p", { class: "ad-each" }, items.kind === "variants" ? "Each item is" : "Each item:"), inner());
  }
  if (info.kind === "variants") {
    return () => variantList(info, depth);
  }
  return null;
}

function variantList(info, depth) {
  const word = { oneOf: "Exactly one of these:", anyOf: "One or more of these:", allOf: "All of these together:" }[info.variantKeyword];
  const list = h("ol", { class: "ad-variants" });
  for (const raw of info.variants) {
    const variant = analyze(raw, info.stack);
    const head = h("p", { class: "ad-variant-head" }, h("span", { class: "ad-type" }, typeLabel(variant)), flags(variant.schema, false));
    list.append(h("li", null, head, descriptionBlock(variant.schema.description), facets(variant),
      nested(variant, depth + 1, depth + 1 >= LAZY_DEPTH || info.variants.length > 3)));
  }
  return h("div", { class: "ad-variant-box" }, h("p", { class: "ad-each" }, word), list);
}

/** Children of a schema: built now when shallow, in a closed disclosure built on opening when deep. */
function nested(info, depth, lazy = depth >= LAZY_DEPTH) {
  const build = children(info, depth);
  if (!build) return null;
  if (!lazy) return h("div", { class: "ad-nested" }, build());
  return lazyDetails(`Show ${shapeWords(info)}`, () => h("div", { class: "ad-nested" }, build()));
}

/** "3 properties of Choreography", "the 4 shapes", "each item's 9 properties (Task)". */
function shapeWords(info) {
  const schema = info.schema;
  const named = info.name ? ` of ${info.name}` : "";
  if (info.kind === "object") {
    const count = Object.keys(schema.properties || {}).length;
    return `${count} ${count === 1 ? "property" : "properties"}${named}`;
  }
  if (info.kind === "variants") return `the ${info.variants.length} possible shapes${named}`;
  if (info.kind === "array" && isObject(schema.items)) {
    const items = analyze(schema.items, info.stack);
    if (items.kind === "object") {
      const count = Object.keys(items.schema.properties || {}).length;
      return `each item's ${count} ${count === 1 ? "property" : "properties"}${items.name ? ` (${items.name})` : ""}`;
    }
    if (items.kind === "variants") return `the ${items.variants.length} possible item shapes`;
  }
  return "details";
}

function propertyList(schema, stack, depth) {
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const list = h("ul", { class: "ad-props" });
  for (const [name, raw] of Object.entries(schema.properties || {})) {
    const info = analyze(raw, stack);
    const head = h("p", { class: "ad-prop-head" },
      h("code", { class: "ad-prop-name" }, name), " ",
      h("span", { class: "ad-type" }, typeLabel(info)), " ",
      flags(info.schema, required.has(name)));
    list.append(h("li", { class: "ad-prop" }, head, descriptionBlock(info.schema.description), facets(info), nested(info, depth + 1)));
  }
  return list;
}

/** A schema as a readable tree: its type, description and constraints, then its properties. */
function schemaView(raw, { collapsed = false } = {}) {
  const info = analyze(raw, []);
  const box = h("div", { class: "ad-schema" });
  box.append(h("p", { class: "ad-schema-head" }, h("span", { class: "ad-type" }, typeLabel(info)), flags(info.schema, false)));
  box.append(descriptionBlock(info.schema.description) || "", facets(info) || "", nested(info, 0, collapsed) || "");
  return box;
}

// MARK: Operations

function resolveParameters(pathItem, operation) {
  const seen = new Map();
  for (const raw of [...(pathItem.parameters || []), ...(operation.parameters || [])]) {
    const param = deref(raw).node;
    if (!param || !param.name) continue;
    seen.set(`${param.in}:${param.name}`, param);
  }
  return [...seen.values()].sort((a, b) => (IN_ORDER[a.in] ?? 9) - (IN_ORDER[b.in] ?? 9));
}

function paramSchema(param) {
  if (param.schema) return param.schema;
  if (isObject(param.content)) {
    const first = Object.values(param.content)[0];
    if (first && first.schema) return first.schema;
  }
  return {};
}

/** A table inside a wrapper that scrolls sideways when the table is wider than the page. */
function scrollTable(label, head, rows) {
  const table = h("table", { class: "ad-table" },
    h("thead", null, h("tr", null, head.map((title) => h("th", { scope: "col" }, title)))),
    h("tbody", null, rows));
  const wrap = h("div", { class: "ad-table-wrap", "data-label": label }, table);
  watchOverflow(wrap);
  return wrap;
}

const overflowObserver = typeof ResizeObserver === "function" ? new ResizeObserver((entries) => {
  for (const entry of entries) markScrollable(entry.target);
}) : null;

/** A region that scrolls can be reached with the keyboard (and is named); one that fits is not a tab stop. */
function markScrollable(el) {
  const scrolls = el.scrollWidth > el.clientWidth + 1;
  if (scrolls) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "region");
    el.setAttribute("aria-label", `${el.dataset.label} (scrolls sideways)`);
  } else {
    el.removeAttribute("tabindex");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
  }
}

function watchOverflow(el) {
  // Reachable until measured: a table laid out later (off screen) is never a scroll area the keyboard cannot reach.
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", `${el.dataset.label} (scrolls sideways)`);
  if (overflowObserver) overflowObserver.observe(el);
}

function parametersSection(op) {
  const params = resolveParameters(op.pathItem, op.operation);
  if (!params.length) return null;
  const rows = params.map((param) => {
    const info = analyze(paramSchema(param));
    const describe = h("td", null,
      markdownBlock(param.description) || markdownBlock(info.schema.description),
      facets(info, param.example !== undefined ? [h("li", null, h("span", { class: "ad-facet-term" }, "Example:"), " ", valueList([param.example]))] : []),
      param.in === "query" && info.kind === "array" ? h("p", { class: "muted small" }, param.explode === false ? "Several values are separated by commas." : "Repeat the parameter for several values.") : null);
    return h("tr", null,
      h("th", { scope: "row" }, h("code", { class: "ad-prop-name" }, param.name), param.deprecated ? [" ", h("span", { class: "ad-flag ad-deprecated" }, "deprecated")] : null),
      h("td", null, param.in || ""),
      h("td", null, h("span", { class: "ad-type" }, typeLabel(info))),
      h("td", null, param.required || param.in === "path" ? h("span", { class: "ad-flag ad-required" }, "required") : h("span", { class: "muted" }, "optional")),
      describe);
  });
  return h("div", { class: "ad-part" },
    h("h4", { id: `${op.id}--params` }, "Parameters"),
    scrollTable(`Parameters of ${op.method.toUpperCase()} ${op.path}`, ["Name", "In", "Type", "Required", "Description"], rows));
}

function mediaNote(type) {
  const t = type.toLowerCase();
  if (t === "text/event-stream") return "A stream of server-sent events: the connection stays open and the server sends an event whenever something changes.";
  if (t === "text/html") return "An HTML page, for a browser.";
  if (t.startsWith("image/")) return `An image (${t.slice(6).replace(/\+.*$/, "").toUpperCase()}).`;
  if (t.startsWith("audio/") || t.startsWith("video/")) return `A ${t.split("/")[0]} file (${t.split("/")[1]}).`;
  if (t === "application/octet-stream") return "Raw bytes.";
  if (t === "multipart/form-data") return "A form with files (multipart): these fields.";
  if (t === "application/x-www-form-urlencoded") return "A form (URL-encoded): these fields.";
  if (t === "text/plain") return "Plain text.";
  if (t === "text/csv") return "Comma-separated values.";
  if (t === "application/merge-patch+json") return "JSON merge patch: send only what changes; null removes a value.";
  return null;
}

function isTrivialSchema(raw) {
  const schema = deref(raw).node;
  const keys = Object.keys(schema).filter((key) => !["type", "format", "contentMediaType", "contentEncoding", "minLength", "maxLength", "description"].includes(key));
  return !keys.length && (!schema.type || schema.type === "string");
}

function exampleOf(media) {
  if (media.example !== undefined) return [{ title: "Example", value: media.example }];
  if (isObject(media.examples)) {
    return Object.entries(media.examples).map(([name, raw]) => {
      const example = deref(raw).node;
      return { title: example.summary ? `Example: ${example.summary}` : `Example: ${name}`, value: example.value };
    }).filter((example) => example.value !== undefined);
  }
  const schema = isObject(media.schema) ? deref(media.schema).node : null;
  if (schema && schema.example !== undefined && typeof schema.example === "object") return [{ title: "Example", value: schema.example }];
  return [];
}

function contentView(content, { collapsed = false } = {}) {
  if (!isObject(content)) return null;
  const wrap = h("div", { class: "ad-contents" });
  for (const [type, rawMedia] of Object.entries(content)) {
    const media = isObject(rawMedia) ? rawMedia : {};
    const block = h("div", { class: "ad-media" });
    block.append(h("p", { class: "ad-media-type" }, h("span", { class: "ad-facet-term" }, "Content type:"), " ", h("code", null, type)));
    const note = mediaNote(type);
    if (note) block.append(h("p", { class: "muted small ad-media-note" }, note));
    const itemSchema = media.itemSchema || media["x-item-schema"] || media["x-event-schema"];
    if (itemSchema) {
      block.append(h("p", { class: "ad-each" }, type === "text/event-stream" ? "The data of each event:" : "Each item:"));
      block.append(schemaView(itemSchema, { collapsed }));
    } else if (media.schema && !(note && isTrivialSchema(media.schema))) {
      block.append(schemaView(media.schema, { collapsed }));
    }
    for (const example of exampleOf(media)) {
      const text = typeof example.value === "string" ? example.value : JSON.stringify(example.value, null, 2);
      block.append(h("details", { class: "ad-example" }, h("summary", null, example.title),
        h("pre", { class: "ad-code", tabindex: "0" }, h("code", null, text))));
    }
    wrap.append(block);
  }
  return wrap;
}

function requestBodySection(op) {
  if (!op.operation.requestBody) return null;
  const body = deref(op.operation.requestBody).node;
  return h("div", { class: "ad-part" },
    h("h4", { id: `${op.id}--body` }, "Request body ",
      h("span", { class: `ad-flag${body.required ? " ad-required" : ""}` }, body.required ? "required" : "optional")),
    markdownBlock(body.description),
    contentView(body.content));
}

function statusClass(code) {
  const first = String(code)[0];
  return /[1-5]/.test(first) ? `ad-s-${first}xx` : "ad-s-default";
}

function headersView(headers, op, code) {
  if (!isObject(headers) || !Object.keys(headers).length) return null;
  const rows = Object.entries(headers).map(([name, raw]) => {
    const header = deref(raw).node;
    const info = analyze(paramSchema(header));
    return h("tr", null,
      h("th", { scope: "row" }, h("code", { class: "ad-prop-name" }, name)),
      h("td", null, h("span", { class: "ad-type" }, typeLabel(info))),
      h("td", null, markdownBlock(header.description), facets(info)));
  });
  return h("div", { class: "ad-resp-extra" }, h("p", { class: "ad-each" }, "Response headers:"),
    scrollTable(`Headers of the ${code} response to ${op.method.toUpperCase()} ${op.path}`, ["Header", "Type", "Description"], rows));
}

function linksView(links) {
  if (!isObject(links) || !Object.keys(links).length) return null;
  const list = h("ul", { class: "ad-links" });
  for (const [name, raw] of Object.entries(links)) {
    const linkObject = deref(raw).node;
    const target = typeof linkObject.operationId === "string" ? state.ops.find((op) => op.operation.operationId === linkObject.operationId) : null;
    const targetNode = target
      ? h("a", { href: `#${target.id}` }, methodBadge(target.method), " ", pathNode(target.path))
      : linkObject.operationId ? h("code", null, linkObject.operationId) : linkObject.operationRef ? h("code", null, linkObject.operationRef) : null;
    const params = isObject(linkObject.parameters) ? Object.entries(linkObject.parameters) : [];
    list.append(h("li", null,
      h("strong", null, name), targetNode ? [": ", targetNode] : null,
      markdownBlock(linkObject.description),
      params.length ? h("p", { class: "small muted" }, "With ", params.map(([key, value], index) => [index ? ", " : "", h("code", null, key), " = ", h("code", null, typeof value === "string" ? value : JSON.stringify(value))])) : null));
  }
  return h("div", { class: "ad-resp-extra" }, h("p", { class: "ad-each" }, "Next steps (links):"), list);
}

function responsesSection(op) {
  const responses = op.operation.responses;
  if (!isObject(responses) || !Object.keys(responses).length) return null;
  const section = h("div", { class: "ad-part" }, h("h4", { id: `${op.id}--responses` }, "Responses"));
  const codes = Object.keys(responses).sort((a, b) => (a === "default") - (b === "default") || a.localeCompare(b));
  for (const code of codes) {
    const response = deref(responses[code]).node;
    const reason = code === "default" ? "Any other status" : /^\dXX$/i.test(code) ? `Any ${code[0]}xx status` : REASONS[code] || "";
    section.append(h("div", { class: "ad-response" },
      h("h5", { class: "ad-resp-title" }, h("span", { class: `ad-status ${statusClass(code)}` }, code === "default" ? "default" : code.toUpperCase()), " ", reason),
      markdownBlock(response.description),
      contentView(response.content, { collapsed: !/^[23]/.test(code) }),
      headersView(response.headers, op, code),
      linksView(response.links)));
  }
  return section;
}

function securityText(requirements, lowercase = false) {
  if (!Array.isArray(requirements) || !requirements.length) return [h("span", null, "No sign-in needed.")];
  const schemes = (state.doc.components && state.doc.components.securitySchemes) || {};
  const optional = requirements.some((requirement) => isObject(requirement) && !Object.keys(requirement).length);
  const options = requirements.filter((requirement) => isObject(requirement) && Object.keys(requirement).length);
  if (!options.length) return [h("span", null, "No sign-in needed.")];
  const out = [optional ? `${lowercase ? "w" : "W"}orks without signing in too; signed in, it uses ` : `${lowercase ? "n" : "N"}eeds `];
  options.forEach((requirement, index) => {
    if (index) out.push(index === options.length - 1 ? " or " : ", ");
    Object.entries(requirement).forEach(([name, scopes], part) => {
      if (part) out.push(" and ");
      out.push(h("a", { href: `#${schemeAnchor(name)}` }, shortScheme(schemes[name], name)));
      if (Array.isArray(scopes) && scopes.length) out.push(" (", valueList(scopes), ")");
    });
  });
  out.push(".");
  return out;
}

function shortScheme(raw, name) {
  const scheme = raw ? deref(raw).node : {};
  if (scheme.type === "apiKey") return scheme.in === "cookie" ? `the ${scheme.name || name} cookie` : `an API key (${name})`;
  if (scheme.type === "http") return String(scheme.scheme).toLowerCase() === "bearer" ? "a bearer token" : `HTTP ${scheme.scheme || ""} authentication`;
  if (scheme.type === "oauth2") return "OAuth 2.0";
  if (scheme.type === "openIdConnect") return "OpenID Connect";
  if (scheme.type === "mutualTLS") return "a client certificate";
  return name;
}

const schemeAnchor = (name) => `auth-${slug(name)}`;

function operationBody(op) {
  const operation = op.operation;
  const body = h("div", { class: "ad-op-body" });
  if (operation.summary && operation.description) body.append(markdownBlock(operation.description));
  else if (!operation.summary && operation.description) body.append(markdownBlock(operation.description));
  const meta = h("dl", { class: "ad-op-meta" });
  const row = (term, ...value) => meta.append(h("dt", null, term), h("dd", null, value));
  row("Sign-in", securityText(operation.security !== undefined ? operation.security : state.doc.security));
  if (operation.operationId) row("Operation id", h("code", null, operation.operationId));
  if (op.tags.length > 1) row("Also in", op.tags.slice(1).join(", "));
  row("Link", h("a", { href: `#${op.id}`, class: "ad-permalink" }, `${location.pathname}#${op.id}`));
  body.append(meta);
  if (operation.deprecated) body.append(h("p", { class: "ad-warning" }, "Deprecated: this operation still works but will go away. Prefer another one."));
  body.append(parametersSection(op) || "", requestBodySection(op) || "", responsesSection(op) || "");
  if (op.operation.callbacks && isObject(op.operation.callbacks)) {
    body.append(h("p", { class: "muted small" }, "Callbacks: ", valueList(Object.keys(op.operation.callbacks)), " (see the document)."));
  }
  return body;
}

function ensureBody(op) {
  if (op.built) return;
  op.built = true;
  try {
    op.el.append(operationBody(op));
  } catch (error) {
    op.el.append(h("p", { class: "message error" }, "This operation could not be shown. The raw document has all of it."));
    console.error(error);
  }
}

// MARK: Collecting and rendering

function collect(doc) {
  const ops = [];
  const addOperations = (items, isWebhook) => {
    if (!isObject(items)) return;
    for (const [path, rawItem] of Object.entries(items)) {
      const pathItem = deref(rawItem).node;
      for (const [method, operation] of Object.entries(pathItem)) {
        if (!METHODS.includes(method) || !isObject(operation)) continue;
        const tags = Array.isArray(operation.tags) && operation.tags.length ? operation.tags.map(String) : [isWebhook ? "Webhooks" : ""];
        ops.push({
          method, path, pathItem, operation, tags, isWebhook,
          summary: operation.summary || pathItem.summary || "",
          search: `${method} ${path} ${operation.summary || ""} ${operation.operationId || ""} ${tags.join(" ")}`.toLowerCase(),
        });
      }
    }
  };
  addOperations(doc.paths, false);
  addOperations(doc.webhooks, true);

  // Groups: the document's tag order, then tags only operations name, then operations with no tag.
  const tagInfo = new Map();
  for (const tag of Array.isArray(doc.tags) ? doc.tags : []) if (tag && tag.name) tagInfo.set(String(tag.name), tag);
  const groups = new Map();
  for (const name of tagInfo.keys()) groups.set(name, []);
  for (const op of ops) {
    const name = op.tags[0];
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(op);
  }
  const ordered = [...groups.entries()].filter(([, list]) => list.length);
  ordered.sort(([a], [b]) => (a === "") - (b === ""));
  state.groups = ordered.map(([name, list]) => ({
    name: name || "Other operations",
    tag: tagInfo.get(name) || null,
    ops: list,
    id: uniqueId(`tag-${slug(name || "other")}`),
  }));
  // Ids: the operationId when it has one (so /api#createProject works), or method and path.
  for (const group of state.groups) {
    for (const op of group.ops) {
      op.group = group;
      op.id = uniqueId(op.operation.operationId || `${op.method}-${slug(op.path)}`);
      state.byId.set(op.id, op);
    }
  }
  state.ops = state.groups.flatMap((group) => group.ops);
}

function renderIntro(doc) {
  const info = isObject(doc.info) ? doc.info : {};
  const name = info.title ? String(info.title).trim() : "";
  const title = !name ? "API" : /\bAPI\b/i.test(name) ? name : `${name} API`;
  $("#ad-title").textContent = title;
  document.title = /^CompletionKit\b/.test(title) ? "API — CompletionKit" : `${title} — CompletionKit`;
  if (info.version) {
    $("#ad-version").textContent = `Version ${info.version}`;
    $("#ad-version").hidden = false;
    $("#ad-footer-version").textContent = `· API ${info.version}`;
  }
  const spec = doc.openapi ? `OpenAPI ${doc.openapi}` : doc.swagger ? `Swagger ${doc.swagger}` : "";
  if (spec) {
    $("#ad-spec").textContent = spec;
    $("#ad-spec").hidden = false;
  }
  if (info.summary) {
    $("#ad-summary").textContent = info.summary;
    $("#ad-summary").hidden = false;
  }
  $("#ad-description").replaceChildren(longText(markdown(info.description), "More about this API"));
  const servers = Array.isArray(doc.servers) ? doc.servers.filter((server) => server && server.url) : [];
  if (servers.length) {
    $("#ad-servers").replaceChildren(servers.length === 1 ? "Base URL: " : "Base URLs: ",
      ...servers.flatMap((server, index) => [index ? ", " : "", h("code", null, server.url), server.description ? ` (${server.description})` : ""]));
    $("#ad-servers").hidden = false;
  }
}

function schemeExplanation(scheme, name) {
  const plain = (text) => String(text).replace(/`/g, "");
  switch (scheme.type) {
    case "apiKey":
      if (scheme.in === "cookie") return `A cookie named \`${plain(scheme.name)}\`. The browser keeps it and sends it with every request once the server has set it, so pages on this site need nothing extra. Other clients send it in the \`Cookie\` header.`;
      if (scheme.in === "header") return `A key sent in the \`${plain(scheme.name)}\` request header with every request.`;
      if (scheme.in === "query") return `A key added to the address as the \`${plain(scheme.name)}\` query parameter.`;
      return `A key named \`${plain(scheme.name)}\`.`;
    case "http": {
      const kind = String(scheme.scheme || "").toLowerCase();
      if (kind === "bearer") return `A token sent in the \`Authorization\` header: \`Authorization: Bearer <token>\`${scheme.bearerFormat ? ` (the token is ${plain(scheme.bearerFormat)})` : ""}.`;
      if (kind === "basic") return "A username and password sent in the `Authorization` header (HTTP Basic: `Basic` followed by the base64 of `username:password`). Use it only over HTTPS.";
      return `HTTP \`${plain(scheme.scheme)}\` authentication, in the \`Authorization\` header.`;
    }
    case "oauth2":
      return "OAuth 2.0: get a token from the authorization server, then send it as `Authorization: Bearer <token>`.";
    case "openIdConnect":
      return `OpenID Connect: the provider's settings are at ${scheme.openIdConnectUrl ? `<${plain(scheme.openIdConnectUrl)}>` : "its discovery address"}.`;
    case "mutualTLS":
      return "A client certificate presented when the connection is made (mutual TLS).";
    default:
      return `A scheme of type \`${plain(scheme.type || name)}\`.`;
  }
}

function renderAuth(doc) {
  const body = $("#ad-auth-body");
  const schemes = (doc.components && isObject(doc.components.securitySchemes)) ? doc.components.securitySchemes : {};
  const names = Object.keys(schemes);
  if (!names.length) {
    body.replaceChildren(h("p", null, "This API does not declare any way to sign in; every operation is open."));
    return;
  }
  const global = Array.isArray(doc.security) ? doc.security : [];
  const intro = global.length
    ? h("p", null, "Unless an operation says otherwise, it ", securityText(global, true))
    : h("p", null, "Operations say which of these they need; most need none.");
  const list = h("div", { class: "ad-schemes" });
  for (const name of names) {
    const scheme = deref(schemes[name]).node;
    const kind = scheme.type === "http" ? `HTTP ${scheme.scheme || ""}`.trim() : scheme.type === "apiKey" ? `API key in ${scheme.in || "?"}` : scheme.type || "unknown";
    const card = h("article", { class: "ad-scheme", id: schemeAnchor(name), "aria-labelledby": `${schemeAnchor(name)}-title` },
      h("h3", { id: `${schemeAnchor(name)}-title` }, name, " ", h("span", { class: "pill" }, kind)),
      h("div", { class: "ad-md" }, markdown(schemeExplanation(scheme, name))),
      markdownBlock(scheme.description));
    if (scheme.type === "oauth2" && isObject(scheme.flows)) {
      const flows = h("ul", { class: "ad-flows" });
      for (const [flowName, flow] of Object.entries(scheme.flows)) {
        const scopes = isObject(flow.scopes) ? Object.entries(flow.scopes) : [];
        flows.append(h("li", null, h("strong", null, flowName),
          flow.authorizationUrl ? [" — authorize at ", h("code", null, flow.authorizationUrl)] : null,
          flow.tokenUrl ? [", token from ", h("code", null, flow.tokenUrl)] : null,
          scopes.length ? h("ul", null, scopes.map(([scope, text]) => h("li", null, h("code", null, scope), text ? ` — ${text}` : ""))) : null));
      }
      card.append(flows);
    }
    list.append(card);
  }
  body.replaceChildren(intro, list);
}

const yieldToMain = () => new Promise((resolve) => {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") globalThis.scheduler.yield().then(resolve);
  else setTimeout(resolve, 0);
});

/** The operations' one-line summaries and the contents, a tag at a time, giving the page a breath every ~8 ms. */
async function renderOperations() {
  const groupsBox = $("#ad-groups");
  const tocBox = $("#ad-toc-list");
  groupsBox.replaceChildren();
  tocBox.replaceChildren();
  let started = performance.now();
  for (const group of state.groups) {
    const titleId = `${group.id}-title`;
    const opsBox = h("div", { class: "ad-ops" });
    const section = h("section", { class: "ad-group", id: group.id, "aria-labelledby": titleId },
      h("h2", { id: titleId }, group.name, " ", h("span", { class: "ad-count muted" }, `${group.ops.length} ${group.ops.length === 1 ? "operation" : "operations"}`)),
      group.tag ? markdownBlock(group.tag.description) : null,
      opsBox);
    const tocList = h("ul", { class: "ad-toc-ops" });
    for (const op of group.ops) {
      const summaryTitle = h("h3", { class: "ad-op-title" },
        methodBadge(op.method), " ", pathNode(op.path),
        op.summary ? h("span", { class: "ad-op-summary-text" }, inlinePlain(op.summary)) : null,
        op.operation.deprecated ? h("span", { class: "ad-flag ad-deprecated" }, "deprecated") : null);
      op.el = h("details", { class: "ad-op", id: op.id, "data-method": op.method }, h("summary", null, summaryTitle));
      opsBox.append(op.el);
      op.tocLink = h("a", { href: `#${op.id}`, class: "ad-toc-op" },
        methodBadge(op.method),
        h("span", { class: "ad-toc-text" }, op.summary ? h("span", { class: "ad-toc-summary" }, inlinePlain(op.summary)) : null, pathNode(op.path, "ad-toc-path")));
      op.tocItem = h("li", null, op.tocLink);
      tocList.append(op.tocItem);
    }
    group.el = section;
    group.countEl = section.querySelector(".ad-count");
    group.tocItem = h("li", { class: "ad-toc-group" },
      h("a", { href: `#${group.id}`, class: "ad-toc-tag" }, h("span", null, group.name), h("span", { class: "ad-toc-count", "aria-hidden": "true" }, String(group.ops.length))),
      tocList);
    group.tocCount = group.tocItem.querySelector(".ad-toc-count");
    groupsBox.append(section);
    tocBox.append(group.tocItem);
    if (performance.now() - started > 8) {
      await yieldToMain();
      started = performance.now();
    }
  }
}

// MARK: Filter

function applyFilter(raw) {
  const value = raw.trim().toLowerCase();
  const terms = value.split(/\s+/).filter(Boolean);
  let shown = 0;
  for (const group of state.groups) {
    let count = 0;
    for (const op of group.ops) {
      const match = terms.every((term) => op.search.includes(term));
      if (op.el.hidden === match) {
        op.el.hidden = !match;
        op.tocItem.hidden = !match;
      }
      if (match) count++;
    }
    group.el.hidden = count === 0;
    group.tocItem.hidden = count === 0;
    group.tocCount.textContent = terms.length ? `${count}/${group.ops.length}` : String(group.ops.length);
    shown += count;
  }
  const total = state.ops.length;
  $("#ad-filter-count").textContent = terms.length
    ? `${shown} of ${total} ${total === 1 ? "operation matches" : "operations match"}.`
    : `${total} ${total === 1 ? "operation" : "operations"}.`;
  $("#ad-empty").hidden = shown > 0 || !terms.length;
  $("#ad-empty-term").textContent = raw.trim();
}

// MARK: Table of contents and deep links

const narrowQuery = window.matchMedia("(max-width: 899px)");

function setTocOpen(open) {
  $("#ad-toc").classList.toggle("is-collapsed", !open);
  $("#ad-toc-toggle").setAttribute("aria-expanded", String(open));
  $("#ad-toc-toggle-text").textContent = open ? "Hide list" : "Show list";
}

function markCurrent(id) {
  for (const current of document.querySelectorAll('.ad-toc [aria-current="location"]')) current.removeAttribute("aria-current");
  const op = state.byId.get(id);
  if (!op) return;
  op.tocLink.setAttribute("aria-current", "location");
  // Keep the current entry in view inside the contents' own scroll area (without moving the page).
  const body = $("#ad-toc-body");
  if (body.scrollHeight > body.clientHeight) {
    const linkBox = op.tocLink.getBoundingClientRect();
    const bodyBox = body.getBoundingClientRect();
    if (linkBox.top < bodyBox.top || linkBox.bottom > bodyBox.bottom) body.scrollTop += linkBox.top - bodyBox.top - bodyBox.height / 3;
  }
}

function targetFromHash() {
  if (!location.hash || location.hash.length < 2) return null;
  let id = location.hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // keep it as it is
  }
  return id;
}

/** Opens the operation (or section) named by the address's #fragment and scrolls to it. */
function revealHash({ focus = true } = {}) {
  const id = targetFromHash();
  if (!id) return;
  const el = document.getElementById(id);
  if (!el) return;
  const op = state.byId.get(id);
  if (el.closest("[hidden]") || el.hidden) {
    $("#ad-filter-input").value = "";
    filter.flush("");
  }
  if (op) {
    ensureBody(op);
    op.el.open = true;
    markCurrent(id);
  }
  // Tags off screen are not laid out (content-visibility); lay them all out once so the jump lands exactly,
  // and let them rest again when their sizes are remembered.
  const groups = $("#ad-groups");
  groups.classList.add("is-measuring");
  el.scrollIntoView({ block: "start" });
  requestAnimationFrame(() => requestAnimationFrame(() => {
    groups.classList.remove("is-measuring");
  }));
  if (focus) {
    const target = op ? op.el.querySelector("summary") : el.matches("a, button, summary, [tabindex]") ? el : null;
    if (target) target.focus({ preventScroll: true });
    else {
      el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    }
  }
}

const filter = debounce(applyFilter, FILTER_DELAY);

function bindInteractions() {
  $("#ad-filter-input").addEventListener("input", (event) => filter(event.target.value));
  $("#ad-filter-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      filter.flush(event.target.value);
    }
  });
  // Details are built when an operation opens (toggle does not bubble, so listen while it is captured).
  $("#ad-groups").addEventListener("toggle", (event) => {
    const op = state.byId.get(event.target.id);
    if (op && op.el === event.target && event.target.open) ensureBody(op);
  }, true);
  $("#ad-toc-toggle").addEventListener("click", () => setTocOpen($("#ad-toc").classList.contains("is-collapsed")));
  // A link to the address we are already at does not fire hashchange: open the target anyway.
  document.addEventListener("click", (event) => {
    const anchor = event.target.closest && event.target.closest('a[href^="#"]');
    if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (anchor.closest(".ad-toc") && narrowQuery.matches) setTocOpen(false);
    if (anchor.hash === location.hash) {
      event.preventDefault();
      revealHash();
    }
  });
  window.addEventListener("hashchange", () => revealHash());
}

// MARK: Loading

function chooseSource() {
  const src = new URLSearchParams(location.search).get("src");
  if (!src) return { url: DEFAULT_SOURCE };
  try {
    const url = new URL(src, location.href);
    if (url.origin === location.origin && (url.protocol === "http:" || url.protocol === "https:")) {
      return { url: url.pathname + url.search };
    }
  } catch {
    // fall through
  }
  return { url: DEFAULT_SOURCE, note: "Only documents from this site can be shown here, so this is the site's own API description." };
}

function showError(title, text, detail = "") {
  $("#ad-status").replaceChildren();
  $("#ad-error-title").textContent = title;
  $("#ad-error-text").textContent = text;
  $("#ad-error-detail").textContent = detail;
  $("#ad-error").hidden = false;
  $("#ad-toc").hidden = true;
  $("#ad-content").hidden = true;
  $("#main").removeAttribute("aria-busy");
}

async function fetchDocument(url) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 20000);
  let response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-cache", signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    const err = new Error(error && error.name === "AbortError"
      ? "The server took too long to answer."
      : "We could not reach the server. Check your connection and try again.");
    err.kind = "network";
    throw err;
  }
  try {
    if (!response.ok) {
      const err = new Error(response.status === 404
        ? "The API description has not been published here yet."
        : response.status === 503 || response.status === 502 || response.status === 504
          ? "The server is busy or starting up."
          : response.status >= 500
            ? "The server had a problem sending the API description."
            : `The server did not hand out the API description (status ${response.status}).`);
      err.kind = "status";
      err.detail = `${url} — HTTP ${response.status}`;
      throw err;
    }
    const text = await response.text();
    let doc;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      const err = new Error("The document arrived, but it is not valid JSON — it may still be being written.");
      err.detail = `${url} — ${error.message}`;
      throw err;
    }
    if (!isObject(doc) || !(doc.openapi || doc.swagger) || !(isObject(doc.paths) || isObject(doc.webhooks))) {
      const err = new Error("The document arrived, but it does not look like an OpenAPI description (it has no “openapi” version or no paths).");
      err.detail = url;
      throw err;
    }
    return doc;
  } finally {
    clearTimeout(timer);
  }
}

async function load() {
  const source = chooseSource();
  state.source = source.url;
  for (const el of [$("#ad-download"), $("#ad-footer-link"), $("#ad-error-link")]) el.href = source.url;
  $("#ad-footer-link").textContent = source.url.split("?")[0];
  $("#ad-error").hidden = true;
  $("#main").setAttribute("aria-busy", "true");
  $("#ad-status").replaceChildren(h("p", { class: "ad-loading muted" }, "Loading the API description…"));
  let doc;
  try {
    doc = await fetchDocument(source.url);
  } catch (error) {
    showError("We could not load the API description", `${error.message} You can try again in a moment, or open the raw document.`, error.detail || "");
    return;
  }
  state.doc = doc;
  state.byId.clear();
  state.usedIds.clear();
  try {
    renderIntro(doc);
    renderAuth(doc);
    collect(doc);
    $("#ad-status").replaceChildren(source.note ? h("p", { class: "ad-note" }, source.note) : "");
    $("#ad-toc").hidden = false;
    $("#ad-content").hidden = false;
    setTocOpen(!narrowQuery.matches);
    await renderOperations();
  } catch (error) {
    console.error(error);
    showError("We could not show the API description", "The document loaded, but part of it could not be read. The raw document is still available.", error.message);
    return;
  }
  $("#main").removeAttribute("aria-busy");
  applyFilter($("#ad-filter-input").value);
  if (!state.ops.length) $("#ad-groups").replaceChildren(h("p", { class: "card" }, "This document lists no operations yet."));
  revealHash({ focus: true });
}

boot();
// Calm mode (or the system's reduced motion) stills the page's few transitions too.
const applyCalm = () => document.documentElement.classList.toggle("ad-calm", preference() === "reduced");
applyCalm();
window.addEventListener("motionpreferencechange", applyCalm);
bindInteractions();
$("#ad-retry").addEventListener("click", () => load());
load();
