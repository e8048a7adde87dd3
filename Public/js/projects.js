// Projects: a small todo app (projects with tasks, an Inbox for the rest) whose rings follow the database
// live. The server keeps every count and decides every completion; this page shows what it sends
// (`percent`, `fraction`, `isComplete`, `active`), sends what the person does, and listens to the live stream
// so another tab or device moves the rings here too.
import { api, boot, currentUser } from "./app.js";
import { playChoreography, preference } from "./motion.js";
import { configureRingMotion, forgetRing, ringElement, syncRing } from "./progress-ring.js";

const $ = (selector, root = document) => root.querySelector(selector);
const INBOX = "inbox";
/** Where the layout shows one pane at a time (keep in step with projects.css). */
const PHONE = window.matchMedia("(max-width: 759px)");
const PRIORITIES = [["none", "None"], ["low", "Low"], ["medium", "Medium"], ["high", "High"]];
const COLOR_LABELS = { red: "Red", orange: "Orange", yellow: "Yellow", green: "Green", blue: "Blue", purple: "Purple", pink: "Pink", gray: "Gray" };

const state = {
  /** The person's change counter, from the overview and the live stream. */
  revision: 0,
  inbox: { total: 0, completed: 0, active: 0, revision: 0 },
  /** ProjectViews sorted by position. */
  projects: [],
  colors: [],
  /** The open list: INBOX or a project id. */
  selected: INBOX,
  /** The open list's tasks and the revision they were loaded at. */
  list: null,
  /** The task row the keyboard cursor is on. */
  cursor: null,
  /** Task ids whose details are open. */
  expanded: new Set(),
  /** taskId → the completion asked for, until the server answers (so quick presses alternate). */
  pendingChecks: new Map(),
  /** The task whose title is being edited inline. */
  editing: null,
  /** While a pointer is pressed in the task list, its re-render waits, so the press still ends in a click. */
  pressing: false,
  /** While a drag runs, renders of the dragged list wait. */
  dragging: null,
  deferred: { sidebar: false, tasks: false },
  celebration: { token: 0, timer: 0, projectId: null },
  source: null,
};

// MARK: Small helpers

/** Creates an element. `props`: class, text, data-* and aria-* attributes, on<event> listeners, properties. */
function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === "class") element.className = value;
    else if (key === "text") element.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "hidden" || key === "disabled") element[key] = value;
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child != null && child !== false) element.append(child);
  return element;
}

