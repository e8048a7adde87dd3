// Projects: what the page holds (all of it from the server's answers), the lookups into it, and the queue
// that sends changes one after another.
import { $ } from "../lib/dom.js";
import { forgetRing, syncRing } from "../progress-ring.js";
import { dismissCelebration } from "./dialogs.js";

export const INBOX = "inbox";
/** Where the layout shows one pane at a time (keep in step with projects.css). */
export const PHONE = window.matchMedia("(max-width: 759px)");

export const state = {
  /** The person's change counter, from the overview and the live stream. */
  revision: 0,
  inbox: { total: 0, completed: 0, active: 0, revision: 0 },
  /** ProjectViews sorted by position. */
  projects: [],
  colors: [],
  /** The server's words for colours (value → label) and its priorities (`[{value, label}]`, lowest first). */
  colorLabels: new Map(),
  priorities: [],
  /** What a name, a title and notes may hold (ProjectLimitsView); null until the overview arrives. */
  limits: null,
  /** The open list: INBOX or a project id. */
  selected: INBOX,
  /** The view shown in place of the list ("today", "upcoming", "search"), or null (js/projects/agenda.js). */
  agenda: null,
  /** Completed tasks are left out of the list (a view preference, kept in this browser: see setHideCompleted). */
  hideCompleted: false,
  /** Tasks ticked off in the open list since it opened: they stay shown, ticked, while completed ones are hidden. */
  stayShown: new Set(),
  /** A task to bring into view and focus once its list has loaded (a link from a view). */
  revealTask: null,
  /** The open list's tasks and the revision they were loaded at, with the project's headings (`headings`, in order). */
  list: null,
  /** The heading whose name is being edited in its row. */
  editingHeading: null,
  /** The rows of the open list now in the document (js/projects/window.js): `{start, end, windowed}`. */
  window: null,
  /** The task row the keyboard cursor is on. */
  cursor: null,
  /** Task ids selected for a batch change (js/projects/selection.js), and the one a Shift-click extends from. */
  picked: new Set(),
  pickAnchor: null,
  /** Selecting by touch (a long press began it): a tap on a task selects or unselects it until none is left. */
  touchPicking: false,
  /** The kind of pointer that last pressed in the list ("mouse", "pen", "touch"). */
  lastPointer: "mouse",
  /** A long press just selected a task: the click its release makes is not a tap on it. */
  swallowClick: false,
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
  /** The live stream (js/lib/live.js). */
  live: null,
  /** Signed out elsewhere: nothing more is fetched or followed (js/projects/lists.js endSession). */
  sessionEnded: false,
};

export function byId(id) {
  return state.projects.find((project) => project.id === id) || null;
}

export function currentProject() {
  return state.selected === INBOX ? null : byId(state.selected);
}

export function listName(key) {
  if (key === INBOX) return "Inbox";
  const project = byId(key);
  return project ? project.name : "this project";
}

export function showError(message, { untilOnline = false } = {}) {
  const line = $(state.agenda ? "#agenda-error" : "#error");
  line.textContent = message || "";
  // A word about the lost connection goes when the connection comes back (see connectionBack).
  if (untilOnline) line.dataset.connection = "true";
  else delete line.dataset.connection;
}

/** The connection is back (the browser says so, or the live stream opened): a word about losing it goes. */
export function connectionBack() {
  for (const line of [$("#error"), $("#agenda-error")]) {
    if (line.dataset.connection) {
      line.textContent = "";
      delete line.dataset.connection;
    }
  }
}
window.addEventListener("online", connectionBack);

export function clearError() {
  for (const line of [$("#error"), $("#agenda-error")]) {
    line.textContent = "";
    delete line.dataset.connection;
  }
}

/** Runs changes one after another so their answers arrive in the order they were made. */
let queue = Promise.resolve();
export function enqueue(work) {
  const run = queue.then(work);
  queue = run.catch(() => null);
  return run;
}

/** Runs a change; a refusal or a network failure shows its message and resolves to null. */
export function change(work) {
  clearError();
  return enqueue(work).catch((error) => {
    // Signed out elsewhere: the banner at the top says it (js/app.js), once. A lost connection's word goes when it is back.
    if (error.code !== "session_ended") showError(error.message, { untilOnline: Boolean(error.network) });
    return null;
  });
}

