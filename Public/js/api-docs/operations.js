// The /api page: one operation's details (parameters, request body, responses, security), built when it is opened.
import { h } from "../lib/dom.js";
import { IN_ORDER, isObject, methodBadge, pathNode, REASONS, slug, state } from "./common.js";
import { markdownBlock } from "./markdown.js";
import { analyze, deref, facets, schemaView, typeLabel, valueList } from "./schemas.js";

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

export function securityText(requirements, lowercase = false) {
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

export const schemeAnchor = (name) => `auth-${slug(name)}`;

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

export function ensureBody(op) {
  if (op.built) return;
  op.built = true;
  try {
    op.el.append(operationBody(op));
  } catch (error) {
    op.el.append(h("p", { class: "message error" }, "This operation could not be shown. The raw document has all of it."));
    console.error(error);
  }
}
