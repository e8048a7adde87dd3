// Projects: drawing the sidebar, the open list's header and its task rows from `state`, keeping focus where it was.
import { prunePicks } from "./selection.js";
import { $, h } from "../lib/dom.js";
import { overdueWords, plural, shortDay } from "../lib/format.js";
import { ringElement } from "../progress-ring.js";
import { currentProject, hiddenCount, INBOX, isEditingInList, listHeadings, shownCompleted, shownItems, shownTasks, state, taskById } from "./state.js";
import { headingRow, headingRowState } from "./headings.js";
import { measure, offsetOf, windowFor } from "./window.js";

/** Parsed icons by markup and size: a row clones one instead of parsing its SVG again (a long list draws many rows). */
const iconCache = new Map();

export function svgIcon(markup, size = 18) {
  const cacheKey = `${size}|${markup}`;
  let icon = iconCache.get(cacheKey);
  if (!icon) {
    icon = document.createElement("span");
    icon.className = "pj-icon";
    icon.setAttribute("aria-hidden", "true");
    icon.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">${markup}</svg>`;
    iconCache.set(cacheKey, icon);
  }
  return icon.cloneNode(true);
}

export const ICONS = {
  inbox: '<path d="M4 13.5V18a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4.5"/><path d="M4 13.5l2.4-7.2A2 2 0 0 1 8.3 5h7.4a2 2 0 0 1 1.9 1.3l2.4 7.2"/><path d="M4 13.5h4.5l1.2 2.2h4.6l1.2-2.2H20"/>',
  grip: '<circle cx="9" cy="6.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="6.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="9" cy="12" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="12" r="1.3" fill="currentColor" stroke="none"/><circle cx="9" cy="17.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="17.5" r="1.3" fill="currentColor" stroke="none"/>',
  check: '<path d="M6 12.5l4 4L18 8.5"/>',
  chevron: '<path d="M6 9l6 6 6-6"/>',
  calendar: '<rect x="4" y="5.5" width="16" height="14.5" rx="2.5"/><path d="M4 10h16M8.5 3.5v4M15.5 3.5v4"/>',
  notes: '<path d="M6 5h12M6 10h12M6 15h8"/>',
};

// MARK: Sidebar

function badge(count, label) {
  if (!count) return null;
  return h("span", { class: "pj-badge", "data-testid": "active-count" },
    String(count), h("span", { class: "vh", text: ` ${label}` }));
}

function inboxRow() {
  const selected = !state.agenda && state.selected === INBOX;
  return h("li", { class: `pj-nav-item${selected ? " is-selected" : ""}`, "data-testid": "inbox-row", "data-list": INBOX },
    h("span", { class: "pj-nav-mark" }, svgIcon(ICONS.inbox, 18)),
    h("a", { class: "pj-nav-link", href: "/projects?list=inbox", "data-list": INBOX, "aria-current": selected ? "page" : null },
      h("span", { class: "pj-nav-name", text: "Inbox" }),
      badge(state.inbox.active, state.inbox.active === 1 ? "task to do" : "tasks to do")));
}

function projectRow(project) {
  const selected = !state.agenda && state.selected === project.id;
  // An archived project is listed apart and keeps its place among the others: nothing to drag.
  const handle = project.archived ? null : h("button", {
    class: "pj-handle", type: "button", "data-testid": "drag-handle", "aria-label": `Reorder ${project.name}`,
    "aria-describedby": "reorder-help", "data-focus": "handle",
  }, svgIcon(ICONS.grip, 16));
  return h("li", {
    class: `pj-nav-item${selected ? " is-selected" : ""}`, "data-testid": "project-row", "data-project-id": project.id,
    "data-list": project.id, "data-color": project.color, "data-archived": String(Boolean(project.archived)),
  },
  handle,
  h("span", { class: "pj-nav-mark" }, ringElement(project.id, 16)),
  h("a", { class: "pj-nav-link", href: `/projects?list=${encodeURIComponent(project.id)}`, "data-list": project.id, "data-focus": "link", "aria-current": selected ? "page" : null },
    h("span", { class: "pj-nav-name", text: project.name, title: project.name }),
    badge(project.active, project.active === 1 ? "task to do" : "tasks to do")));
}

