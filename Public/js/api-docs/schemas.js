// The /api page: `$ref`s followed, and schemas shown as readable trees (types, constraints, properties, variants).
import { h } from "../lib/dom.js";
import { ENUM_PREVIEW, isObject, LAZY_DEPTH, state } from "./common.js";
import { descriptionBlock, lazyDetails } from "./markdown.js";

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
export function deref(value, stack = []) {
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
export function analyze(raw, stack = []) {
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
export function typeLabel(info, depth = 0) {
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

export function valueList(values) {
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
export function facets(info, extra = []) {
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
export function children(info, depth) {
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
export function schemaView(raw, { collapsed = false } = {}) {
  const info = analyze(raw, []);
  const box = h("div", { class: "ad-schema" });
  box.append(h("p", { class: "ad-schema-head" }, h("span", { class: "ad-type" }, typeLabel(info)), flags(info.schema, false)));
  box.append(descriptionBlock(info.schema.description) || "", facets(info) || "", nested(info, 0, collapsed) || "");
  return box;
}
