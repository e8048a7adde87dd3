// Projects: headings inside a project — their rows in the task list, adding (g), renaming (a click or Enter),
// deleting (its tasks stay in the project, under no heading), and a task's place under one by dragging it or
// with Alt+↑/↓. The server keeps every rule (names, limits, which heading a task may go under); the page draws
// what it answers. Without a connection, adding, renaming and deleting a heading are kept and sent later as a
// task's changes are (js/projects/offline.js): a heading added offline has an id this page proposes, so the
// tasks put under it meanwhile land under it.
import { announce } from "../lib/announce.js";
import { api, newIdempotencyKey } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { chooseVersion, confirmDialog } from "./dialogs.js";
import { keep, mustWait, overlay, overlayHeadings } from "./offline.js";
import { showUndo } from "./undo.js";
import { renderHeader, renderSidebar, renderTasks } from "./render.js";
import { change, currentProject, isRepeatClick, listHeadings, once, showError, shownItems, sortTasks, state, taskById, upsertProject } from "./state.js";

// MARK: Rows

/** What a heading's row shows: a row is drawn again only when this changes. */
export function headingRowState(item) {
  return `${item.heading.name}|${item.count}|${state.editingHeading === item.heading.id}|${Boolean(item.heading.waiting)}`;
}

/** The row of a heading (an entry of shownItems): its name (a button that renames it), its count and Delete. */
export function headingRow(item) {
  const { heading, count } = item;
  const editing = state.editingHeading === heading.id;
  const nameId = `heading-${heading.id}`;
  const name = editing
    ? h("input", {
        class: "pj-heading-input", id: nameId, value: heading.name, "data-focus": "heading-input", "data-testid": "heading-name-input",
        "aria-label": "Heading name", maxlength: state.limits && state.limits.name, enterkeyhint: "done",
      })
    : h("button", {
        class: "pj-heading-name", type: "button", id: nameId, "data-action": "rename-heading", "data-focus": "heading-name",
        "data-testid": "heading-name", title: "Rename",
      }, heading.name);
  const waitingId = `heading-waiting-${heading.id}`;
  return h("li", {
    class: `pj-heading${heading.waiting ? " is-waiting" : ""}`, "data-testid": "heading-row", "data-heading-id": heading.id,
    "data-row-key": `heading:${heading.id}`, "data-waiting": heading.waiting ? "true" : null,
    "aria-labelledby": heading.waiting ? `${nameId} ${waitingId}` : nameId,
  },
  heading.waiting
    ? h("div", { class: "pj-heading-main" },
      h("h3", { class: "pj-heading-title" }, name),
      // Added or renamed without a connection: shown at once, sent when the connection is back.
      h("span", { class: "pj-waiting pj-heading-waiting small", id: waitingId, "data-testid": "heading-waiting" }, "Waiting to be sent"))
    : h("h3", { class: "pj-heading-title" }, name),
  h("span", { class: "pj-heading-count muted small", "data-testid": "heading-count" }, plural(count, "task")),
  h("button", {
    class: "button quiet pj-small pj-heading-delete", type: "button", "data-action": "delete-heading", "data-focus": "heading-delete",
    "data-testid": "heading-delete",
  }, "Delete", h("span", { class: "vh", text: ` heading ${heading.name}` })));
}

function headingRowFor(headingId) {
  return $("#task-list").querySelector(`[data-heading-id="${CSS.escape(headingId)}"]`);
}

// MARK: Changes

/** Takes a HeadingsResponse: the project's headings in order, and the project (its revision moved, its counts not). */
function applyHeadings(response, projectId) {
  upsertProject(response.project);
  if (state.list && state.list.key === projectId) {
    state.list.headings = response.headings;
    sortTasks(state.list.tasks);
    // Our own change: the list is one revision on, with nothing else between (else the live stream refetches it).
    if (response.project.revision === state.list.revision + 1) state.list.revision = response.project.revision;
  }
  renderSidebar();
  renderHeader();
  renderTasks();
}

const path = (projectId, headingId = "") =>
  `/api/projects/${encodeURIComponent(projectId)}/headings${headingId ? `/${encodeURIComponent(headingId)}` : ""}`;

/** What a heading change answers when it was kept to send later. */
const KEPT = Object.freeze({ offline: true });

/** A new random UUID (version 4) in capitals, as the server spells the ids it answers with. */
function newHeadingId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const digits = "0123456789ABCDEF";
  const hex = Array.from(bytes, (b) => digits[b >> 4] + digits[b & 15]).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The name the server gives a heading added without one (from its limits; the page keeps no copy of it). */
function defaultHeadingName() {
  return state.limits?.defaultHeadingName ?? "";
}

/**
 * Sends a heading change, or keeps it for later: when changes already wait (they go first, in order) or the
 * connection is gone. Answers the server's answer, KEPT, or throws the server's refusal.
 */