export function renderSidebar() {
  if (state.dragging && state.dragging.list === $("#project-nav")) {
    state.deferred.sidebar = true;
    return;
  }
  state.deferred.sidebar = false;
  const nav = $("#project-nav");
  const focus = focusKeyIn($("#sidebar"), NAV_ROWS);
  for (const row of $("#views-nav").children) {
    const selected = state.agenda === row.dataset.list;
    row.classList.toggle("is-selected", selected);
    const link = row.querySelector("a");
    if (selected) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  $("#inbox-nav").replaceChildren(inboxRow());
  const archived = state.projects.filter((project) => project.archived);
  const shown = state.projects.filter((project) => !project.archived);
  nav.replaceChildren(...shown.map(projectRow));
  $("#nav-empty").hidden = shown.length > 0;
  $("#archived-nav").replaceChildren(...archived.map(projectRow));
  $("#archived-count").textContent = `(${archived.length})`;
  $("#archived").hidden = archived.length === 0;
  // The open project was just archived: its row stays in sight.
  if (archived.some((project) => project.id === state.selected) && !state.agenda) $("#archived").open = true;
  restoreFocus($("#sidebar"), NAV_ROWS, focus);
}

/** Rows of the sidebar and of the task list, and the key each row carries. */
const NAV_ROWS = { selector: "li[data-list]", key: (row) => row.dataset.list };
/** Task rows and heading rows (a heading's key is "heading:<id>", as its entry in shownItems). */
const TASK_ROWS = { selector: "li[data-task-id], li[data-heading-id]", key: (row) => row.dataset.taskId || row.dataset.rowKey };

/** What has focus inside `root`: the row's key and which part of it, so a re-render can put it back. */
function focusKeyIn(root, rows) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const row = active.closest(rows.selector);
  if (!row) return null;
  return { key: rows.key(row), part: active === row ? "row" : active.dataset.focus || null, index: rowIndex(row) };
}

function rowIndex(row) {
  return row.parentElement ? Array.prototype.indexOf.call(row.parentElement.children, row) : -1;
}

function restoreFocus(root, rows, focus) {
  if (!focus) return false;
  const row = [...root.querySelectorAll(rows.selector)].find((element) => rows.key(element) === focus.key);
  if (!row) return false;
  const part = focus.part && focus.part !== "row" ? row.querySelector(`[data-focus="${focus.part}"]`) : null;
  const target = focus.part === "row" ? row : part || row.querySelector("a, button") || row;
  target.focus({ preventScroll: true });
  return true;
}

// MARK: Header

function renderSwatches() {
  const project = currentProject();
  const container = $("#swatches");
  if (container.childElementCount !== state.colors.length) {
    container.replaceChildren(...state.colors.map((color) =>
      h("label", { class: "pj-swatch", "data-color": color },
        h("input", { type: "radio", name: "project-color", value: color, "data-testid": `color-${color}` }),
        h("span", { class: "pj-swatch-dot", "aria-hidden": "true" }),
        h("span", { class: "vh", text: state.colorLabels.get(color) || color }))));
  }
  for (const input of container.querySelectorAll("input")) input.checked = Boolean(project && input.value === project.color);
}

