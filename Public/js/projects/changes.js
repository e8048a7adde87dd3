// Projects: the person's changes to projects and tasks, sent in order; the server's answer replaces what the page guessed.
import { announce } from "../lib/announce.js";
import { api, newIdempotencyKey } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { longDay, plural } from "../lib/format.js";
import { preference } from "../motion.js";
import { chooseVersion, completed, confirmDialog } from "./dialogs.js";
import { refreshList, reloadEverything, selectList, showLists } from "./lists.js";
import { fitTextarea, forgetRow, priorityLabel, renderHeader, renderSidebar, renderTasks, rowFor } from "./render.js";
import { keep, localTask, mustWait, whenConflict } from "./offline.js";
import { showUndo, showUndoNote } from "./undo.js";
import { refreshAgenda } from "./agenda.js";
import { byId, change, clearError, currentProject, enqueue, isRepeatClick, once, showError, INBOX, listHeadings, listName, PHONE, removeProject, shownCompleted, shownTasks, sortProjects, sortTasks, state, taskById, updateInbox, upsertProject } from "./state.js";
import { stepPlacement } from "./headings.js";

// MARK: Project changes

/** Makes a project and opens its name for typing. A second press while the first is on its way makes none. */
export function createProject(event) {
  if (isRepeatClick(event)) return null;
  return once("project", makeProject);
}