async function sendOrKeep(kept, send) {
  if (!mustWait(null)) {
    try {
      return await send();
    } catch (error) {
      if (!error.network) throw error;
    }
  }
  keep(kept);
  // Shown at once as the server will have it (the waiting changes laid over the open list, this one last).
  if (state.list && state.list.key === kept.projectId) {
    state.list.headings = overlayHeadings(kept.projectId, state.list.headings || []);
    // A heading deleted: its tasks go under no heading, as the server will put them.
    if (kept.kind === "heading-delete") state.list.tasks = sortTasks(overlay(kept.projectId, state.list.tasks.filter((task) => !task.offline)));
  }
  renderTasks();
  return KEPT;
}

/**
 * Adds a heading at the end of the open project's headings and opens its name for typing (key g). A second press
 * while the first is on its way, or while the new heading's name is open, adds none.
 */
export function addHeading() {
  if (state.editingHeading) return null;
  return once("heading", makeHeading);
}

async function makeHeading() {
  const project = currentProject();
  // An archived project is refused by the server, in its words (the page keeps no copy of the rule).
  if (!project || state.agenda) return;
  // The heading's id is proposed here: one added offline has it at once, and so do the tasks put under it
  // meanwhile. The same key and body on every try: the server adds it once.
  const id = newHeadingId();
  const kept = { key: newIdempotencyKey(), kind: "heading-add", projectId: project.id, headingId: id, body: { id }, title: defaultHeadingName() };
  const response = await change(() => sendOrKeep(kept, () => api(path(project.id), { method: "POST", body: kept.body, idempotencyKey: kept.key })));
  if (!response) return;
  if (response === KEPT) {
    announce(`Added a heading to ${project.name}; it is sent when you are back online. Type its name and press Enter.`);
    startRenaming(id);
    return;
  }
  if (!response.heading) return;
  applyHeadings(response, project.id);
  announce(`Added a heading to ${project.name}. Type its name and press Enter.`);
  startRenaming(response.heading.id);
}

/** The name a rename began on: sent with it, so a rename made elsewhere meanwhile is not overwritten silently. */
let renamingFrom = null;

/** Opens a heading's name for editing, in its row. */
export function startRenaming(headingId) {
  state.editingHeading = headingId;
  renamingFrom = listHeadings().find((one) => one.id === headingId)?.name ?? null;
  renderTasks();
  const row = headingRowFor(headingId);
  if (!row) {
    state.editingHeading = null;
    return;
  }
  row.scrollIntoView({ block: "nearest" });
  const input = row.querySelector("[data-testid=heading-name-input]");
  input.focus();
  input.select();
}

/** Ends editing a heading's name: `save` sends the new one (a blank one becomes the server's default). */
function finishRenaming(input, save) {
  const headingId = state.editingHeading;
  if (!headingId) return;
  state.editingHeading = null;
  const heading = listHeadings().find((one) => one.id === headingId);
  const name = input.value.trim();
  const projectId = state.list && state.list.key;
  // Out of the field first: a render waits while someone types in the list.
  input.blur();
  renderTasks();
  headingRowFor(headingId)?.querySelector("[data-testid=heading-name]")?.focus({ preventScroll: true });
  const baseName = renamingFrom ?? heading?.name;
  renamingFrom = null;
  if (!save || !heading || name === heading.name) return;
  const send = (base, key) => api(path(projectId, headingId), { method: "PATCH", body: { name, baseName: base }, idempotencyKey: key });
  const kept = {
    key: newIdempotencyKey(), kind: "heading-patch", projectId, headingId, body: { name, baseName }, title: name || defaultHeadingName(),
  };
  change(async () => {
    try {
      return await sendOrKeep(kept, () => send(baseName, kept.key));
    } catch (error) {
      // Renamed in another window since this rename began: both names are shown and the person chooses, as for a title.
      if (error.code !== "heading_conflict" || !error.data || !error.data.heading) throw error;
      const theirs = error.data.heading;
      const choice = await chooseVersion({ field: "name", title: baseName, mine: name, theirs: theirs.name });
      if (choice === "mine") return send(theirs.name, newIdempotencyKey());
      const shown = listHeadings().find((one) => one.id === headingId);
      if (shown) shown.name = theirs.name;
      renderTasks();
      announce(`Kept the heading's name saved elsewhere, ${theirs.name}.`);
      return null;
    }
  }).then((response) => {
    if (!response) return;
    if (response === KEPT) {
      announce(`Renamed the heading to ${kept.title}; it is sent when you are back online.`);
      return;
    }
    applyHeadings(response, projectId);
    announce(`Renamed the heading to ${response.heading ? response.heading.name : name}.`);
    // The server keeps the old name on the undo list: the toast offers it back, as for a task's change (the
    // name given a heading just added is part of adding it, which shows itself: z still takes it back).
    if (response.undo && response.undo.kind !== "heading_added") showUndo(response.undo);
  });
}