function svgIcon(markup, size = 18) {
  const span = document.createElement("span");
  span.className = "pj-icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">${markup}</svg>`;
  return span;
}

const ICONS = {
  inbox: '<path d="M4 13.5V18a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4.5"/><path d="M4 13.5l2.4-7.2A2 2 0 0 1 8.3 5h7.4a2 2 0 0 1 1.9 1.3l2.4 7.2"/><path d="M4 13.5h4.5l1.2 2.2h4.6l1.2-2.2H20"/>',
  grip: '<circle cx="9" cy="6.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="6.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="9" cy="12" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="12" r="1.3" fill="currentColor" stroke="none"/><circle cx="9" cy="17.5" r="1.3" fill="currentColor" stroke="none"/><circle cx="15" cy="17.5" r="1.3" fill="currentColor" stroke="none"/>',
  check: '<path d="M6 12.5l4 4L18 8.5"/>',
  chevron: '<path d="M6 9l6 6 6-6"/>',
  calendar: '<rect x="4" y="5.5" width="16" height="14.5" rx="2.5"/><path d="M4 10h16M8.5 3.5v4M15.5 3.5v4"/>',
  notes: '<path d="M6 5h12M6 10h12M6 15h8"/>',
};

function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

function byId(id) {
  return state.projects.find((project) => project.id === id) || null;
}

function currentProject() {
  return state.selected === INBOX ? null : byId(state.selected);
}

function listName(key) {
  if (key === INBOX) return "Inbox";
  const project = byId(key);
  return project ? project.name : "this project";
}

/** A "YYYY-MM-DD" day for people ("3 May", with the year when it is not this year). */
function formatDay(isoDay) {
  const [year, month, day] = isoDay.split("-").map(Number);
  if (!year || !month || !day) return isoDay;
  const date = new Date(year, month - 1, day);
  const options = { day: "numeric", month: "short" };
  if (year !== new Date().getFullYear()) options.year = "numeric";
  return date.toLocaleDateString(undefined, options);
}

function showError(message) {
  $("#error").textContent = message || "";
}

function clearError() {
  $("#error").textContent = "";
}

/** Says something to screen readers (reorders, moves, deletes) without moving focus. */
function announce(text) {
  const region = $("#announcer");
  region.textContent = "";
  // A new text node in a cleared region is announced even when the words repeat.
  requestAnimationFrame(() => { region.textContent = text; });
}

/** Runs changes one after another so their answers arrive in the order they were made. */
let queue = Promise.resolve();
function enqueue(work) {
  const run = queue.then(work);
  queue = run.catch(() => null);
  return run;
}

/** Runs a change; a refusal or a network failure shows its message and resolves to null. */
function change(work) {
  clearError();
  return enqueue(work).catch((error) => {
    showError(error.message);
    return null;
  });
}

function isTyping(element) {
  if (!element || !element.closest) return false;
  if (element.isContentEditable) return true;
  if (element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  if (element.tagName !== "INPUT") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "file", "color", "range"].includes(element.type);
}

/** True while the person types in the task list (a title, notes or a date): re-renders wait for them. */
function isEditingInList() {
  const active = document.activeElement;
  return Boolean(active && $("#task-list").contains(active) && isTyping(active) && active.tagName !== "SELECT");
}

// MARK: Keeping projects

function sortProjects() {
  state.projects.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
}

/**
 * Takes a ProjectView from any answer or the live stream. An older view of a project (a late stream
 * message after a newer answer) is ignored.
 */
function upsertProject(project) {
  const index = state.projects.findIndex((p) => p.id === project.id);
  if (index >= 0) {
    if (state.projects[index].revision > project.revision) return false;
    state.projects[index] = project;
  } else {
    state.projects.push(project);
  }
  syncRing(project);
  if (!project.isComplete && state.celebration.projectId === project.id && !$("#celebration").hidden) dismissCelebration();
  return true;
}

function removeProject(id) {
  const index = state.projects.findIndex((p) => p.id === id);
  if (index < 0) return null;
  const [removed] = state.projects.splice(index, 1);
  forgetRing(id);
  return removed;
}

function updateInbox(inbox) {
  if (inbox && inbox.revision >= state.inbox.revision) state.inbox = inbox;
}

/** The revision of the open list as the server last told it. */
function openListRevision() {
  if (state.selected === INBOX) return state.inbox.revision;
  const project = currentProject();
  return project ? project.revision : 0;
}

// MARK: Sidebar

function badge(count, label) {
  if (!count) return null;
  return h("span", { class: "pj-badge", "data-testid": "active-count" },
    String(count), h("span", { class: "vh", text: ` ${label}` }));
}

function inboxRow() {
  const selected = state.selected === INBOX;
  return h("li", { class: `pj-nav-item${selected ? " is-selected" : ""}`, "data-testid": "inbox-row", "data-list": INBOX },
    h("span", { class: "pj-nav-mark" }, svgIcon(ICONS.inbox, 18)),
    h("a", { class: "pj-nav-link", href: "/projects?list=inbox", "data-list": INBOX, "aria-current": selected ? "page" : null },
      h("span", { class: "pj-nav-name", text: "Inbox" }),
      badge(state.inbox.active, state.inbox.active === 1 ? "task to do" : "tasks to do")));
}

function projectRow(project) {
  const selected = state.selected === project.id;
  return h("li", {
    class: `pj-nav-item${selected ? " is-selected" : ""}`, "data-testid": "project-row", "data-project-id": project.id,
    "data-list": project.id, "data-color": project.color,
  },
  h("button", {
    class: "pj-handle", type: "button", "data-testid": "drag-handle", "aria-label": `Reorder ${project.name}`,
    "aria-describedby": "reorder-help", "data-focus": "handle",
  }, svgIcon(ICONS.grip, 16)),
  h("span", { class: "pj-nav-mark" }, ringElement(project.id, 16)),
  h("a", { class: "pj-nav-link", href: `/projects?list=${encodeURIComponent(project.id)}`, "data-list": project.id, "data-focus": "link", "aria-current": selected ? "page" : null },
    h("span", { class: "pj-nav-name", text: project.name }),
    badge(project.active, project.active === 1 ? "task to do" : "tasks to do")));
}

function renderSidebar() {
  if (state.dragging && state.dragging.list === $("#project-nav")) {
    state.deferred.sidebar = true;
    return;
  }
  state.deferred.sidebar = false;
  const nav = $("#project-nav");
  const focus = focusKeyIn($("#sidebar"), NAV_ROWS);
  $("#inbox-nav").replaceChildren(inboxRow());
  nav.replaceChildren(...state.projects.map(projectRow));
  $("#nav-empty").hidden = state.projects.length > 0;
  restoreFocus($("#sidebar"), NAV_ROWS, focus);
}

/** Rows of the sidebar and of the task list, and the key each row carries. */
const NAV_ROWS = { selector: "li[data-list]", key: (row) => row.dataset.list };
const TASK_ROWS = { selector: "li[data-task-id]", key: (row) => row.dataset.taskId };

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
        h("span", { class: "vh", text: COLOR_LABELS[color] || color }))));
  }
  for (const input of container.querySelectorAll("input")) input.checked = Boolean(project && input.value === project.color);
}

function renderHeader() {
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
  $("#project-meta").hidden = isInbox;
  if (project) {
    if (document.activeElement !== name) name.value = project.name;
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
  $("#add-task").placeholder = isInbox ? "Add a task to the Inbox" : `Add a task to ${project ? project.name : "this project"}`;
  $("#add-label").textContent = isInbox ? "Add a task to the Inbox" : `Add a task to ${project ? project.name : "this project"}`;
  $("#welcome").hidden = state.projects.length > 0;
  document.title = `${isInbox ? "Inbox" : project ? project.name : "Projects"} — Projects — CompletionKit`;
}

function fitTextarea(textarea) {
  if (!textarea.offsetParent) return; // hidden: measured when it shows
  textarea.style.height = "auto";
  textarea.style.height = `${textarea.scrollHeight + 2}px`;
}

// MARK: Task list

function shownCompleted(task) {
  return state.pendingChecks.has(task.id) ? state.pendingChecks.get(task.id) : task.completed;
}

function taskRow(task) {
  const done = shownCompleted(task);
  const expanded = state.expanded.has(task.id);
  const detailsId = `details-${task.id}`;
  const titleId = `title-${task.id}`;
  const editing = state.editing === task.id;
  const row = h("li", {
    class: `pj-task${done ? " is-done" : ""}${expanded ? " is-open" : ""}`,
    "data-testid": "task-row", "data-task-id": task.id, "data-completed": String(done),
    tabindex: task.id === state.cursor ? "0" : "-1", "aria-labelledby": titleId,
  });
  const title = editing
    ? h("input", {
        class: "pj-title-input", id: titleId, value: task.title, "data-focus": "title-input", "data-testid": "task-title-input",
        "aria-label": "Task title", maxlength: "500", enterkeyhint: "done",
      })
    : h("button", { class: "pj-title", type: "button", id: titleId, "data-action": "edit", "data-focus": "title", "data-testid": "task-title", title: "Rename" },
        task.title);
  const meta = h("span", { class: "pj-meta" },
    task.priority !== "none"
      ? h("span", { class: `pj-priority is-${task.priority}`, "data-testid": "task-priority-marker", "data-priority": task.priority },
          h("span", { class: "pj-priority-bars", "aria-hidden": "true" }),
          `${task.priority[0].toUpperCase()}${task.priority.slice(1)}`, h("span", { class: "vh", text: " priority" }))
      : null,
    task.dueDate
      ? h("span", { class: "pj-due", "data-testid": "task-due-date" }, svgIcon(ICONS.calendar, 14),
          h("span", { class: "vh", text: "Due " }), h("time", { datetime: task.dueDate, text: formatDay(task.dueDate) }))
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
      h("div", { class: "pj-task-main" }, title, meta),
      h("button", { class: "pj-move", type: "button", "data-action": "move", "data-testid": "move-button", "data-focus": "move", "aria-haspopup": "dialog" },
        h("span", { class: "pj-move-text", text: "Move…" }), h("span", { class: "vh", text: ` ${task.title}` })),
      h("button", {
        class: "pj-expand", type: "button", "data-action": "expand", "data-testid": "task-expand", "data-focus": "expand",
        "aria-expanded": String(expanded), "aria-controls": detailsId, "aria-label": `Details of ${task.title}`,
      }, svgIcon(ICONS.chevron, 18))),
    taskDetails(task, detailsId, expanded));
  return row;
}

function taskDetails(task, id, expanded) {
  const dueId = `due-${task.id}`;
  return h("div", { class: "pj-details", id, hidden: !expanded, "data-testid": "task-details" },
    h("label", { class: "field pj-details-notes" }, "Notes",
      h("textarea", { class: "pj-textarea", rows: "3", "data-field": "notes", "data-focus": "notes", "data-testid": "task-notes", maxlength: "10000", value: task.notes })),
    h("div", { class: "pj-details-row" },
      h("label", { class: "field" }, "Priority",
        h("select", { class: "pj-select", "data-field": "priority", "data-focus": "priority", "data-testid": "task-priority" },
          PRIORITIES.map(([value, label]) => h("option", { value, selected: value === task.priority ? true : null, text: label })))),
      h("div", { class: "field" },
        h("label", { for: dueId, text: "Due date" }),
        h("span", { class: "pj-due-field" },
          h("input", { type: "date", id: dueId, class: "pj-date", "data-field": "dueDate", "data-focus": "due", "data-testid": "task-due", value: task.dueDate || "" }),
          h("button", { class: "button quiet pj-small", type: "button", "data-action": "clear-due", "data-focus": "clear-due", "data-testid": "task-clear-due", disabled: !task.dueDate },
            "Clear", h("span", { class: "vh", text: " due date" })))),
      h("button", { class: "button quiet danger pj-small pj-delete-task", type: "button", "data-action": "delete", "data-focus": "delete", "data-testid": "task-delete" },
        "Delete task")));
}

function renderTasks() {
  if (isEditingInList() || state.pressing || (state.dragging && state.dragging.list === $("#task-list"))) {
    state.deferred.tasks = true;
    return;
  }
  state.deferred.tasks = false;
  const list = $("#task-list");
  const tasks = state.list ? state.list.tasks : [];
  const focus = focusKeyIn(list, TASK_ROWS);
  if (state.cursor && !tasks.some((task) => task.id === state.cursor)) {
    // The cursor's task left the list: the cursor stays at the same place.
    const index = focus ? focus.index : 0;
    state.cursor = tasks.length ? tasks[Math.min(Math.max(index, 0), tasks.length - 1)].id : null;
  }
  if (!state.cursor && tasks.length) state.cursor = tasks[0].id;
  list.replaceChildren(...tasks.map(taskRow));
  list.setAttribute("aria-busy", "false");
  for (const notes of list.querySelectorAll("textarea")) if (!notes.closest("[hidden]")) fitTextarea(notes);
  const empty = $("#list-empty");
  empty.hidden = !state.list || tasks.length > 0;
  empty.textContent = state.selected === INBOX
    ? "Your Inbox is empty. Tasks you add without a project land here."
    : "No tasks yet. Type one above and press Enter — the field stays ready for the next.";
  if (focus && !restoreFocus(list, TASK_ROWS, focus)) {
    const fallback = state.cursor && rowFor(state.cursor);
    (fallback || $("#add-task")).focus({ preventScroll: true });
  }
}

/** Re-renders one task's row in place (the rest of the list, and a click on it, are left alone). */
function renderRow(taskId) {
  const task = taskById(taskId);
  const old = rowFor(taskId);
  if (!task || !old) return null;
  const fresh = taskRow(task);
  old.replaceWith(fresh);
  for (const notes of fresh.querySelectorAll("textarea")) if (!notes.closest("[hidden]")) fitTextarea(notes);
  return fresh;
}

function rowFor(taskId) {
  return [...$("#task-list").children].find((row) => row.dataset.taskId === taskId) || null;
}

function taskById(taskId) {
  return state.list ? state.list.tasks.find((task) => task.id === taskId) || null : null;
}

function renderAll() {
  renderSidebar();
  renderHeader();
  renderTasks();
}

// MARK: Loading

let listToken = 0;

/** Loads a list's tasks. `quiet`: a refresh after a change elsewhere (no loading state, focus kept). */
async function loadList(key, { quiet = false } = {}) {
  const token = ++listToken;
  const list = $("#task-list");
  if (!quiet) list.setAttribute("aria-busy", "true");
  const path = key === INBOX ? "/api/projects/inbox/tasks" : `/api/projects/${encodeURIComponent(key)}/tasks`;
  let response;
  try {
    response = await api(path);
  } catch (error) {
    if (token !== listToken) return;
    list.setAttribute("aria-busy", "false");
    if (key !== INBOX && !quiet) {
      // A deleted project or an old link: the Inbox is always there.
      showError(error.message);
      selectList(INBOX, { replace: true, keepError: true });
    } else if (!quiet) {
      showError(error.message);
    }
    return;
  }
  if (token !== listToken || state.selected !== key) return;
  if (response.project) upsertProject(response.project);
  if (response.inbox) updateInbox(response.inbox);
  const revision = response.project ? response.project.revision : response.inbox ? response.inbox.revision : 0;
  if (!state.list || state.list.key !== key) state.expanded.clear();
  state.list = { key, revision, tasks: response.tasks };
  renderSidebar();
  renderHeader();
  renderTasks();
}

/** Refetches the open list once, however many changes arrive while it runs. */
let refreshing = null;
let refreshAgain = false;
function refreshList() {
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      refreshAgain = false;
      await enqueue(() => loadList(state.selected, { quiet: true })).catch(() => null);
    } while (refreshAgain);
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

function refreshIfStale() {
  if (state.list && state.list.key === state.selected && openListRevision() > state.list.revision) refreshList();
}

async function loadOverview() {
  const overview = await api("/api/projects");
  configureRingMotion(overview.ring);
  state.colors = overview.colors;
  state.revision = overview.revision;
  const ids = new Set(overview.projects.map((project) => project.id));
  for (const project of [...state.projects]) if (!ids.has(project.id)) removeProject(project.id);
  for (const project of overview.projects) upsertProject(project);
  sortProjects();
  updateInbox(overview.inbox);
}

// MARK: Choosing a list

function listFromURL() {
  const key = new URLSearchParams(location.search).get("list");
  return key || null;
}

function setView(view) {
  $("#app").dataset.view = view;
  if (view === "tasks") fitTextarea($("#project-notes"));
}

/**
 * Opens a list. `push`: a new history entry (the phone's back button returns to the lists);
 * `focus`: moves focus to the list's title (on a phone, where the lists screen just disappeared).
 */
function selectList(key, { push = false, replace = false, focus = false, keepError = false } = {}) {
  if (key !== INBOX && !byId(key)) key = INBOX;
  const changed = key !== state.selected || !state.list || state.list.key !== key;
  if (!keepError) clearError();
  if (changed) {
    dismissCelebration();
    state.selected = key;
    state.list = null;
    state.cursor = null;
    state.editing = null;
    state.expanded.clear();
    $("#task-list").replaceChildren();
    $("#list-empty").hidden = true;
  }
  const url = `/projects?list=${encodeURIComponent(key)}`;
  if (push) history.pushState({ list: key, fromLists: PHONE.matches }, "", url);
  else if (replace) history.replaceState({ list: key }, "", url);
  setView("tasks");
  renderSidebar();
  renderHeader();
  if (changed) loadList(key);
  if (focus) $("#list-title").focus({ preventScroll: false });
}

function showLists() {
  setView("lists");
  const current = $(`#sidebar [data-list="${CSS.escape(state.selected)}"] a`);
  (current || $("#sidebar a[data-list]"))?.focus();
}