export function isTyping(element) {
  if (!element || !element.closest) return false;
  if (element.isContentEditable) return true;
  if (element.tagName === "TEXTAREA" || element.tagName === "SELECT") return true;
  if (element.tagName !== "INPUT") return false;
  return !["checkbox", "radio", "button", "submit", "reset", "file", "color", "range"].includes(element.type);
}

/** True while the person types in the task list (a title, notes or a date): re-renders wait for them. */
export function isEditingInList() {
  const active = document.activeElement;
  return Boolean(active && $("#task-list").contains(active) && isTyping(active) && active.tagName !== "SELECT");
}

// MARK: Keeping projects

export function sortProjects() {
  state.projects.sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
}

/**
 * Takes a ProjectView from any answer or the live stream. An older view of a project (a late stream
 * message after a newer answer) is ignored.
 */
export function upsertProject(project) {
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

export function removeProject(id) {
  const index = state.projects.findIndex((p) => p.id === id);
  if (index < 0) return null;
  const [removed] = state.projects.splice(index, 1);
  forgetRing(id);
  return removed;
}

export function updateInbox(inbox) {
  if (inbox && inbox.revision >= state.inbox.revision) state.inbox = inbox;
}

/** The revision of the open list as the server last told it. */
export function openListRevision() {
  if (state.selected === INBOX) return state.inbox.revision;
  const project = currentProject();
  return project ? project.revision : 0;
}

// MARK: Lookups

export function shownCompleted(task) {
  return state.pendingChecks.has(task.id) ? state.pendingChecks.get(task.id) : task.completed;
}

/**
 * The open list's tasks as shown: all of them, or without the completed ones when those are hidden (except
 * the ones just ticked here, so a row never vanishes under the cursor). Counts and rings always count all.
 */
export function shownTasks() {
  if (!state.list) return [];
  if (!state.hideCompleted) return state.list.tasks;
  return state.list.tasks.filter((task) => !shownCompleted(task) || state.stayShown.has(task.id));
}

/** How many tasks of the open list are hidden because they are completed. */
export function hiddenCount() {
  return state.list ? state.list.tasks.length - shownTasks().length : 0;
}

export function taskById(taskId) {
  return state.list ? state.list.tasks.find((task) => task.id === taskId) || null : null;
}

// MARK: Headings

/** The open list's headings in their order (none for the Inbox). */
export function listHeadings() {
  return (state.list && state.list.headings) || [];
}

/**
 * Puts `tasks` in the order the server sends a list: without a heading first, then each heading's in the
 * headings' order, by position within each (the sort is stable, so equal places keep their order).
 */
export function sortTasks(tasks, headings = listHeadings()) {
  const place = new Map(headings.map((heading, index) => [heading.id, index]));
  const group = (task) => (task.headingId && place.has(task.headingId) ? place.get(task.headingId) : -1);
  return tasks.sort((a, b) => group(a) - group(b) || a.position - b.position);
}

/**
 * What the task list draws, in order: the shown tasks, with a row for each heading before its tasks (a
 * heading shows when its tasks are hidden or it has none). Each entry has an `id` (a heading's is
 * "heading:<id>"); a heading's entry has `heading` and `count` (its tasks, hidden ones too).
 */
export function shownItems() {
  const tasks = shownTasks();
  const headings = listHeadings();
  if (!headings.length) return tasks;
  const counts = new Map(headings.map((heading) => [heading.id, 0]));
  for (const task of state.list.tasks) if (counts.has(task.headingId)) counts.set(task.headingId, counts.get(task.headingId) + 1);
  const under = new Map(headings.map((heading) => [heading.id, []]));
  const loose = [];
  for (const task of tasks) (under.get(task.headingId) || loose).push(task);
  const items = [...loose];
  for (const heading of headings) {
    items.push({ id: `heading:${heading.id}`, heading, count: counts.get(heading.id) });
    items.push(...under.get(heading.id));
  }
  return items;
}

// MARK: One at a time

const running = new Map();

/**
 * Runs `work` unless work of the same `kind` is still on its way, whose promise it then answers: a double-click
 * or a second press while the server answers makes one project or heading, not two.
 */
export function once(kind, work) {
  if (running.has(kind)) return running.get(kind);
  const run = Promise.resolve().then(work).finally(() => running.delete(kind));
  running.set(kind, run);
  return run;
}

/** The second click of a double-click (a keyboard press has no count): a button that makes something ignores it. */
export function isRepeatClick(event) {
  return Boolean(event && event.detail > 1);
}
