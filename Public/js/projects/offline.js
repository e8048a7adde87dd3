// Projects without a connection: a change that cannot reach the server (complete, edit, move, delete, a new
// task, several selected tasks completed or moved, a heading added, renamed or deleted, a list's tasks put in a
// new order) is shown at once, kept in this browser (localStorage, so a reload keeps it), and sent when the
// connection returns — in the order it was made, each exactly once: every change carries its own
// Idempotency-Key, kept with it, so a change sent again after a lost answer is answered from the server's
// record. A new order needs none: it names the whole list, so sent twice it leaves the same order. Counts and
// rings stay the server's: they move when the changes have been sent.
import { api } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { preference } from "../motion.js";
import { INBOX } from "./state.js";

const STORE = "completionkit.projects.outbox";
/** Seconds between tries to send what waits while the browser says it is online but the server is not reached. */
const RETRY_DELAYS = [2, 4, 8, 15, 30];

/**
 * The signed-in person's id (null until the page knows it). Each change is kept with the person who made it and
 * only theirs are shown and sent: another person signing in on this browser never sees the titles of the changes
 * waiting for the one before, nor sends them into their own account.
 */
let person = null;
/**
 * The changes waiting, oldest first: `{key, kind: "create"|"patch"|"delete"|"batch"|"order", taskId, body, title, user}`
 * (a batch names its tasks in `taskIds`, its change in `body`: `{done}` or `{projectId}`, as TaskBatchRequest;
 * a new order names list `list`'s tasks in `taskIds`, in that order, its list in `body`: `{projectId}`, and the
 * list's name in `title`),
 * and a heading's: `{key, kind: "heading-add"|"heading-patch"|"heading-delete", projectId, headingId, body, title}`
 * (`title`: the name the page shows for it). A heading added offline has the id this page proposed (`body.id`),
 * so its renames, its deletion and the tasks put under it name it before the server has answered.
 */
let outbox = read();
let sending = null;
let attempt = 0;
let timer = 0;
let onSent = () => {};

function readAll() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

/**
 * A change kept before changes named their person, or by a guest not saved yet (no id: their first write makes
 * their account, and a sign-in takes what they did here along), belongs to whoever opens the page.
 */
function isMine(change) {
  return !change.user || change.user === person;
}

function read() {
  return readAll().filter(isMine);
}

function write() {
  try {
    const kept = [...readAll().filter((change) => !isMine(change)), ...outbox];
    if (kept.length) localStorage.setItem(STORE, JSON.stringify(kept));
    else localStorage.removeItem(STORE);
  } catch {
    // A full or blocked storage: the changes still wait in this page.
  }
}

/** The id a task made offline has until the server gives it its own. */
export function localTaskId(key) {
  return `offline-${key}`;
}

export function isLocalTask(taskId) {
  return String(taskId).startsWith("offline-");
}

/** Whether a change to `taskId` (or to every id of an array) must wait behind others (a task made offline, or changes wait). */
export function mustWait(taskId) {
  if (Array.isArray(taskId)) return outbox.length > 0 || taskId.some(isLocalTask);
  return isLocalTask(taskId) || outbox.length > 0;
}

/** Whose changes this page shows and sends (`me.id` from /api/me; "" for a guest not saved yet). */
export function setPerson(id) {
  person = id ?? "";
  outbox = read();
}

/** Keeps a change to send later and shows the page's offline state. */
export function keep(change) {
  if (person !== null) change.user = person;
  if (change.kind === "order") {
    // A new order sets the list's whole order, so only the last one waiting for a list matters: an earlier one
    // is folded into it (dropped), unless it is being sent right now. The changes between them keep their
    // places, and the last order, sent after them, names the list as they leave it.
    outbox = outbox.filter((other, index) => other.kind !== "order" || other.list !== change.list || (sending && index === 0));
  }
  outbox.push(change);
  write();
  showState();
  scheduleSend();
}

const WORDS = { create: "add", patch: "change", delete: "delete", order: "reorder" };
const HEADING_WORDS = { "heading-add": "add the heading", "heading-patch": "rename the heading to", "heading-delete": "delete the heading" };

function isHeadingChange(change) {
  return change.kind in HEADING_WORDS;
}

function describe(change) {
  if (isHeadingChange(change)) return `${HEADING_WORDS[change.kind]} “${change.title}”`;
  if (change.kind === "batch") {
    const tasks = plural(change.taskIds.length, "task");
    return "done" in change.body ? `${change.body.done ? "complete" : "reopen"} ${tasks}` : `move ${tasks}`;
  }
  if (change.kind === "patch" && change.body && "completed" in change.body) return `${change.body.completed ? "complete" : "reopen"} “${change.title}”`;
  return `${WORDS[change.kind]} “${change.title}”`;
}

/** Says whether the page is offline and what waits to be sent. */
export function showState(note = "") {
  const status = $("#sync-status");
  if (!status) return;
  const waiting = outbox.length
    ? `${plural(outbox.length, "change")} waiting to be sent: ${outbox.slice(0, 3).map(describe).join(", ")}${outbox.length > 3 ? ", …" : ""}.`
    : "";
  const offline = navigator.onLine === false ? "You are offline. Changes are kept in this browser and sent when you are back. " : "";
  const text = `${offline}${waiting}${note ? ` ${note}` : ""}`.trim();
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = outbox.length || offline ? "offline" : "current";
  document.body.dataset.outbox = String(outbox.length);
}