// MARK: Project changes

async function createProject() {
  const project = await change(() => api("/api/projects", { method: "POST", body: {} }));
  if (!project) return;
  upsertProject(project);
  sortProjects();
  selectList(project.id, { push: true });
  announce(`Created ${project.name}.`);
  const name = $("#project-name");
  name.focus();
  name.select();
}

async function patchProject(id, body) {
  const project = await change(() => api(`/api/projects/${encodeURIComponent(id)}`, { method: "PATCH", body }));
  if (project) {
    upsertProject(project);
    sortProjects();
    adoptRevision(id, project.revision);
  }
  renderSidebar();
  renderHeader();
  return project;
}

async function deleteProject() {
  const project = currentProject();
  if (!project) return;
  const tasks = project.total ? ` and its ${plural(project.total, "task")}` : "";
  const ok = await confirmDialog({
    title: `Delete ${project.name}?`,
    text: `This deletes the project${tasks}. It cannot be undone.`,
    confirm: "Delete project",
  });
  if (!ok) return;
  const done = await change(() => api(`/api/projects/${encodeURIComponent(project.id)}`, { method: "DELETE" }).then(() => true));
  if (!done) return;
  removeProject(project.id);
  selectList(INBOX, { replace: true });
  announce(`Deleted ${project.name}.`);
  if (PHONE.matches) showLists();
  else $("#new-project").focus();
}