export function renderHeader() {
  const project = currentProject();
  const isInbox = state.selected === INBOX;
  const title = $("#list-title");
  title.textContent = isInbox ? "Inbox" : project ? project.name : "";
  // A project's visible title is its name field; the heading stays for screen readers and the outline.
  title.classList.toggle("vh", !isInbox);
  $("#head-mark").replaceChildren(isInbox ? svgIcon(ICONS.inbox, 20) : project ? ringElement(project.id, 20) : "");
  const name = $("#project-name");
  name.hidden = isInbox;
  $("#delete-project").hidden = isInbox;
  const archive = $("#archive-project");
  archive.hidden = isInbox || !project;
  // Headings group a project's tasks; an archived project takes no new ones (the server refuses them).
  const addHeading = $("#add-heading");
  addHeading.hidden = isInbox || !project || Boolean(project.archived);
  if (project) archive.textContent = project.archived ? "Unarchive" : "Archive";
  $("#project-meta").hidden = isInbox;
  if (project) {
    if (document.activeElement !== name) name.value = project.name;
    name.title = project.name; // the whole name, where a long one ends with an ellipsis
    const notes = $("#project-notes");
    if (document.activeElement !== notes) {
      notes.value = project.notes;
      fitTextarea(notes);
    }
    renderSwatches();
    $("#app").dataset.color = project.color;
  } else {
    delete $("#app").dataset.color;
  }
  const summary = $("#list-summary");
  if (isInbox) {
    summary.textContent = state.inbox.total ? `${state.inbox.completed} of ${plural(state.inbox.total, "task")} done · tasks without a project` : "Tasks without a project";
  } else if (project) {
    summary.textContent = project.total ? `${project.completed} of ${plural(project.total, "task")} done · ${project.percent}%` : "No tasks yet";
  }
  $("#all-done").hidden = !(project && project.isComplete);
  // An archived project takes no new tasks (the server refuses them): the field says so.
  const closed = Boolean(project && project.archived);
  $("#add-task").disabled = closed;
  $("#add-task").placeholder = closed ? "Archived: unarchive it to add tasks"
    : isInbox ? "Add a task to the Inbox" : `Add a task to ${project ? project.name : "this project"}`;
  $("#add-label").textContent = isInbox ? "Add a task to the Inbox" : `Add a task to ${project ? project.name : "this project"}`;
  $("#welcome").hidden = state.projects.length > 0;
  if (!state.agenda) document.title = `${isInbox ? "Inbox" : project ? project.name : "Projects"} — Projects — CompletionKit`;
}

export function fitTextarea(textarea) {
  if (!textarea.offsetParent) return; // hidden: measured when it shows
  textarea.style.height = "auto";
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}

// MARK: Task list

/** The server's name for a priority (its value if the server has not named it). */
export function priorityLabel(priority) {
  const known = state.priorities.find(({ value }) => value === priority);
  return known ? known.label : priority;
}

function taskRow(task) {
  const done = shownCompleted(task);
  const expanded = state.expanded.has(task.id);
  const detailsId = `details-${task.id}`;
  const titleId = `title-${task.id}`;
  const editing = state.editing === task.id;
  const picked = state.picked.has(task.id);
  const row = h("li", {
    class: `pj-task${done ? " is-done" : ""}${expanded ? " is-open" : ""}${picked ? " is-picked" : ""}`,
    "data-testid": "task-row", "data-task-id": task.id, "data-completed": String(done), "data-picked": String(picked),
    tabindex: task.id === state.cursor ? "0" : "-1", "aria-labelledby": titleId,
  });
  const title = editing
    ? h("input", {
        class: "pj-title-input", id: titleId, value: task.title, "data-focus": "title-input", "data-testid": "task-title-input",
        "aria-label": "Task title", maxlength: state.limits && state.limits.title, enterkeyhint: "done",
      })
    : h("button", { class: "pj-title", type: "button", id: titleId, "data-action": "edit", "data-focus": "title", "data-testid": "task-title", title: "Rename" },
        task.title);
  const meta = h("span", { class: "pj-meta" },
    // Added without a connection: shown at once, sent when the connection is back (as a heading added offline).
    task.offline ? h("span", { class: "pj-waiting", "data-testid": "task-waiting" }, "Waiting to be sent") : null,
    task.priority !== "none"
      ? h("span", { class: `pj-priority is-${task.priority}`, "data-testid": "task-priority-marker", "data-priority": task.priority },
          h("span", { class: "pj-priority-bars", "aria-hidden": "true" }),
          priorityLabel(task.priority), h("span", { class: "vh", text: " priority" }))
      : null,
    // Overdue as the server marked it (in this page's time zone), in Today's words, mark and colour.
    task.dueDate && task.due === "overdue" && !done
      ? h("span", { class: "pj-due is-overdue", "data-testid": "task-due-date", "data-due": "overdue", title: `Due ${shortDay(task.dueDate)}` },
          h("span", { class: "pj-overdue-mark", "aria-hidden": "true", text: "!" }), overdueWords(task.daysLate),
          h("time", { class: "vh", datetime: task.dueDate, text: ` (due ${shortDay(task.dueDate)})` }))
      : task.dueDate
      ? h("span", { class: "pj-due", "data-testid": "task-due-date" }, svgIcon(ICONS.calendar, 14),
          h("span", { class: "vh", text: "Due " }), h("time", { datetime: task.dueDate, text: shortDay(task.dueDate) }))
      : null,
    task.notes ? h("span", { class: "pj-has-notes", title: "Has notes" }, svgIcon(ICONS.notes, 14), h("span", { class: "vh", text: "Has notes" })) : null);
  row.append(
    h("div", { class: "pj-task-line" },
      h("button", {
        class: "pj-handle", type: "button", "data-testid": "drag-handle", "data-focus": "handle",
        "aria-label": `Reorder ${task.title}`, "aria-describedby": "reorder-help",
      }, svgIcon(ICONS.grip, 16)),
      h("button", {
        class: "pj-check", type: "button", role: "checkbox", "aria-checked": String(done),
        "aria-label": `Complete ${task.title}`, "data-action": "toggle", "data-testid": "task-check", "data-focus": "check",
      }, svgIcon(ICONS.check, 16)),
      h("div", { class: "pj-task-main" }, title, meta, picked ? h("span", { class: "vh", text: " (selected)" }) : null),
      h("button", { class: "pj-move", type: "button", "data-action": "move", "data-testid": "move-button", "data-focus": "move", "aria-haspopup": "dialog" },
        h("span", { class: "pj-move-text", text: "Move…" }), h("span", { class: "vh", text: ` ${task.title}` })),
      h("button", {
        class: "pj-expand", type: "button", "data-action": "expand", "data-testid": "task-expand", "data-focus": "expand",
        "aria-expanded": String(expanded), "aria-controls": detailsId, "aria-label": `Details of ${task.title}`,
      }, svgIcon(ICONS.chevron, 18))),
    taskDetails(task, detailsId, expanded));
  return row;
}