/** Deletes a heading after asking, saying where its tasks go (they stay in the project, under no heading). */
async function deleteHeading(headingId) {
  const project = currentProject();
  const heading = listHeadings().find((one) => one.id === headingId);
  if (!project || !heading) return;
  const count = state.list.tasks.filter((task) => task.headingId === headingId).length;
  const ok = await confirmDialog({
    title: `Delete the heading “${heading.name}”?`,
    text: count
      ? `Its ${plural(count, "task")} stay${count === 1 ? "s" : ""} in ${project.name}, without a heading. No task is deleted.`
      : `It has no tasks. Nothing else in ${project.name} changes.`,
    confirm: "Delete heading",
  });
  if (!ok) {
    headingRowFor(headingId)?.querySelector("[data-testid=heading-delete]")?.focus();
    return;
  }
  const kept = { key: newIdempotencyKey(), kind: "heading-delete", projectId: project.id, headingId, title: heading.name };
  const response = await change(() => sendOrKeep(kept, () => api(path(project.id, headingId), { method: "DELETE", idempotencyKey: kept.key })));
  if (!response) return;
  if (response === KEPT) {
    // Its tasks are under no heading already (laid over the list); undo follows once it is sent.
    announce(`Deleted the heading ${heading.name}; it is sent when you are back online.`);
    $("#add-task").focus({ preventScroll: true });
    return;
  }
  // Its tasks are under no heading now (the server did the same; a refetch would agree).
  if (state.list && state.list.key === project.id) {
    state.list.tasks = state.list.tasks.map((task) => (task.headingId === headingId ? { ...task, headingId: null } : task));
  }
  applyHeadings(response, project.id);
  announce(count ? `Deleted the heading ${heading.name}; its ${plural(count, "task")} moved to the top of ${project.name}.` : `Deleted the heading ${heading.name}.`);
  $("#add-task").focus({ preventScroll: true });
  // Undo (the toast, z, Ctrl+Z) brings it back at its place with its tasks under it.
  if (response.undo) showUndo(response.undo);
}

// MARK: A task's place

/**
 * The heading a task dropped at `index` of `keys` (task ids and "heading:<id>" keys, in their new order) is
 * under: the heading row above it, or the heading of the task above it; at the top, the group of the row
 * below it (a long list drags only the rows drawn, which may begin inside a heading's tasks).
 */
function headingAt(keys, index) {
  const above = keys[index - 1];
  if (above !== undefined) return above.startsWith("heading:") ? above.slice(8) : (taskById(above)?.headingId ?? null);
  const below = keys[index + 1];
  if (below === undefined || below.startsWith("heading:")) return null;
  return taskById(below)?.headingId ?? null;
}

/**
 * Commits a new order of the task list's rows (drawn task and heading rows, their keys in `keys`): a task that
 * crossed a heading row goes under that heading first, then the tasks take the new order. `commitOrder`
 * is the plain reorder (changes.js).
 */
export function commitPlacement(keys, movedId, commitOrder, setHeading) {
  const ids = keys.filter((key) => !key.startsWith("heading:"));
  const task = taskById(movedId);
  if (!task || !listHeadings().length) return commitOrder(ids, movedId);
  const target = headingAt(keys, keys.indexOf(movedId));
  if ((task.headingId ?? null) === target) return commitOrder(ids, movedId);
  const heading = listHeadings().find((one) => one.id === target);
  // Shown at once where it was dropped; the server's answers follow (the heading first, then the order).
  const index = state.list.tasks.findIndex((one) => one.id === movedId);
  state.list.tasks[index] = { ...task, headingId: target };
  setHeading(movedId, target).then((response) => {
    if (response) announce(target ? `${task.title} is under ${heading ? heading.name : "its heading"} now.` : `${task.title} is under no heading now.`);
  });
  commitOrder(ids, movedId);
}

/**
 * Alt+↑/↓ on a task: one row up or down among the rows shown, heading rows too, so a task at the top of a
 * heading's tasks moves out above it, into the group before.
 */
export function stepPlacement(taskId, step, commitOrder, setHeading) {
  const keys = shownItems().map((item) => item.id);
  const from = keys.indexOf(taskId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= keys.length) return false;
  keys.splice(to, 0, keys.splice(from, 1)[0]);
  state.cursor = taskId;
  commitPlacement(keys, taskId, commitOrder, setHeading);
  return true;
}

// MARK: Wiring

/** The heading rows' buttons and name field, by delegation on the task list; the "Add heading" button. */
export function wireHeadings() {
  const list = $("#task-list");
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    const row = event.target.closest("[data-heading-id]");
    if (!button || !row) return;
    if (button.dataset.action === "rename-heading") startRenaming(row.dataset.headingId);
    else if (button.dataset.action === "delete-heading") deleteHeading(row.dataset.headingId);
  });
  list.addEventListener("keydown", (event) => {
    const input = event.target.closest(".pj-heading-input");
    if (!input) return;
    if (event.key === "Enter") {
      event.preventDefault();
      finishRenaming(input, true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      finishRenaming(input, false);
    }
  });
  list.addEventListener("focusout", (event) => {
    if (event.target.closest(".pj-heading-input") && state.editingHeading) finishRenaming(event.target, true);
  });
  $("#add-heading").addEventListener("click", (event) => {
    if (isRepeatClick(event)) return;
    if (!currentProject()) return showError("Headings are for projects: open one first.");
    addHeading();
  });
}