/** Puts projects in a new order (all of the person's project ids) and tells the server. */
function commitProjectOrder(ids, movedId) {
  const order = new Map(ids.map((id, index) => [id, index]));
  // The new positions are exactly the new order (position = place in the list, 0 first).
  state.projects = state.projects
    .filter((project) => order.has(project.id))
    .map((project) => ({ ...project, position: order.get(project.id) }));
  sortProjects();
  renderSidebar();
  const moved = byId(movedId);
  if (moved) announce(`${moved.name} moved to position ${order.get(movedId) + 1} of ${ids.length}.`);
  change(() => api("/api/projects/order", { method: "PUT", body: { ids } }).then(() => true)).then((saved) => {
    if (!saved) reloadEverything(); // the server's order wins
  });
}

// MARK: Task changes

/** Takes the revision the server gave a list after our own change, when nothing else happened between. */
function adoptRevision(key, revision) {
  if (!state.list || state.list.key !== key || revision == null) return;
  if (revision === state.list.revision + 1) state.list.revision = revision;
}

/** Applies a TaskChangeResponse: the task, the counts that moved, and a completion. */
function applyTaskChange(response, taskId) {
  for (const project of response.projects) upsertProject(project);
  sortProjects();
  updateInbox(response.inbox);
  if (state.list) {
    const tasks = state.list.tasks;
    const index = tasks.findIndex((task) => task.id === taskId);
    const task = response.task;
    const belongsHere = task && (state.selected === INBOX ? task.projectId == null : task.projectId === state.selected);
    if (belongsHere) {
      if (index >= 0) tasks[index] = task;
      else {
        tasks.push(task);
        tasks.sort((a, b) => a.position - b.position);
      }
    } else if (index >= 0) {
      tasks.splice(index, 1);
      state.expanded.delete(taskId);
    }
    const listProject = response.projects.find((project) => project.id === state.selected);
    adoptRevision(state.selected, state.selected === INBOX ? response.inbox.revision : listProject && listProject.revision);
  }
  renderSidebar();
  renderHeader();
  renderTasks();
  if (response.completion) completed(response);
}

function patchTask(taskId, body) {
  return change(async () => {
    // The server picks the celebration for the person's motion preference (calm mode lives in this browser).
    const response = await api(`/api/tasks/${encodeURIComponent(taskId)}?preference=${preference()}`, { method: "PATCH", body });
    applyTaskChange(response, taskId);
    return response;
  });
}

async function addTask(title) {
  const body = { title };
  if (state.selected !== INBOX) body.projectId = state.selected;
  const key = state.selected;
  const response = await change(async () => {
    const answer = await api("/api/tasks", { method: "POST", body });
    if (state.selected === key) applyTaskChange(answer, answer.task && answer.task.id);
    else {
      for (const project of answer.projects) upsertProject(project);
      updateInbox(answer.inbox);
      renderSidebar();
    }
    return answer;
  });
  if (response && response.task) announce(`Added ${response.task.title}.`);
  return response;
}

function toggleTask(taskId) {
  const task = taskById(taskId);
  if (!task) return;
  const next = !shownCompleted(task);
  // The box answers at once; the counts and the ring follow the server's answer.
  state.pendingChecks.set(taskId, next);
  const row = rowFor(taskId);
  if (row) {
    row.classList.toggle("is-done", next);
    row.dataset.completed = String(next);
    row.querySelector("[data-action=toggle]").setAttribute("aria-checked", String(next));
  }
  patchTask(taskId, { completed: next }).then((response) => {
    if (state.pendingChecks.get(taskId) === next) state.pendingChecks.delete(taskId);
    if (!response) renderTasks();
    else if (!response.completion) announce(next ? `Completed ${task.title}.` : `${task.title} is open again.`);
  });
}

async function deleteTask(taskId) {
  const task = taskById(taskId);
  if (!task) return;
  const ok = await confirmDialog({ title: "Delete this task?", text: `“${task.title}” will be deleted. It cannot be undone.`, confirm: "Delete task" });
  if (!ok) {
    rowFor(taskId)?.focus();
    return;
  }
  const response = await change(async () => {
    const answer = await api(`/api/tasks/${encodeURIComponent(taskId)}`, { method: "DELETE" });
    // A 204 would carry no body; the contract answers with the counts that moved.
    if (answer) applyTaskChange(answer, taskId);
    else {
      state.list.tasks = state.list.tasks.filter((t) => t.id !== taskId);
      refreshList();
    }
    return true;
  });
  if (response) {
    announce(`Deleted ${task.title}.`);
    const next = state.cursor && rowFor(state.cursor);
    (next || $("#add-task")).focus({ preventScroll: true });
  }
}

function moveTaskTo(taskId, key) {
  const task = taskById(taskId);
  if (!task) return;
  const target = key === INBOX ? null : key;
  if ((task.projectId ?? null) === target) return;
  patchTask(taskId, { projectId: target }).then((response) => {
    if (response) announce(`Moved ${task.title} to ${listName(key)}.`);
  });
}