/**
 * A task's details. A closed row gets an empty box (its fields are made when it opens: a long list draws many
 * rows and most stay closed).
 */
export function taskDetails(task, id, expanded) {
  const dueId = `due-${task.id}`;
  if (!expanded) return h("div", { class: "pj-details", id, hidden: true, "data-testid": "task-details", "data-empty": "true" });
  return h("div", { class: "pj-details", id, hidden: !expanded, "data-testid": "task-details" },
    h("label", { class: "field pj-details-notes" }, "Notes",
      h("textarea", { class: "pj-textarea", rows: "3", "data-field": "notes", "data-focus": "notes", "data-testid": "task-notes", maxlength: state.limits && state.limits.notes, value: task.notes })),
    h("div", { class: "pj-details-row" },
      h("label", { class: "field" }, "Priority",
        h("select", { class: "pj-select", "data-field": "priority", "data-focus": "priority", "data-testid": "task-priority" },
          state.priorities.map(({ value, label }) => h("option", { value, selected: value === task.priority ? true : null, text: label })))),
      h("div", { class: "field" },
        h("label", { for: dueId, text: "Due date" }),
        h("span", { class: "pj-due-field" },
          h("input", { type: "date", id: dueId, class: "pj-date", "data-field": "dueDate", "data-focus": "due", "data-testid": "task-due", value: task.dueDate || "" }),
          h("button", { class: "button quiet pj-small", type: "button", "data-action": "clear-due", "data-focus": "clear-due", "data-testid": "task-clear-due", disabled: !task.dueDate },
            "Clear", h("span", { class: "vh", text: " due date" })))),
      h("button", { class: "button quiet danger pj-small pj-delete-task", type: "button", "data-action": "delete", "data-focus": "delete", "data-testid": "task-delete" },
        "Delete task")));
}

/**
 * The rows in the document, by task id: the task object each was drawn from and what else it shows, so a
 * render keeps every row whose task and state did not change (and the node, its focus and its scroll with it).
 */
const drawn = new Map();

function rowState(task) {
  return `${shownCompleted(task)}|${state.expanded.has(task.id)}|${state.editing === task.id}|${state.picked.has(task.id)}`;
}