async function makeProject() {
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

/** Archives the open project (it leaves the list for Archived, counts and ring as they are), or brings it back. */
async function toggleArchived() {
  const project = currentProject();
  if (!project) return;
  const archived = !project.archived;
  const saved = await patchProject(project.id, { archived });
  if (!saved) return;
  announce(archived ? `Archived ${saved.name}; it is under Archived in the sidebar.` : `${saved.name} is back among your projects.`);
  renderTasks();
}

/** Puts projects in a new order (the listed ones; archived ones keep their places after them) and tells the server. */
export function commitProjectOrder(ids, movedId) {
  // The server takes every project of the person: the archived ones, not in the list dragged, follow.
  ids = [...ids, ...state.projects.filter((project) => !ids.includes(project.id)).map((project) => project.id)];
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
      const regrouped = index >= 0 && (tasks[index].headingId ?? null) !== (task.headingId ?? null);
      if (index >= 0) tasks[index] = task;
      else tasks.push(task);
      // In the server's order: by heading, then by position (a task put under a heading goes to the end of its tasks).
      if (index < 0 || regrouped) sortTasks(tasks);
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
  // Every change the person can take back says what it did, with Undo, in place of the one before: the toast
  // never offers an older change than the last one.
  if (response.undo) showUndo(response.undo);
}

// MARK: Undo (kept on the server: every window follows through the live stream)

/** The steps this page took back (their seq): a second press on the same toast finds its step gone, and says nothing more. */
const undoneHere = new Set();

/**
 * Takes back the change the toast names (`step`, its seq), or without one (z, Ctrl/Cmd+Z) the person's last
 * change of a task. The server refuses a step that is no longer the last (something changed since) and undoes
 * nothing. One Idempotency-Key per press: a retry after a lost answer undoes once. Nothing to undo, or a step
 * that can no longer be taken back, is said in the toast.
 */
export function undoLast(step = null) {
  const key = newIdempotencyKey();
  const body = step == null ? undefined : { step };
  const send = () => api(`/api/tasks/undo?preference=${preference()}`, { method: "POST", body, idempotencyKey: key });
  return enqueue(async () => {
    clearError();
    let answer;
    try {
      answer = await send().catch((error) => {
        if (error.network) return send(); // the same key: if the first one landed, this answers as it did
        throw error;
      });
    } catch (error) {
      // The same toast pressed again after its change was taken back (a double-click): "Undone" stays said.
      if (error.code === "undo_moved_on" && undoneHere.has(step)) return null;
      if (error.code === "nothing_to_undo" || error.code === "undo_stale" || error.code === "undo_moved_on") showUndoNote(error.message);
      else if (error.network) showError("Undo needs the connection; try again when you are back online.", { untilOnline: true });
      else showError(error.message);
      return null;
    }
    const fromToast = $("#undo-toast").contains(document.activeElement);
    if (answer.undone.seq != null) undoneHere.add(answer.undone.seq);
    if (answer.undone.headingId) {
      // A heading's change: no task row came back, its project's did; the list is read again as the server
      // has it (a deleted heading returns at its place with its tasks under it). Not awaited: this queue runs it next.
      for (const project of answer.projects) upsertProject(project);
      sortProjects();
      updateInbox(answer.inbox);
      renderSidebar();
      renderHeader();
      if (state.list && state.list.key === answer.undone.projectId) refreshList();
      showUndoNote(`Undone: ${answer.undone.label}.`);
      if (fromToast) $("#add-task").focus({ preventScroll: true });
      return answer;
    }
    applyTaskChange(answer, answer.undone.taskId);
    if (state.agenda) refreshAgenda(); // Today, Upcoming or a search shows it as the server has it now
    showUndoNote(`Undone: ${answer.undone.label}.`);
    // The Undo button goes with its step: the keyboard goes on from the task (or the list).
    if (fromToast) (rowFor(answer.undone.taskId) || $("#add-task")).focus({ preventScroll: true });
    return answer;
  });
}

// MARK: Without a connection (js/projects/offline.js keeps and sends)

/** What a change answers when it was kept to send later. */
const KEPT = Object.freeze({ offline: true, projects: [] });

/** Shows a kept change on the open list at once, as the server will make it. */
function applyLocally(kept) {
  if (!state.list || kept.kind === "order") return; // a new order is drawn before it is sent
  const tasks = state.list.tasks;
  if (kept.kind === "create") {
    if (kept.list === state.selected) tasks.push(localTask(kept));
  } else {
    const index = tasks.findIndex((task) => task.id === kept.taskId);
    if (index < 0) return;
    const next = kept.kind === "patch" ? { ...tasks[index], ...kept.body } : null;
    const leaves = !next || ("projectId" in kept.body && (next.projectId ?? INBOX) !== state.selected);
    if (leaves) {
      tasks.splice(index, 1);
      state.expanded.delete(kept.taskId);
    } else {
      tasks[index] = next;
      if ("headingId" in kept.body) sortTasks(tasks);
    }
  }
  renderTasks();
}

/**
 * Sends a task change, or keeps it for later: when changes already wait (they go first, in order) or the
 * connection is gone. Answers the server's TaskChangeResponse, KEPT, or throws the server's refusal.
 */
async function sendOrKeep(kept, send) {
  if (!mustWait(kept.taskIds || kept.taskId)) {
    try {
      return await send(kept.key);
    } catch (error) {
      if (!error.network) throw error;
    }
  }
  keep(kept);
  applyLocally(kept);
  return KEPT;
}

export function patchTask(taskId, body) {
  const task = taskById(taskId);
  const kept = { key: newIdempotencyKey(), kind: "patch", taskId, body, title: task ? task.title : "", list: state.selected };
  // The server picks the celebration for the person's motion preference (calm mode lives in this browser).
  const send = (sent, key) => api(`/api/tasks/${encodeURIComponent(taskId)}?preference=${preference()}`, { method: "PATCH", body: sent, idempotencyKey: key });
  return change(async () => {
    let response;
    try {
      response = await sendOrKeep(kept, (key) => send(body, key));
    } catch (error) {
      // Changed elsewhere since this edit began (its baseRevision is old): the person chooses.
      if (error.code !== "edit_conflict" || !error.data || !error.data.task) throw error;
      response = await settleConflict(body, error.data.task, send);
    }
    if (response !== KEPT) applyTaskChange(response, taskId);
    return response;
  });
}

/** The fields an edit may change, as the conflict dialog names them. */
const EDITED_FIELDS = Object.freeze({ title: "title", notes: "notes", priority: "priority", dueDate: "due date" });

/** A field's value as the person reads it: the server's priority label, a day in words, or no date. */
function shownValue(field, value) {
  if (field === "priority") return priorityLabel(value);
  if (field === "dueDate") return value ? longDay(value) : "No due date";
  return value ?? "";
}

/**
 * Shows both versions of the edited field; "Keep mine" sends the edit again on the saved revision, "Take theirs"
 * keeps the saved task (answered as if the server had said so, so the page shows it).
 */
async function settleConflict(body, theirs, send) {
  const field = Object.keys(EDITED_FIELDS).find((name) => name in body) || "title";
  const name = EDITED_FIELDS[field];
  const choice = await chooseVersion({ field: name, title: theirs.title, mine: shownValue(field, body[field]), theirs: shownValue(field, theirs[field]) });
  if (choice === "mine") {
    const response = await send({ ...body, baseRevision: theirs.revision }, newIdempotencyKey());
    announce(`Kept your ${name}.`);
    return response;
  }
  announce(`Kept the ${name} saved elsewhere.`);
  return { task: theirs, projects: [], inbox: state.inbox };
}

// A kept edit that meets a change made elsewhere meanwhile is settled the same way when it is sent later.
whenConflict(settleConflict);

async function addTask(title) {
  const body = { title };
  if (state.selected !== INBOX) body.projectId = state.selected;
  const key = state.selected;
  const kept = { key: newIdempotencyKey(), kind: "create", taskId: null, body, title, list: key };
  const response = await change(async () => {
    const answer = await sendOrKeep(kept, (idempotencyKey) => api("/api/tasks", { method: "POST", body, idempotencyKey }));
    if (answer === KEPT) return answer;
    if (state.selected === key) applyTaskChange(answer, answer.task && answer.task.id);
    else {
      for (const project of answer.projects) upsertProject(project);
      updateInbox(answer.inbox);
      renderSidebar();
      if (answer.undo) showUndo(answer.undo);
    }
    return answer;
  });
  if (response === KEPT) announce(`Added ${title}; it is sent when you are back online.`);
  else if (response && response.task) announce(`Added ${response.task.title}.`);
  return response;
}

/**
 * Adds a task to the Inbox due on `dueDate` (from Today or Upcoming, whatever list is open): sent at once, or
 * kept and sent when the connection is back. Answers the server's TaskChangeResponse, KEPT, or null after a refusal.
 */
export async function addDatedTask(title, dueDate) {
  const body = { title, dueDate };
  const kept = { key: newIdempotencyKey(), kind: "create", taskId: null, body, title, list: INBOX };
  const response = await change(async () => {
    const answer = await sendOrKeep(kept, (idempotencyKey) => api("/api/tasks", { method: "POST", body, idempotencyKey }));
    if (answer !== KEPT) applyTaskChange(answer, answer.task && answer.task.id);
    return answer;
  });
  if (response === KEPT) announce(`Added ${title} to the Inbox; it is sent when you are back online.`);
  else if (response && response.task) announce(`Added ${response.task.title} to the Inbox, due ${longDay(dueDate)}.`);
  return response;
}

export function toggleTask(taskId) {
  const task = taskById(taskId);
  if (!task) return;
  const next = !shownCompleted(task);
  state.stayShown.add(taskId);
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
    if (!response) {
      // Refused (signed out elsewhere, the task gone…): the box the click ticked goes back to what is saved.
      forgetRow(taskId);
      renderTasks();
    }
    else if (!response.completion) announce(next ? `Completed ${task.title}.` : `${task.title} is open again.`);
  });
}