/** Puts the open list's tasks in a new order and tells the server. */
function commitTaskOrder(ids, movedId) {
  if (!state.list) return;
  const key = state.list.key;
  const byTask = new Map(state.list.tasks.map((task) => [task.id, task]));
  state.list.tasks = ids.map((id) => byTask.get(id)).filter(Boolean);
  renderTasks();
  const moved = byTask.get(movedId);
  if (moved) announce(`${moved.title} moved to position ${ids.indexOf(movedId) + 1} of ${ids.length}.`);
  // The server renumbers positions; the stream's next revision refetches them.
  change(() => api("/api/tasks/order", { method: "PUT", body: { projectId: key === INBOX ? null : key, ids } }).then(() => true))
    .then((saved) => {
      if (!saved) refreshList(); // the server's order wins
    });
}

function moveTaskBy(taskId, step) {
  const ids = state.list.tasks.map((task) => task.id);
  const from = ids.indexOf(taskId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return;
  ids.splice(to, 0, ids.splice(from, 1)[0]);
  state.cursor = taskId;
  commitTaskOrder(ids, taskId);
}

function moveProjectBy(projectId, step) {
  const ids = state.projects.map((project) => project.id);
  const from = ids.indexOf(projectId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return;
  ids.splice(to, 0, ids.splice(from, 1)[0]);
  commitProjectOrder(ids, projectId);
}

// MARK: Inline title editing

function startEditing(taskId) {
  if (!taskById(taskId)) return;
  if (state.editing && state.editing !== taskId) {
    const open = $("#task-list .pj-title-input");
    if (open) finishEditing(open, true, { refocus: false });
  }
  state.editing = taskId;
  state.cursor = taskId;
  const row = renderRow(taskId);
  const editor = row && row.querySelector(".pj-title-input");
  if (!editor) {
    state.editing = null;
    return;
  }
  editor.focus();
  editor.select();
}

/**
 * Ends inline editing: Enter and leaving the field save, Escape does not. `refocus` puts focus back on the
 * title (not when focus is already on its way somewhere else).
 */
function finishEditing(input, save, { refocus = true } = {}) {
  const taskId = state.editing;
  if (!taskId) return;
  state.editing = null;
  const task = taskById(taskId);
  if (!task) {
    renderTasks();
    showError("That task was deleted in another window, so the new title was not saved.");
    return;
  }
  const title = input.value.trim();
  const changed = save && task && title && title !== task.title;
  // Shown at once; the server's answer replaces it (or a refusal puts the old title back).
  const before = task ? task.title : "";
  if (changed) task.title = title;
  const row = renderRow(taskId);
  if (refocus) row?.querySelector("[data-focus=title]")?.focus({ preventScroll: true });
  if (changed) {
    patchTask(taskId, { title }).then((response) => {
      if (!response && taskById(taskId)) {
        taskById(taskId).title = before;
        renderTasks();
      }
    });
  }
  if (state.deferred.tasks && !isEditingInList()) renderTasks();
}

// MARK: Keyboard cursor

function setCursor(taskId, { focus = true } = {}) {
  state.cursor = taskId;
  for (const row of $("#task-list").children) row.tabIndex = row.dataset.taskId === taskId ? 0 : -1;
  const row = rowFor(taskId);
  if (row && focus) {
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest", behavior: preference() === "full" ? "smooth" : "auto" });
  }
}

function moveCursor(step) {
  const tasks = state.list ? state.list.tasks : [];
  if (!tasks.length) return;
  const index = tasks.findIndex((task) => task.id === state.cursor);
  const active = document.activeElement;
  const inList = active && $("#task-list").contains(active);
  // From outside the list, j/k first lands on the cursor's row.
  const next = index < 0 ? 0 : !inList ? index : Math.min(Math.max(index + step, 0), tasks.length - 1);
  setCursor(tasks[next].id);
}

function moveSidebarFocus(navItem, step) {
  const links = [...$("#sidebar").querySelectorAll("a[data-list]")];
  const index = links.indexOf(navItem.querySelector("a[data-list]"));
  const next = links[Math.min(Math.max(index + step, 0), links.length - 1)];
  next?.focus();
}

/** The task a key press acts on: the row holding focus, or the cursor's row. */
function keyTask(target) {
  const row = target.closest && target.closest("#task-list [data-task-id]");
  if (row) return row.dataset.taskId;
  return target === document.body ? state.cursor : null;
}

function onKeyDown(event) {
  if (event.key === "Escape" && !$("#celebration").hidden) {
    dismissCelebration();
    return;
  }
  if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (isTyping(target) || event.ctrlKey || event.metaKey) return;
  const row = target.closest && target.closest("#task-list [data-task-id]");
  const navItem = target.closest && target.closest("#sidebar li[data-list]");
  const key = event.key;

  if (event.altKey) {
    if (key !== "ArrowUp" && key !== "ArrowDown") return;
    const step = key === "ArrowUp" ? -1 : 1;
    if (row) moveTaskBy(row.dataset.taskId, step);
    else if (navItem && navItem.dataset.testid === "project-row") moveProjectBy(navItem.dataset.list, step);
    else return;
    event.preventDefault();
    return;
  }

  switch (key) {
    case "ArrowDown":
    case "ArrowUp":
      if (navItem) moveSidebarFocus(navItem, key === "ArrowUp" ? -1 : 1);
      else if (row) moveCursor(key === "ArrowUp" ? -1 : 1);
      else return; // the page scrolls as usual
      break;
    case "j":
    case "k":
      moveCursor(key === "k" ? -1 : 1);
      break;
    case "x":
    case "X": {
      const taskId = keyTask(target);
      if (!taskId) return;
      toggleTask(taskId);
      break;
    }
    case " ":
      // On a button Space presses it; on the row itself it completes the task.
      if (!row || target !== row) return;
      toggleTask(row.dataset.taskId);
      break;
    case "Enter":
      if (!row || target !== row) return;
      startEditing(row.dataset.taskId);
      break;
    case "Delete":
    case "Backspace": {
      const taskId = keyTask(target);
      if (!taskId) return;
      deleteTask(taskId);
      break;
    }
    case "n":
    case "N":
      if (event.shiftKey) return;
      $("#add-task").focus();
      break;
    case "?":
      openShortcuts();
      break;
    default:
      return;
  }
  event.preventDefault();
}

// MARK: Dragging (Pointer Events: mouse, pen and touch alike)

/**
 * Makes the rows of `list` draggable by their `.pj-handle`. The row follows the pointer and the others
 * make room as it crosses their middles; on release `commit(ids, movedId)` gets the new order.
 */
function sortable(list, { rowSelector, idOf, commit }) {
  list.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".pj-handle");
    if (!handle || !list.contains(handle) || event.button !== 0) return;
    const row = handle.closest(rowSelector);
    if (!row) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const rect = row.getBoundingClientRect();
    state.dragging = {
      list, row, handle, pointerId: event.pointerId, grab: event.clientY - rect.top,
      before: [...list.querySelectorAll(rowSelector)].map(idOf),
    };
    row.classList.add("is-dragging");
    list.classList.add("is-sorting");
  });

  list.addEventListener("pointermove", (event) => {
    const drag = state.dragging;
    if (!drag || drag.list !== list || event.pointerId !== drag.pointerId) return;
    const { row } = drag;
    // Make room: the row swaps with a neighbour once the pointer passes that neighbour's middle.
    const siblings = [...list.querySelectorAll(rowSelector)].filter((element) => element !== row);
    let before = null;
    for (const sibling of siblings) {
      const box = sibling.getBoundingClientRect();
      if (event.clientY < box.top + box.height / 2) {
        before = sibling;
        break;
      }
    }
    if (before !== row.nextElementSibling) {
      // The neighbours move, never the dragged row: taking it out of the document would end the pointer capture.
      const rowsNow = [...list.querySelectorAll(rowSelector)];
      const from = rowsNow.indexOf(row);
      const to = before ? rowsNow.indexOf(before) : rowsNow.length;
      if (to > from) for (const sibling of rowsNow.slice(from + 1, to)) list.insertBefore(sibling, row);
      else for (const sibling of rowsNow.slice(to, from).reverse()) row.after(sibling);
    }
    row.style.transform = "";
    const top = row.getBoundingClientRect().top;
    row.style.transform = `translateY(${event.clientY - drag.grab - top}px)`;
  });

  const end = (event) => {
    const drag = state.dragging;
    if (!drag || drag.list !== list || event.pointerId !== drag.pointerId) return;
    state.dragging = null;
    drag.row.style.transform = "";
    drag.row.classList.remove("is-dragging");
    list.classList.remove("is-sorting");
    const movedId = idOf(drag.row);
    const after = [...list.querySelectorAll(rowSelector)].map(idOf);
    const changed = after.some((id, index) => id !== drag.before[index]);
    if (changed && event.type === "pointerup") commit(after, movedId);
    else if (changed) restoreOrder(list, rowSelector, idOf, drag.before);
    if (state.deferred.sidebar) renderSidebar();
    if (state.deferred.tasks) renderTasks();
    const row = [...list.querySelectorAll(rowSelector)].find((element) => idOf(element) === movedId);
    row?.querySelector(".pj-handle")?.focus({ preventScroll: true });
  };
  list.addEventListener("pointerup", end);
  list.addEventListener("pointercancel", end);
  list.addEventListener("lostpointercapture", end);
}