/** A row changed in place (a tick shown before the answer): the next render draws it again from its task. */
export function forgetRow(taskId) {
  drawn.delete(taskId);
}

/** The row of `task`: the one in the document when nothing it shows changed, otherwise a new one. */
function rowOf(task, index, total) {
  if (task.heading) return headingRowOf(task);
  const shows = rowState(task);
  const kept = drawn.get(task.id);
  let row;
  if (kept && kept.task === task && kept.shows === shows) row = kept.row;
  else {
    row = taskRow(task);
    row.dataset.fresh = "true";
  }
  row.tabIndex = task.id === state.cursor ? 0 : -1;
  // Screen readers hear "3 of 10,000" although only the rows near the screen are in the document.
  row.setAttribute("aria-posinset", String(index + 1));
  row.setAttribute("aria-setsize", String(total));
  return { task, shows, row };
}

/** A heading's row (an entry of shownItems), kept while its heading, its count and its editing are as drawn. */
function headingRowOf(item) {
  const shows = headingRowState(item);
  const kept = drawn.get(item.id);
  const row = kept && kept.task.heading === item.heading && kept.shows === shows ? kept.row : headingRow(item);
  return { task: item, shows, row };
}

/** Puts exactly `rows` into `list`, in order, moving only what is out of place. */
function reconcile(list, rows) {
  const wanted = new Set(rows);
  for (const child of [...list.children]) if (!wanted.has(child)) child.remove();
  let cursor = list.firstElementChild;
  for (const row of rows) {
    if (row === cursor) cursor = cursor.nextElementSibling;
    else list.insertBefore(row, cursor);
  }
}

/**
 * Draws the rows on screen (every row of a list shorter than WINDOW_FROM); rows that did not change stay.
 * `items` are the tasks with their headings' rows between them (see shownItems); "3 of 10" counts tasks only.
 */
function drawRows(list, items) {
  const pending = pendingRows();
  const range = windowFor(list, items, pending);
  const entries = [];
  const headingsBefore = items.length > 0 && listHeadings().length > 0;
  let taskIndex = 0;
  if (headingsBefore) for (let i = 0; i < range.start; i++) if (!items[i].heading) taskIndex += 1;
  const total = items.length - (headingsBefore ? listHeadings().length : 0) + pending;
  for (let i = range.start; i < range.end; i++) {
    entries.push(rowOf(items[i], headingsBefore ? taskIndex : i, total));
    if (!items[i].heading) taskIndex += 1;
  }
  reconcile(list, entries.map((entry) => entry.row));
  drawn.clear();
  for (const entry of entries) drawn.set(entry.task.id, entry);
  list.style.paddingTop = range.before ? `${range.before}px` : "";
  list.style.paddingBottom = range.after ? `${range.after}px` : "";
  list.dataset.windowed = String(range.windowed);
  state.window = range;
  const fresh = list.querySelectorAll("[data-fresh]");
  for (const row of fresh) {
    delete row.dataset.fresh;
    for (const notes of row.querySelectorAll("textarea")) if (!notes.closest("[hidden]")) fitTextarea(notes);
  }
  // The first rows measured replace the guess: the heights above and below are worked out again with them.
  if (range.windowed && measure(list)) drawRows(list, items);
}

