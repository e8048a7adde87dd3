// Projects: several tasks selected at once (`s`, or a click with Shift, Ctrl or Cmd), then completed or moved
// in one request (`POST /api/tasks/batch`). The server decides and counts; the page shows its answer.
import { announce } from "../lib/announce.js";
import { api, newIdempotencyKey } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { preference } from "../motion.js";
import { completed, openSelector } from "./dialogs.js";
import { renderHeader, renderSidebar, renderTasks, rowFor } from "./render.js";
import { batched, keep, mustWait } from "./offline.js";
import { hideUndo } from "./undo.js";
import { change, INBOX, listName, shownTasks, sortProjects, sortTasks, state, taskById, updateInbox, upsertProject } from "./state.js";

/** The most tasks one batch may name: the server's limit, from the overview (null until it arrives). */
function batchLimit() {
  return state.limits && state.limits.tasksPerBatch;
}

/** A word about the last selection (the batch limit reached), shown in the bar until the next pick. */
let pickNote = "";

/** The selected tasks of the open list, in list order. */
function pickedTasks() {
  return shownTasks().filter((task) => state.picked.has(task.id));
}

/** Selects or unselects one task; with `range`, every task from the last one picked to it. */
export function togglePick(taskId, { range = false } = {}) {
  if (!taskById(taskId)) return;
  const tasks = shownTasks();
  let ids = [taskId];
  const anchor = state.pickAnchor;
  if (range && anchor && anchor !== taskId) {
    const from = tasks.findIndex((task) => task.id === anchor);
    const to = tasks.findIndex((task) => task.id === taskId);
    if (from >= 0 && to >= 0) ids = tasks.slice(Math.min(from, to), Math.max(from, to) + 1).map((task) => task.id);
  }
  const adding = range || !state.picked.has(taskId);
  const limit = batchLimit();
  pickNote = "";
  for (const id of ids) {
    if (!adding) state.picked.delete(id);
    else if (limit && state.picked.size >= limit && !state.picked.has(id)) {
      // Said in the bar, where the eyes are (the page's message line may be scrolled away).
      pickNote = `At most ${limit} tasks can be selected at once.`;
      break;
    } else state.picked.add(id);
  }
  state.pickAnchor = taskId;
  renderTasks();
  renderPickBar({ say: true });
}

/** A long press on a task with a finger (the platform's context-menu gesture): selects it and starts selecting by taps. */
export function pickByTouch(taskId) {
  state.touchPicking = true;
  if (!state.picked.has(taskId)) togglePick(taskId);
  else renderPickBar({ say: true });
}

/** Clears the selection (Esc, or the bar's Clear). */
export function clearPicks({ say = true } = {}) {
  if (!state.picked.size) return false;
  state.picked.clear();
  state.pickAnchor = null;
  renderTasks();
  renderPickBar({ say });
  return true;
}

/** Forgets picks of tasks no longer in the open list (another list opened, a task deleted or moved away). */
export function prunePicks() {
  if (state.picked.size) {
    const here = new Set(shownTasks().map((task) => task.id));
    for (const id of [...state.picked]) if (!here.has(id)) state.picked.delete(id);
  }
  renderPickBar();
}

/** The bar: "3 selected · Complete · Move to… · Clear", shown while anything is selected. */
export function renderPickBar({ say = false } = {}) {
  const bar = $("#pick-bar");
  const tasks = pickedTasks();
  bar.hidden = tasks.length === 0;
  if (!tasks.length) {
    state.touchPicking = false;
    pickNote = "";
  }
  $("#pick-count").textContent = `${tasks.length} selected`;
  const hint = $("#pick-hint");
  hint.textContent = pickNote || "Tap tasks to select or unselect them";
  hint.hidden = !state.touchPicking && !pickNote;
  hint.classList.toggle("error", Boolean(pickNote));
  // Completing a selection of done tasks opens them again, as the check of one task does.
  const allDone = tasks.length > 0 && tasks.every((task) => task.completed);
  $("#pick-complete").textContent = allDone ? "Reopen" : "Complete";
  const how = `${pickNote ? `${pickNote} ` : ""}${state.touchPicking ? "Tap tasks to select or unselect them." : "Press Escape to clear."}`;
  if (say) announce(tasks.length ? `${plural(tasks.length, "task")} selected. ${how}` : "Selection cleared.");
}

