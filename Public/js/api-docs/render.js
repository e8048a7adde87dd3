// The /api page: collecting the document's operations by tag, and rendering the intro, authentication and the list.
import { $, h } from "../lib/dom.js";
import { isObject, methodBadge, METHODS, pathNode, slug, state, uniqueId } from "./common.js";
import { inlinePlain, longText, markdown, markdownBlock } from "./markdown.js";
import { schemeAnchor, securityText } from "./operations.js";
import { deref } from "./schemas.js";

// MARK: Collecting and rendering

export function collect(doc) {
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

export function renderIntro(doc) {
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

export function renderAuth(doc) {
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
export async function renderOperations() {
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