/**
 * Shows the waiting changes on a list the server just sent (after a reload, or a refresh while offline):
 * the server's tasks with what this browser has not sent yet applied on top.
 */
export function overlay(key, tasks) {
  if (!outbox.length) return tasks;
  let shown = tasks;
  for (const change of outbox) {
    if (isHeadingChange(change)) {
      // A heading deleted offline: its tasks stay in the project under no heading, as the server will have them.
      if (change.kind === "heading-delete" && change.projectId === key) {
        shown = shown.map((task) => (task.headingId === change.headingId ? { ...task, headingId: null } : task));
      }
    } else if (change.kind === "create") {
      if (change.list === key) shown = [...shown, localTask(change)];
    } else if (change.kind === "delete") {
      shown = shown.filter((task) => task.id !== change.taskId);
    } else if (change.kind === "batch") {
      shown = shown.flatMap((task) => (change.taskIds.includes(task.id) ? batched(task, change.body, key) : [task]));
    } else if (change.kind === "order") {
      if (change.list === key) shown = ordered(shown, change.taskIds);
    } else {
      shown = shown.flatMap((task) => {
        if (task.id !== change.taskId) return [task];
        const next = { ...task, ...change.body };
        const moved = "projectId" in change.body && (next.projectId ?? INBOX) !== key;
        return moved ? [] : [next];
      });
    }
  }
  return shown;
}

/**
 * The headings of project `key` the server sent, with what this browser has not sent yet on top: a heading added
 * offline at the end, a rename, a deletion. A heading with a change waiting is marked `waiting` (its row says so);
 * one added offline is `offline` too (it is not kept in the list's copy: this lays it on again).
 */
export function overlayHeadings(key, headings) {
  if (!outbox.length) return headings;
  let shown = headings;
  for (const change of outbox) {
    if (!isHeadingChange(change) || change.projectId !== key) continue;
    if (change.kind === "heading-add") {
      if (!shown.some((heading) => heading.id === change.headingId)) shown = [...shown, localHeading(change)];
    } else if (change.kind === "heading-patch") {
      shown = shown.map((heading) => (heading.id === change.headingId ? { ...heading, name: change.title, waiting: true } : heading));
    } else {
      shown = shown.filter((heading) => heading.id !== change.headingId);
    }
  }
  return shown;
}

/** The row a heading added offline shows until the server has it. */
function localHeading(change) {
  return { id: change.headingId, projectId: change.projectId, name: change.title, position: Number.MAX_SAFE_INTEGER, offline: true, waiting: true };
}

/**
 * `tasks` in the order `ids` gives them, numbered as the server will number them (0, 1, 2… in that order: a list
 * with headings sorts by position). A task the order does not name (the server had it before the list was
 * read again) follows, in its place among those.
 */
function ordered(tasks, ids) {
  const place = new Map(ids.map((id, index) => [id, index]));
  const rank = (task, index) => (place.has(task.id) ? place.get(task.id) : ids.length + index);
  return tasks
    .map((task, index) => ({ ...task, position: rank(task, index) }))
    .sort((a, b) => a.position - b.position);
}

/** A task of list `key` as a waiting batch change (`{done}` or `{projectId}`) leaves it: [] when it moves away. */
export function batched(task, body, key) {
  if ("done" in body) return [{ ...task, completed: body.done }];
  return (body.projectId ?? INBOX) !== key ? [] : [task];
}

/** The row a task made offline shows until the server has it. */
export function localTask(change) {
  return {
    id: localTaskId(change.key), title: change.body.title, notes: "", priority: "none", completed: false,
    position: Number.MAX_SAFE_INTEGER, projectId: change.body.projectId, offline: true,
  };
}

/** `done()` runs after waiting changes were sent (the page then reloads its lists from the server). */
export function whenSent(done) {
  onSent = done;
}

let onConflict = null;

/**
 * `settle(body, theirs, send)` resolves a kept edit the server refused as `edit_conflict` (the task changed
 * elsewhere meanwhile): it asks the person and, for "mine", sends `body` again through `send(body, key)`.
 */
export function whenConflict(settle) {
  onConflict = settle;
}

function scheduleSend() {
  if (timer || !outbox.length) return;
  const delay = RETRY_DELAYS[Math.min(attempt, RETRY_DELAYS.length - 1)];
  timer = setTimeout(() => {
    timer = 0;
    send();
  }, delay * 1000);
}