function restoreOrder(list, rowSelector, idOf, ids) {
  const rows = new Map([...list.querySelectorAll(rowSelector)].map((row) => [idOf(row), row]));
  for (const id of ids) if (rows.has(id)) list.append(rows.get(id));
}

// MARK: Dialogs

function confirmDialog({ title, text, confirm = "Delete" }) {
  const dialog = $("#confirm");
  $("#confirm-title").textContent = title;
  $("#confirm-text").textContent = text;
  $("#confirm-yes").textContent = confirm;
  dialog.returnValue = "";
  dialog.showModal();
  $("#confirm-no").focus(); // the safe choice has focus
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

function openShortcuts() {
  $("#shortcuts").showModal();
}

/** The project selector: "Inbox (No Project)" first, then every project with its ring. */
function openSelector(taskId) {
  const task = taskById(taskId);
  if (!task) return;
  const dialog = $("#selector");
  const currentKey = task.projectId ?? INBOX;
  $("#selector-task").textContent = `“${task.title}”`;
  const option = (key, label, mark) => {
    const isCurrent = key === currentKey;
    return h("li", { class: `pj-option${isCurrent ? " is-current" : ""}`, "data-project-id": key, "data-testid": "selector-row" },
      h("span", { class: "pj-option-mark" }, mark),
      h("button", {
        type: "button", class: "pj-option-button", "data-key": key, "data-testid": "selector-option",
        "data-project-id": key, "aria-current": isCurrent ? "true" : null,
      }, label, isCurrent ? h("span", { class: "vh", text: " (current)" }) : null),
      h("span", { class: "pj-option-check", "aria-hidden": "true" }, isCurrent ? svgIcon(ICONS.check, 14) : null));
  };
  const options = [
    option(INBOX, "Inbox (No Project)", svgIcon(ICONS.inbox, 14)),
    ...state.projects.map((project) => option(project.id, project.name, ringElement(project.id, 12))),
  ];
  const list = $("#selector-options");
  list.replaceChildren(...options);
  list.onclick = (event) => {
    const button = event.target.closest("[data-key]");
    if (!button) return;
    dialog.close();
    moveTaskTo(taskId, button.dataset.key);
  };
  dialog.returnValue = "";
  dialog.showModal();
  (list.querySelector("[aria-current=true]") || list.querySelector("button")).focus();
}

function selectorKeys(event) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const buttons = [...$("#selector-options").querySelectorAll("button")];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  buttons[Math.min(Math.max(index + (event.key === "ArrowUp" ? -1 : 1), 0), buttons.length - 1)].focus();
}

// MARK: Celebration

/** A project's last task is done: the response's completion says what it earned and how to celebrate. */
function completed(response) {
  const completion = response.completion;
  const projectId = response.task && response.task.projectId;
  const project = response.projects.find((p) => p.id === projectId) || response.projects.find((p) => p.isComplete);
  if (!project) return;
  const points = completion.isFirst && completion.points > 0 ? completion.points : 0;
  announce(`${project.name} — complete!${points ? ` +${points} points.` : ""}`);
  if (completion.celebration && state.selected === project.id) celebrate(project, completion, points);
}

function celebrate(project, completion, points) {
  dismissCelebration();
  const layer = $("#celebration");
  const token = ++state.celebration.token;
  state.celebration.projectId = project.id;
  const ring = $("#celebration-ring");
  ring.replaceChildren(ringElement(project.id, 64, { slot: "celebration", decorative: true }));
  $("#celebration-name").textContent = `${project.name} — complete!`;
  const pointsLine = $("#celebration-points");
  pointsLine.hidden = !points;
  pointsLine.textContent = points ? `+${points} points` : "";
  layer.hidden = false;
  layer.dataset.state = "playing";
  layer.dataset.projectId = project.id;
  const elements = { ring, check: $("#celebration-check"), name: $("#celebration-text") };
  playChoreography(completion.celebration, elements).then(() => {
    if (token !== state.celebration.token || layer.hidden) return;
    layer.dataset.state = "holding";
    // How long it stays after its last step is the server's (ProjectCompletion.holdSeconds).
    const hold = Number(completion.holdSeconds) || 0;
    state.celebration.timer = setTimeout(() => {
      if (token === state.celebration.token) dismissCelebration();
    }, hold * 1000);
  });
}