export async function deleteTask(taskId) {
  const task = taskById(taskId);
  if (!task) return;
  const ok = await confirmDialog({ title: "Delete this task?", text: `“${task.title}” will be deleted. Undo (z) brings it back.`, confirm: "Delete task" });
  if (!ok) {
    rowFor(taskId)?.focus();
    return;
  }
  const kept = { key: newIdempotencyKey(), kind: "delete", taskId, title: task.title, list: state.selected };
  const response = await change(async () => {
    const answer = await sendOrKeep(kept, (key) => api(`/api/tasks/${encodeURIComponent(taskId)}`, { method: "DELETE", idempotencyKey: key }));
    if (answer === KEPT) return true;
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

export function moveTaskTo(taskId, key) {
  const task = taskById(taskId);
  if (!task) return;
  const target = key === INBOX ? null : key;
  if ((task.projectId ?? null) === target) return;
  patchTask(taskId, { projectId: target }).then((response) => {
    if (response) announce(`Moved ${task.title} to ${listName(key)}.`);
  });
}

/** Puts a task of the open project under one of its headings (null: under none); the server says where it goes. */
export function setTaskHeading(taskId, headingId) {
  return patchTask(taskId, { headingId });
}

/** Puts the open list's tasks in a new order and tells the server. */
export function commitTaskOrder(ids, movedId) {
  if (!state.list) return;
  if (state.list.partial) {
    // The server needs the whole list's order: the move waits for the rest of the list.
    const list = state.list;
    list.rest.then(() => {
      if (state.list !== list || !list.partial) commitTaskOrder(ids, movedId);
      else showError("This list is still loading. Try the move again in a moment.");
    });
    return;
  }
  if (ids.length < state.list.tasks.length) ids = withinWholeList(ids);
  const key = state.list.key;
  const before = state.list.tasks;
  const byTask = new Map(state.list.tasks.map((task) => [task.id, task]));
  state.list.tasks = ids.map((id) => byTask.get(id)).filter(Boolean);
  // The server numbers the positions 0, 1, 2… in this order; with headings the page sorts by them, so it does too.
  if (listHeadings().length) state.list.tasks.forEach((task, index) => { task.position = index; });
  renderTasks();
  const moved = byTask.get(movedId);
  if (moved) announce(`${moved.title} moved to position ${ids.indexOf(movedId) + 1} of ${ids.length}.`);
  // The server renumbers positions; the stream's next revision refetches them. Without a connection (or behind
  // changes that wait) the new order is kept and sent later, as the other changes are.
  const body = { projectId: key === INBOX ? null : key };
  const kept = { key: newIdempotencyKey(), kind: "order", taskId: null, taskIds: ids, body, title: listName(key), list: key };
  change(() => sendOrKeep(kept, () => api("/api/tasks/order", { method: "PUT", body: { ...body, ids } })).then(() => true))
    .then((saved) => {
      if (saved) return;
      // Signed out elsewhere: nothing can be fetched, so the order goes back to the one saved.
      if (state.sessionEnded && state.list && state.list.key === key) {
        state.list.tasks = before;
        renderTasks();
      } else refreshList(); // the server's order wins
    });
}

/**
 * A long list drags only the rows drawn: their new order goes into the places those tasks held in the whole
 * list, which the server needs complete.
 */
function withinWholeList(ids) {
  const moved = new Set(ids);
  const places = [];
  const all = state.list.tasks.map((task, index) => {
    if (moved.has(task.id)) places.push(index);
    return task.id;
  });
  places.forEach((place, index) => {
    all[place] = ids[index];
  });
  return all;
}

export function moveTaskBy(taskId, step) {
  // With headings, a step may cross a heading's row: the task goes under that heading (or out of it).
  if (listHeadings().length) {
    stepPlacement(taskId, step, commitTaskOrder, setTaskHeading);
    return;
  }
  // Among the rows shown: hidden completed tasks keep their places (commitTaskOrder fills them in).
  const ids = shownTasks().map((task) => task.id);
  const from = ids.indexOf(taskId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return;
  ids.splice(to, 0, ids.splice(from, 1)[0]);
  state.cursor = taskId;
  commitTaskOrder(ids, taskId);
}

export function moveProjectBy(projectId, step) {
  const ids = state.projects.filter((project) => !project.archived).map((project) => project.id);
  const from = ids.indexOf(projectId);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) return;
  ids.splice(to, 0, ids.splice(from, 1)[0]);
  commitProjectOrder(ids, projectId);
}

/** The project header (name, notes, colour, delete) and the add field. */
export function wireHeader() {
  // The project header.
  const name = $("#project-name");
  name.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      // Named (a new project, most often): the next thing to type is its first task.
      const add = $("#add-task");
      if (!add.disabled) add.focus();
      else name.blur();
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
  $("#archive-project").addEventListener("click", toggleArchived);

  // Escape leaves the add field for the list, where the keys work again.
  $("#add-task").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    const row = (state.cursor && rowFor(state.cursor)) || $("#task-list [data-task-id]");
    if (row) row.focus({ preventScroll: false });
    else event.target.blur();
  });

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
}