/** Sends what waits, oldest first; stops at a lost connection and tries again later. */
export function send() {
  if (sending || !outbox.length) return sending;
  clearTimeout(timer);
  timer = 0;
  sending = (async () => {
    const problems = [];
    /** Ids the server gave tasks made offline. */
    const made = new Map();
    /** Headings added offline that the server refused (their project was deleted meanwhile…): what names them waits in vain. */
    const lost = new Set();
    /** `ids` as the server knows them: a task made offline by the id it was given, one never made left out. */
    const serverIds = (ids) => ids.map((id) => made.get(id) || id).filter((id) => !isLocalTask(id));
    while (outbox.length) {
      const change = outbox[0];
      const taskId = made.get(change.taskId) || change.taskId;
      try {
        if (isLocalTask(taskId) && change.kind !== "create" && change.kind !== "batch") throw Object.assign(new Error("not made"), { skipped: true });
        const heading = change.headingId || (change.body && change.body.headingId);
        if (heading && lost.has(heading)) throw Object.assign(new Error("not made"), { skipped: "heading" });
        if (isHeadingChange(change)) {
          // By the id this page proposed: a retry after a lost answer is answered from the server's record.
          const at = `/api/projects/${encodeURIComponent(change.projectId)}/headings`;
          try {
            if (change.kind === "heading-add") await api(at, { method: "POST", body: change.body, idempotencyKey: change.key });
            else if (change.kind === "heading-patch") {
              await api(`${at}/${encodeURIComponent(change.headingId)}`, { method: "PATCH", body: change.body, idempotencyKey: change.key });
            } else await api(`${at}/${encodeURIComponent(change.headingId)}`, { method: "DELETE", idempotencyKey: change.key });
          } catch (error) {
            if (change.kind === "heading-add" && !error.network && error.code !== "session_ended") lost.add(change.headingId);
            throw error;
          }
        } else if (change.kind === "batch") {
          const taskIds = serverIds(change.taskIds);
          if (taskIds.length) {
            await api(`/api/tasks/batch?preference=${preference()}`, { method: "POST", body: { taskIds, ...change.body }, idempotencyKey: change.key });
          }
        } else if (change.kind === "order") {
          // No Idempotency-Key: the order names the whole list, so sent again after a lost answer it sets the same
          // order. If the list changed elsewhere meanwhile the server refuses it (order_mismatch) and the page,
          // reloaded below, shows the order saved.
          await api("/api/tasks/order", { method: "PUT", body: { ...change.body, ids: serverIds(change.taskIds) } });
        } else if (change.kind === "create") {
          const answer = await api("/api/tasks", { method: "POST", body: change.body, idempotencyKey: change.key });
          if (answer && answer.task) made.set(localTaskId(change.key), answer.task.id);
        } else if (change.kind === "delete") {
          await api(`/api/tasks/${encodeURIComponent(taskId)}`, { method: "DELETE", idempotencyKey: change.key });
        } else {
          await api(`/api/tasks/${encodeURIComponent(taskId)}?preference=${preference()}`, { method: "PATCH", body: change.body, idempotencyKey: change.key });
        }
      } catch (error) {
        if (error.network) {
          attempt += 1;
          showState();
          scheduleSend();
          return;
        }
        if (error.code === "session_ended") {
          // Signed out elsewhere: the changes stay kept (they are this account's) until the person signs in again.
          showState(error.message);
          return;
        }
        let problem = error;
        if (error.code === "edit_conflict" && error.data && error.data.task && onConflict) {
          // Changed in another window while this one was offline: the person chooses, as when both are online.
          try {
            await onConflict(change.body, error.data.task, (body, key) =>
              api(`/api/tasks/${encodeURIComponent(taskId)}?preference=${preference()}`, { method: "PATCH", body, idempotencyKey: key }));
            problem = null;
          } catch (again) {
            if (again.network) {
              attempt += 1;
              showState();
              scheduleSend();
              return;
            }
            problem = again;
          }
        }
        // Refused (the task was deleted elsewhere, a title too long…): it cannot be sent; the person is told.
        const skipped = problem && problem.skipped === "heading" ? "the new heading was not saved" : "the new task was not saved";
        if (problem && problem.code === "order_mismatch") {
          problems.push(`Your new order of “${change.title}” was not saved: the list changed elsewhere meanwhile, so it shows the order saved there.`);
        } else if (problem) problems.push(`Could not ${describe(change)}: ${problem.skipped ? skipped : problem.message}`);
      }
      outbox.shift();
      // Pending ids in later changes follow the task the server made.
      for (const later of outbox) {
        if (made.has(later.taskId)) later.taskId = made.get(later.taskId);
        if (later.taskIds) later.taskIds = later.taskIds.map((id) => made.get(id) || id);
      }
      write();
    }
    attempt = 0;
    showState(problems.join(" "));
    await onSent();
  })().finally(() => {
    sending = null;
  });
  return sending;
}

window.addEventListener("online", () => {
  attempt = 0;
  showState();
  send();
});
window.addEventListener("offline", () => showState());
let onElsewhere = () => {};

/** `redraw()` runs when another tab of this browser kept or sent changes (the open list shows them too). */
export function whenChangedElsewhere(redraw) {
  onElsewhere = redraw;
}

// Another tab of this browser kept or sent changes.
window.addEventListener("storage", (event) => {
  if (event.key !== STORE) return;
  outbox = read();
  showState();
  onElsewhere();
});

/** How many changes wait (for tests and the page's words). */
export function waiting() {
  return outbox.length;
}