export function renderTasks() {
  if (isEditingInList() || state.pressing || (state.dragging && state.dragging.list === $("#task-list"))) {
    state.deferred.tasks = true;
    return;
  }
  state.deferred.tasks = false;
  const list = $("#task-list");
  const tasks = shownTasks();
  const focus = focusKeyIn(list, TASK_ROWS);
  const focusedRow = focus && document.activeElement.closest(TASK_ROWS.selector);
  if (focus && focusedRow.dataset.taskId) focus.index = Number(focusedRow.getAttribute("aria-posinset")) - 1;
  if (state.cursor && !tasks.some((task) => task.id === state.cursor)) {
    // The cursor's task left the list: the cursor stays at the same place.
    const index = focus ? focus.index : 0;
    state.cursor = tasks.length ? tasks[Math.min(Math.max(index, 0), tasks.length - 1)].id : null;
  }
  if (!state.cursor && tasks.length) state.cursor = tasks[0].id;
  drawRows(list, shownItems());
  prunePicks();
  list.setAttribute("aria-busy", "false");
  const empty = $("#list-empty");
  empty.hidden = !state.list || tasks.length > 0;
  const hidden = hiddenCount();
  empty.textContent = hidden
    ? `Every task here is completed, and completed tasks are hidden.`
    : state.selected === INBOX
      ? "Your Inbox is empty. Tasks you add without a project land here."
      : currentProject()?.archived
        ? "No tasks. This project is archived: unarchive it to add tasks."
        : "No tasks yet. Type one above and press Enter — the field stays ready for the next.";
  // A list opened with its first page says that the rest is on its way.
  const rest = $("#list-rest");
  const remaining = pendingRows();
  rest.hidden = remaining <= 0;
  rest.textContent = remaining > 0 ? `Loading the other ${plural(remaining, "task")}…` : "";
  const toggle = $("#hide-completed");
  toggle.setAttribute("aria-pressed", String(state.hideCompleted));
  // Tasks completed here stay in sight, ticked, until the list is opened again (one tick or several alike).
  const staying = state.hideCompleted ? tasks.filter((task) => state.stayShown.has(task.id) && shownCompleted(task)).length : 0;
  const notes = [];
  if (state.hideCompleted && hidden) notes.push(`${plural(hidden, "completed task")} hidden`);
  if (staying) notes.push("Just completed ones stay until you leave the list");
  $("#hidden-note").textContent = notes.join(" · ");
  // Focus inside the list stays where it was (a row that was kept never lost it).
  if (focus && !list.contains(document.activeElement) && !restoreFocus(list, TASK_ROWS, focus)) {
    const fallback = state.cursor && rowFor(state.cursor);
    (fallback || $("#add-task")).focus({ preventScroll: true });
  }
}

/**
 * The tasks of a list opened with its first page that have not arrived yet (its kept count less the rows
 * here): the scroll bar and "3 of 10,000" count them already, so nothing jumps when they come.
 */
function pendingRows() {
  if (!state.list || !state.list.partial) return 0;
  const project = state.selected === INBOX ? state.inbox : currentProject();
  return Math.max(0, (project ? project.total : 0) - state.list.tasks.filter((task) => !task.offline).length);
}

/** After a scroll: draws the rows now near the screen, if that changed (a short list never changes). */
export function renderVisibleRows() {
  const list = $("#task-list");
  if (!state.window || !state.window.windowed || !state.list || state.deferred.tasks) return;
  const range = windowFor(list, shownItems(), pendingRows());
  if (range.start === state.window.start && range.end === state.window.end) return;
  renderTasks();
}

/** The row of `taskId`, scrolling it into the document first when a long list has not drawn it. */
export function revealRow(taskId) {
  const existing = rowFor(taskId);
  if (existing || !state.list) return existing;
  const items = shownItems();
  const index = items.findIndex((item) => item.id === taskId);
  if (index < 0) return null;
  const list = $("#task-list");
  const top = list.getBoundingClientRect().top + window.scrollY + offsetOf(items, index);
  window.scrollTo({ top: Math.max(0, top - window.innerHeight / 3), behavior: "instant" });
  renderTasks();
  return rowFor(taskId);
}

/** Re-renders one task's row in place (the rest of the list, and a click on it, are left alone). */
export function renderRow(taskId) {
  const task = taskById(taskId);
  const old = rowFor(taskId);
  if (!task || !old) return null;
  const fresh = taskRow(task);
  fresh.tabIndex = old.tabIndex;
  for (const name of ["aria-posinset", "aria-setsize"]) fresh.setAttribute(name, old.getAttribute(name));
  old.replaceWith(fresh);
  drawn.set(taskId, { task, shows: rowState(task), row: fresh });
  for (const notes of fresh.querySelectorAll("textarea")) if (!notes.closest("[hidden]")) fitTextarea(notes);
  return fresh;
}

export function rowFor(taskId) {
  const entry = drawn.get(taskId);
  return entry && entry.row.isConnected ? entry.row : null;
}

export function renderAll() {
  renderSidebar();
  renderHeader();
  renderTasks();
}