/** Applies a TaskBatchResponse: the changed tasks' rows only, the counts that moved, a completion. */
function applyBatch(response) {
  for (const project of response.projects) upsertProject(project);
  sortProjects();
  updateInbox(response.inbox);
  if (state.list) {
    const byId = new Map(response.tasks.map((task) => [task.id, task]));
    const here = (task) => (state.selected === INBOX ? task.projectId == null : task.projectId === state.selected);
    state.list.tasks = state.list.tasks.flatMap((task) => {
      const after = byId.get(task.id);
      if (!after) return [task];
      return here(after) ? [after] : [];
    });
    // Tasks moved into the open list join it at its end.
    const known = new Set(state.list.tasks.map((task) => task.id));
    const arrived = response.tasks.filter((task) => here(task) && !known.has(task.id));
    if (arrived.length) state.list.tasks = [...state.list.tasks, ...arrived];
    // In the server's order: by heading, then by position (tasks put under a heading go to the end of its tasks).
    if (arrived.length || response.tasks.length) sortTasks(state.list.tasks);
  }
  renderSidebar();
  renderHeader();
  renderTasks();
  if (response.completion) completed(response);
}

/** What a batch answers when it was kept to send later (js/projects/offline.js). */
const KEPT = Object.freeze({ offline: true });

/**
 * Sends one batch for the selection, or keeps it to send when the connection is back (as one task's change is):
 * when changes already wait, or the server cannot be reached. On success the selection is cleared and the result announced.
 */
async function sendBatch(body, said) {
  const tasks = pickedTasks();
  if (!tasks.length) return;
  const taskIds = tasks.map((task) => task.id);
  const kept = { key: newIdempotencyKey(), kind: "batch", taskId: null, taskIds, body, title: "", list: state.selected };
  const response = await change(async () => {
    if (!mustWait(taskIds)) {
      try {
        return await api(`/api/tasks/batch?preference=${preference()}`, { method: "POST", body: { taskIds, ...body }, idempotencyKey: kept.key });
      } catch (error) {
        if (!error.network) throw error;
      }
    }
    keep(kept);
    return KEPT;
  });
  if (!response) return; // the message is shown; the selection stays for another try
  state.picked.clear();
  state.pickAnchor = null;
  // Completed here while completed tasks are hidden: they stay in sight, ticked, as one task ticked does.
  if (body.done) for (const id of taskIds) state.stayShown.add(id);
  if (response === KEPT) {
    // Shown at once, as the server will make it; counts and rings move when it has been sent.
    if (state.list) state.list.tasks = state.list.tasks.flatMap((task) => (taskIds.includes(task.id) ? batched(task, body, state.selected) : [task]));
    renderTasks();
  } else applyBatch(response);
  renderPickBar();
  // A batch is not on the undo list: the toast would offer to take back an older change as if it were this one.
  hideUndo();
  announce(response === KEPT ? `${said(tasks.length)} It is sent when you are back online.` : said(tasks.length));
  const next = state.cursor && rowFor(state.cursor);
  (next || $("#add-task")).focus({ preventScroll: true });
}

export function completePicks() {
  const tasks = pickedTasks();
  const done = !(tasks.length && tasks.every((task) => task.completed));
  sendBatch({ done }, (count) => `${done ? "Completed" : "Reopened"} ${plural(count, "task")}.`);
}

/** Every heading of the person's projects (the places Move… offers besides the lists), or none when unreachable. */
async function allHeadings() {
  try {
    return (await api("/api/projects/headings")).headings;
  } catch {
    return []; // offline or refused: the lists alone are still offered
  }
}

export async function movePicks() {
  if (!pickedTasks().length) return;
  const headings = await allHeadings();
  const tasks = pickedTasks(); // as they are now: the list may have changed while the headings came
  if (!tasks.length) return;
  openSelector(null, {
    tasks,
    headings,
    onPick: (key) => {
      if (!key.startsWith("heading:")) {
        sendBatch({ projectId: key === INBOX ? null : key }, (count) => `Moved ${plural(count, "task")} to ${listName(key)}.`);
        return;
      }
      const heading = headings.find((one) => one.id === key.slice(8));
      if (!heading) return;
      sendBatch({ projectId: heading.projectId, headingId: heading.id },
        (count) => `Moved ${plural(count, "task")} under “${heading.name}” in ${listName(heading.projectId)}.`);
    },
  });
}

export function wirePickBar() {
  $("#pick-complete").addEventListener("click", completePicks);
  $("#pick-move").addEventListener("click", movePicks);
  $("#pick-clear").addEventListener("click", () => {
    clearPicks();
    const row = state.cursor && rowFor(state.cursor);
    (row || $("#add-task")).focus({ preventScroll: true });
  });
}