function dismissCelebration() {
  const layer = $("#celebration");
  clearTimeout(state.celebration.timer);
  state.celebration.token += 1;
  if (layer.hidden) return;
  for (const element of layer.querySelectorAll("[data-step]")) {
    for (const animation of element.getAnimations()) animation.cancel();
  }
  layer.hidden = true;
  layer.dataset.state = "done";
}

// MARK: Import and export

async function downloadExport() {
  const error = $("#export-error");
  error.textContent = "";
  try {
    const data = await api("/api/projects/export");
    const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "projects.json", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (failure) {
    error.textContent = failure.message;
  }
}

async function postPlainList(text) {
  let response;
  try {
    response = await fetch("/api/projects/import", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8", Accept: "application/json", "X-CompletionKit": "1" },
      body: text,
    });
  } catch {
    throw new Error("We could not reach the server. Check your connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error((data && data.message) || `Something went wrong (${response.status}).`);
  return data;
}

async function runImport() {
  const text = $("#import-text").value;
  const result = $("#import-result");
  const error = $("#import-error");
  result.textContent = "";
  error.textContent = "";
  if (!text.trim()) {
    error.textContent = "Paste a list or choose a file first.";
    $("#import-text").focus();
    return;
  }
  const button = $("#import-submit");
  button.disabled = true;
  try {
    let answer;
    // An export is a JSON object; anything else is sent as a plain list for the server to read.
    if (text.trimStart().startsWith("{")) {
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error("This looks like JSON but it could not be read. Check that the whole export was pasted.");
      }
      answer = await enqueue(() => api("/api/projects/import", { method: "POST", body: parsed }));
    } else {
      answer = await enqueue(() => postPlainList(text));
    }
    result.textContent = `Added ${plural(answer.projectsAdded, "project")} and ${plural(answer.tasksAdded, "task")}.`;
    $("#import-text").value = "";
    $("#import-file").value = "";
    await reloadEverything();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

async function readImportFile() {
  const file = $("#import-file").files[0];
  if (!file) return;
  $("#import-error").textContent = "";
  try {
    $("#import-text").value = await file.text();
    $("#import-result").textContent = `Read ${file.name}. Check it, then choose Import.`;
  } catch {
    $("#import-error").textContent = "That file could not be read.";
  }
}

function openTransfer({ example = false } = {}) {
  $("#import-result").textContent = "";
  $("#import-error").textContent = "";
  $("#export-error").textContent = "";
  if (example && !$("#import-text").value) $("#import-text").value = $("#example-list").textContent;
  $("#transfer").showModal();
}

// MARK: Live updates

function setLiveStatus(text) {
  const status = $("#live-status");
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = text ? "reconnecting" : "live";
}

/** Applies a ProjectsLiveUpdate: a snapshot replaces the list, a change updates and removes projects. */
function applyLive(update) {
  const selectedBefore = state.selected;
  const selectedName = listName(selectedBefore);
  if (update.snapshot) {
    const ids = new Set(update.projects.map((project) => project.id));
    for (const project of [...state.projects]) if (!ids.has(project.id)) removeProject(project.id);
  }
  for (const id of update.deleted || []) removeProject(id);
  for (const project of update.projects) upsertProject(project);
  sortProjects();
  updateInbox(update.inbox);
  state.revision = Math.max(state.revision, update.revision);
  if (selectedBefore !== INBOX && !byId(selectedBefore)) {
    selectList(INBOX, { replace: true });
    showError(`${selectedName} was deleted.`);
    return;
  }
  renderSidebar();
  renderHeader();
  refreshIfStale();
}

/**
 * Seconds before a stream the server closed for good (a refused or failed reconnect) is opened again,
 * doubling up to the last. A plain network drop is retried by EventSource itself.
 */
const REOPEN_DELAYS = [2, 4, 8, 16, 30];
let reopenAttempt = 0;

function connectLive() {
  if (!window.EventSource) return;
  const source = new EventSource("/api/projects/events");
  state.source = source;
  source.addEventListener("projects", (event) => {
    reopenAttempt = 0;
    setLiveStatus("");
    let update;
    try {
      update = JSON.parse(event.data);
    } catch {
      return;
    }
    applyLive(update);
  });
  // A reconnect with nothing new gets no message (the server only sends a snapshot when something changed
  // since the last event id), so an open connection is what ends "Reconnecting…".
  source.addEventListener("open", () => {
    reopenAttempt = 0;
    setLiveStatus("");
  });
  source.addEventListener("error", () => {
    // EventSource reconnects by itself (CONNECTING); CLOSED means the server refused for good.
    if (source.readyState === EventSource.CONNECTING) {
      setLiveStatus("Reconnecting…");
    } else if (source.readyState === EventSource.CLOSED && state.source === source) {
      setLiveStatus("Reconnecting…");
      const delay = REOPEN_DELAYS[Math.min(reopenAttempt, REOPEN_DELAYS.length - 1)];
      reopenAttempt += 1;
      setTimeout(() => {
        if (state.source === source) connectLive();
      }, delay * 1000);
    }
  });
}

async function reloadEverything() {
  try {
    await loadOverview();
    if (state.selected !== INBOX && !byId(state.selected)) selectList(INBOX, { replace: true });
    renderAll();
    await refreshList();
  } catch (error) {
    showError(error.message);
  }
}

// MARK: Wiring

function wire() {
  document.addEventListener("keydown", onKeyDown);
  window.addEventListener("motionpreferencechange", (event) => {
    document.body.dataset.motion = event.detail;
  });

  // Lists: links for real (open in a new tab works), handled here for a plain click.
  $("#sidebar").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-list]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    selectList(link.dataset.list, { push: true, focus: PHONE.matches });
  });
  $("#back-to-lists").addEventListener("click", () => {
    if (history.state && history.state.fromLists) history.back();
    else {
      history.replaceState({}, "", "/projects");
      showLists();
    }
  });
  window.addEventListener("popstate", () => {
    const key = listFromURL();
    if (!key) {
      if (PHONE.matches) showLists();
      else selectList(INBOX, { replace: true });
      return;
    }
    selectList(key);
  });

  $("#new-project").addEventListener("click", createProject);
  $("#welcome-new").addEventListener("click", createProject);
  $("#welcome-import").addEventListener("click", () => openTransfer({ example: true }));
  $("#open-transfer").addEventListener("click", () => openTransfer());
  $("#open-shortcuts").addEventListener("click", openShortcuts);

  // The project header.
  const name = $("#project-name");
  name.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      name.blur();
    } else if (event.key === "Escape") {
      const project = currentProject();
      if (project) name.value = project.name;
      name.blur();
    }
  });
  name.addEventListener("change", () => {
    const project = currentProject();
    if (project && name.value.trim() !== project.name) patchProject(project.id, { name: name.value.trim() });
  });
  const notes = $("#project-notes");
  notes.addEventListener("input", () => fitTextarea(notes));
  notes.addEventListener("change", () => {
    const project = currentProject();
    if (project && notes.value !== project.notes) patchProject(project.id, { notes: notes.value });
  });
  $("#swatches").addEventListener("change", (event) => {
    const project = currentProject();
    if (project && event.target.name === "project-color") patchProject(project.id, { color: event.target.value });
  });
  $("#delete-project").addEventListener("click", deleteProject);

  // Adding: Enter adds, and the field stays ready for the next task.
  $("#add-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("#add-task");
    const title = input.value.trim();
    if (!title) return;
    input.value = "";
    addTask(title).then((response) => {
      if (!response && !input.value) input.value = title; // give the words back after a refusal
    });
  });

  // The task list, by delegation.
  const list = $("#task-list");
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    const row = event.target.closest("[data-task-id]");
    if (!button || !row) return;
    const taskId = row.dataset.taskId;
    setCursor(taskId, { focus: false });
    switch (button.dataset.action) {
      case "toggle": toggleTask(taskId); break;
      case "edit": startEditing(taskId); break;
      case "move": openSelector(taskId); break;
      case "delete": deleteTask(taskId); break;
      case "clear-due": patchTask(taskId, { dueDate: null }); break;
      case "expand": {
        const open = !state.expanded.has(taskId);
        if (open) state.expanded.add(taskId);
        else state.expanded.delete(taskId);
        row.classList.toggle("is-open", open);
        button.setAttribute("aria-expanded", String(open));
        const details = row.querySelector(".pj-details");
        details.hidden = !open;
        if (open) for (const textarea of details.querySelectorAll("textarea")) fitTextarea(textarea);
        break;
      }
      default:
    }
  });
  list.addEventListener("change", (event) => {
    const field = event.target.dataset.field;
    const row = event.target.closest("[data-task-id]");
    if (!field || !row) return;
    const task = taskById(row.dataset.taskId);
    if (!task) return;
    const value = event.target.value;
    if (field === "notes" && value !== task.notes) patchTask(task.id, { notes: value });
    else if (field === "priority" && value !== task.priority) patchTask(task.id, { priority: value });
    else if (field === "dueDate" && !value && task.dueDate) patchTask(task.id, { dueDate: null });
  });
  // Typing a date fires "change" at every complete-looking value (0002-07-04, 0020-07-04, …): save a date
  // once focus leaves the field (or Enter is pressed in it).
  const saveDate = (input) => {
    const row = input.closest("[data-task-id]");
    const task = row && taskById(row.dataset.taskId);
    if (task && input.value && input.value !== (task.dueDate || "")) patchTask(task.id, { dueDate: input.value });
  };
  list.addEventListener("focusout", (event) => {
    if (event.target.dataset && event.target.dataset.field === "dueDate") saveDate(event.target);
  });
  list.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.dataset && event.target.dataset.field === "dueDate") saveDate(event.target);
  });
  list.addEventListener("input", (event) => {
    if (event.target.tagName === "TEXTAREA") fitTextarea(event.target);
  });
  list.addEventListener("keydown", (event) => {
    const input = event.target.closest(".pj-title-input");
    if (!input) return;
    if (event.key === "Enter") {
      event.preventDefault();
      finishEditing(input, true);
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      finishEditing(input, false);
    }
  });
  list.addEventListener("focusout", (event) => {
    if (event.target.closest(".pj-title-input") && state.editing) finishEditing(event.target, true, { refocus: false });
    // A render that waited for typing to end runs once focus has left the field.
    setTimeout(() => {
      if (state.deferred.tasks && !isEditingInList()) renderTasks();
    }, 0);
  });
  list.addEventListener("pointerdown", () => {
    state.pressing = true;
  }, true);
  const released = () => {
    if (!state.pressing) return;
    state.pressing = false;
    // After the click that this release makes has been handled.
    setTimeout(() => {
      if (state.deferred.tasks && !isEditingInList()) renderTasks();
    }, 0);
  };
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  list.addEventListener("focusin", (event) => {
    const row = event.target.closest("[data-task-id]");
    if (row && row.dataset.taskId !== state.cursor) setCursor(row.dataset.taskId, { focus: false });
  });

  sortable(list, { rowSelector: "[data-task-id]", idOf: (row) => row.dataset.taskId, commit: commitTaskOrder });
  sortable($("#project-nav"), { rowSelector: "[data-testid=project-row]", idOf: (row) => row.dataset.projectId, commit: commitProjectOrder });

  // Dialogs.
  $("#selector").addEventListener("keydown", selectorKeys);
  $("#export").addEventListener("click", downloadExport);
  $("#import-submit").addEventListener("click", runImport);
  $("#import-file").addEventListener("change", readImportFile);
  $("#use-example").addEventListener("click", () => {
    $("#import-text").value = $("#example-list").textContent;
    $("#import-text").focus();
  });
  for (const dialog of document.querySelectorAll("dialog")) {
    // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
    dialog.addEventListener("click", (event) => {
      if (event.target !== dialog) return;
      const box = dialog.getBoundingClientRect();
      const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (!inside) dialog.close();
    });
  }

  // The celebration dismisses itself; a click or Escape sends it away sooner.
  $("#celebration").addEventListener("click", dismissCelebration);

  // Keeps sticky elements under the site's sticky top bar.
  const topbar = $(".topbar");
  const measure = () => document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`);
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);

  PHONE.addEventListener("change", () => {
    if (!PHONE.matches) setView("tasks");
  });
}

async function start() {
  document.body.dataset.motion = preference();
  boot();
  // The guest cookie comes from the first /api/me; every later request (and the stream) carries it.
  await currentUser().catch(() => null);
  await loadOverview();
  const requested = listFromURL();
  const key = requested && (requested === INBOX || byId(requested)) ? requested : INBOX;
  if (requested && key !== requested) showError("That project could not be found. Here is your Inbox.");
  state.selected = key;
  history.replaceState({ list: requested ? key : null }, "", requested ? `/projects?list=${encodeURIComponent(key)}` : "/projects");
  // On a phone the first screen is the lists, unless a link named one.
  setView(PHONE.matches && !requested ? "lists" : "tasks");
  renderSidebar();
  renderHeader();
  await loadList(key);
  connectLive();
}

wire();
start()
  .catch((error) => showError(error.message))
  .finally(() => {
    document.body.dataset.ready = "true";
  });
