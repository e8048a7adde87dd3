// Projects: loading the overview and a list, choosing which list is open, and the live stream that keeps both current.
import { currentUser } from "../app.js";
import { announce } from "../lib/announce.js";
import { afterWrite, api, onSessionEnded, sessionEnded } from "../lib/api.js";
import { $ } from "../lib/dom.js";
import { keepLive } from "../lib/live.js";
import { configureRingMotion } from "../progress-ring.js";
import { closeAgenda, isAgenda, openAgenda, refreshAgenda } from "./agenda.js";
import { dismissCelebration } from "./dialogs.js";
import { overlay, overlayHeadings, whenChangedElsewhere } from "./offline.js";
import { fitTextarea, renderAll, renderHeader, renderSidebar, renderTasks, revealRow } from "./render.js";
import { byId, clearError, connectionBack, enqueue, INBOX, isEditingInList, listName, openListRevision, PHONE, removeProject, showError, sortProjects, sortTasks, state, taskById, updateInbox, upsertProject } from "./state.js";
import { followUndo } from "./undo.js";

// MARK: Loading

let listToken = 0;

/** Loads a list's tasks. `quiet`: a refresh after a change elsewhere (no loading state, focus kept). */
export async function loadList(key, { quiet = false } = {}) {
  const token = ++listToken;
  const list = $("#task-list");
  if (!quiet) list.setAttribute("aria-busy", "true");
  const path = key === INBOX ? "/api/projects/inbox/tasks" : `/api/projects/${encodeURIComponent(key)}/tasks`;
  // A list not on screen yet opens with its first page (a long list's whole answer takes the server about a
  // second); the rest follows after the first paint. A refresh, or a list shown from the copy kept from the
  // last visit, reads the list whole so no row it shows goes away meanwhile.
  const firstPage = !quiet && !(state.list && state.list.key === key) && state.limits ? state.limits.firstTaskPage : null;
  let response;
  try {
    response = await api(firstPage ? `${path}?limit=${firstPage}` : path);
  } catch (error) {
    if (token !== listToken) return true; // another list was asked for meanwhile
    list.setAttribute("aria-busy", "false");
    if (quiet) return false; // a refresh: refreshList tries again
    if (key !== INBOX && !quiet) {
      // A deleted project or an old link: the Inbox is always there.
      showError(error.message, { untilOnline: Boolean(error.network) });
      selectList(INBOX, { replace: true, keepError: true });
    } else if (!quiet) {
      showError(error.message, { untilOnline: Boolean(error.network) });
    }
    return false;
  }
  if (token !== listToken || state.selected !== key) return true;
  if (response.project) upsertProject(response.project);
  if (response.inbox) updateInbox(response.inbox);
  const revision = response.project ? response.project.revision : response.inbox ? response.inbox.revision : 0;
  if (!state.list || state.list.key !== key) state.expanded.clear();
  const before = state.list && state.list.key === key ? state.list.tasks : [];
  // Changes made without a connection and not sent yet stay shown on top of the server's list.
  state.list = {
    key, revision, tasks: keepUnchanged(before, overlay(key, response.tasks)), partial: Boolean(response.next),
    headings: overlayHeadings(key, response.headings || []),
  };
  if (response.next) state.list.rest = loadRest(state.list, token, path, response.next);
  closeEditorOfDeletedTask(before);
  renderSidebar();
  renderHeader();
  renderTasks();
  revealWanted();
  return true;
}

// Another tab of this browser kept changes (offline): the open list draws them too, as that tab does. Its rows
// made offline are laid on again from what waits now (one sent meanwhile comes back from the server).
whenChangedElsewhere(() => {
  if (!state.list) return;
  state.list.tasks = overlay(state.list.key, state.list.tasks.filter((task) => !task.offline));
  state.list.headings = overlayHeadings(state.list.key, (state.list.headings || []).filter((heading) => !heading.offline));
  renderTasks();
});

/**
 * The rest of a list opened with its first page, put after the rows shown (which may have changed since, by
 * this person or by their live updates). If the list changed on the server between the two pages (409
 * list_changed) or the request failed, the list is read again whole, with the refresh's retries.
 */
async function loadRest(list, token, path, after) {
  let response;
  try {
    response = await api(`${path}?after=${encodeURIComponent(after)}`);
  } catch {
    if (token === listToken && state.list === list) refreshList();
    return;
  }
  if (token !== listToken || state.list !== list) return; // another list, or a whole refetch, came meanwhile
  const shown = new Set(list.tasks.map((task) => task.id));
  const more = overlay(list.key, response.tasks).filter((task) => !shown.has(task.id));
  // In the server's order: a task added here meanwhile sits where its heading and position put it (the sort is stable).
  list.headings = response.headings ? overlayHeadings(list.key, response.headings) : list.headings;
  list.tasks = sortTasks([...list.tasks, ...more], list.headings);
  list.partial = false;
  renderTasks();
  revealWanted();
}

/** The task a view's link asked for: the cursor goes to it and it gets focus (once its list is here). */
function revealWanted() {
  const taskId = state.revealTask;
  if (!taskId || state.agenda) return;
  if (!taskById(taskId) && state.list && state.list.partial) return; // it may be in the rest, still on its way
  state.revealTask = null;
  if (!taskById(taskId)) {
    showError("That task is no longer in this list. It may have been moved or deleted in another window.");
    return;
  }
  state.cursor = taskId;
  renderTasks();
  const row = revealRow(taskId);
  if (row) {
    row.focus();
    row.scrollIntoView({ block: "center", behavior: "instant" });
  }
}

/**
 * A task deleted elsewhere while it is being edited here: the editor closes (typing into a task that is gone
 * would be lost on saving anyway) and the page says why.
 */
function closeEditorOfDeletedTask(before) {
  const active = document.activeElement;
  const row = active && active.closest && active.closest("#task-list [data-task-id]");
  const editingId = state.editing || (row && isEditingInList() ? row.dataset.taskId : null);
  if (!editingId || taskById(editingId)) return;
  const gone = before.find((task) => task.id === editingId);
  state.editing = null;
  state.expanded.delete(editingId);
  active.blur();
  showError(`“${gone ? gone.title : "This task"}” was deleted or moved in another window, so its editor was closed.`);
  $("#add-task").focus({ preventScroll: true });
}

// MARK: A kept copy of the open list

const COPY = "completionkit.projects.list";
/** Larger copies are not kept (localStorage holds about 5 MB an origin; changes waiting offline need room too). */
const COPY_LIMIT = 3_000_000;

/**
 * Keeps the open list in this browser when the page is left, so the next visit shows its rows at once while
 * the server's answer is on its way (a list of 10,000 tasks takes the server about a second). Kept per person.
 */
export function keepListCopy(me) {
  const save = () => {
    // A list whose rest has not arrived is not kept (the next visit would show only its first page).
    if (!me || !me.id || !state.list || state.list.partial) return;
    try {
      const tasks = state.list.tasks.filter((task) => !task.offline);
      const text = JSON.stringify({ user: me.id, key: state.list.key, revision: state.list.revision, tasks, headings: (state.list.headings || []).filter((heading) => !heading.offline) });
      if (text.length <= COPY_LIMIT) localStorage.setItem(COPY, text);
      else localStorage.removeItem(COPY);
    } catch {
      // Storage full or blocked: the next visit waits for the server, as before.
    }
  };
  window.addEventListener("pagehide", save);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") save();
  });
}

/** Shows the kept copy of list `key` (this person's) until the server's answer replaces it; false when there is none. */
export function showListCopy(me, key) {
  let copy = null;
  try {
    copy = JSON.parse(localStorage.getItem(COPY) || "null");
  } catch {
    copy = null;
  }
  if (!copy || !me || !me.id || copy.user !== me.id || copy.key !== key || !Array.isArray(copy.tasks)) return false;
  // Revision 0: any answer or live update is newer, so the copy is always replaced.
  state.list = { key, revision: 0, tasks: overlay(key, copy.tasks), headings: overlayHeadings(key, Array.isArray(copy.headings) ? copy.headings : []) };
  renderTasks();
  $("#task-list").setAttribute("aria-busy", "true");
  return true;
}

const TASK_FIELDS = ["projectId", "title", "notes", "priority", "dueDate", "completed", "completedAt", "position", "headingId"];

/** The fresh tasks, with the object already held kept for each task that did not change (its row stays drawn). */
function keepUnchanged(held, fresh) {
  if (!held.length) return fresh;
  const byId = new Map(held.map((task) => [task.id, task]));
  return fresh.map((task) => {
    const old = byId.get(task.id);
    return old && TASK_FIELDS.every((field) => old[field] === task[field]) ? old : task;
  });
}

function isStale() {
  return Boolean(state.list && state.list.key === state.selected && openListRevision() > state.list.revision);
}

/**
 * Refetches the open list once, however many changes arrive while it runs. `ifStale`: only if the list is
 * still behind once the changes already sent have been answered (the page's own change, told back by the
 * live stream, is in its answer already and needs no second fetch and render).
 */
let refreshing = null;
/** What a refresh asked for while one ran: null, "check" (only if stale) or "force". */
let again = null;
export function refreshList({ ifStale = false } = {}) {
  // Signed out elsewhere: the server answers as to a new visitor now, so there is nothing of theirs to fetch.
  if (state.sessionEnded) return Promise.resolve();
  const wanted = ifStale ? "check" : "force";
  if (refreshing) {
    if (again !== "force") again = wanted;
    return refreshing;
  }
  clearTimeout(retry.timer);
  retry.timer = 0;
  refreshing = (async () => {
    let mode = wanted;
    while (mode) {
      const force = mode === "force";
      again = null;
      const loaded = await enqueue(() => (force || isStale() ? loadList(state.selected, { quiet: true }) : true)).catch(() => false);
      if (loaded === false) {
        scheduleRetry(force);
        return;
      }
      mode = again;
    }
    if (retry.attempt) {
      retry.attempt = 0;
      setSyncStatus("");
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Seconds before a failed refresh is tried again, growing up to the last. */
const RETRY_DELAYS = [1, 2, 4, 8, 15, 30];
const retry = { attempt: 0, timer: 0, force: false };

/** A refresh that failed (a 503, a network blip) is tried again after a growing pause, and the page says so. */
function scheduleRetry(force) {
  if (state.sessionEnded) return;
  const delay = RETRY_DELAYS[Math.min(retry.attempt, RETRY_DELAYS.length - 1)];
  retry.attempt += 1;
  retry.force = retry.force || force;
  setSyncStatus(`This list could not be brought up to date. Trying again in ${delay} s…`);
  retry.timer = setTimeout(retryNow, delay * 1000);
}

function retryNow() {
  retry.timer = 0;
  const force = retry.force;
  retry.force = false;
  setSyncStatus("Bringing this list up to date…");
  refreshList({ ifStale: !force });
}

function setSyncStatus(text) {
  const status = $("#sync-status");
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = text ? "behind" : "current";
}

// Back online: a refresh waiting for its next try goes now.
window.addEventListener("online", () => {
  if (retry.timer) {
    clearTimeout(retry.timer);
    retryNow();
  }
});

function refreshIfStale() {
  if (isStale()) refreshList({ ifStale: true });
}

export async function loadOverview() {
  const overview = await api("/api/projects");
  configureRingMotion(overview.ring);
  state.colors = overview.colors;
  takeLabelsAndLimits(overview);
  state.revision = overview.revision;
  const ids = new Set(overview.projects.map((project) => project.id));
  for (const project of [...state.projects]) if (!ids.has(project.id)) removeProject(project.id);
  for (const project of overview.projects) upsertProject(project);
  sortProjects();
  updateInbox(overview.inbox);
}

/**
 * The server's labels and limits: the colour and priority names the page shows, and the lengths the fields in
 * projects.html take (the page keeps no copy of either).
 */
function takeLabelsAndLimits(overview) {
  state.colorLabels = new Map((overview.colorLabels || []).map(({ value, label }) => [value, label]));
  state.priorities = overview.priorities || [];
  state.limits = overview.limits || null;
  if (!state.limits) return;
  $("#project-name").maxLength = state.limits.name;
  $("#project-notes").maxLength = state.limits.notes;
  $("#add-task").maxLength = state.limits.title;
  if (state.limits.search) $("#search").maxLength = state.limits.search;
}

// MARK: Hiding completed tasks

const HIDE = "completionkit.projects.hideCompleted";

/**
 * Hides or shows completed tasks in every list. A view preference only (no count, ring or rule depends on
 * it), so it is kept in this browser: a phone may hide them while a laptop shows them.
 */
export function setHideCompleted(hide, { keep = true } = {}) {
  state.hideCompleted = hide;
  state.stayShown.clear();
  if (keep) {
    try {
      if (hide) localStorage.setItem(HIDE, "true");
      else localStorage.removeItem(HIDE);
    } catch {
      // Storage blocked: the choice lasts until the page is left.
    }
  }
  renderTasks();
  announce(hide ? "Completed tasks are hidden." : "Completed tasks are shown.");
}

export function keptHideCompleted() {
  try {
    return localStorage.getItem(HIDE) === "true";
  } catch {
    return false;
  }
}

// MARK: Choosing a list

export function listFromURL() {
  const key = new URLSearchParams(location.search).get("list");
  return key || null;
}

export function setView(view) {
  $("#app").dataset.view = view;
  if (view === "tasks") fitTextarea($("#project-notes"));
}

/**
 * Opens a list. `push`: a new history entry (the phone's back button returns to the lists);
 * `focus`: moves focus to the list's title (on a phone, where the lists screen just disappeared).
 */
export function selectList(key, { push = false, replace = false, focus = false, keepError = false } = {}) {
  if (isAgenda(key)) {
    if (!keepError) clearError();
    openAgenda(key, { push, replace, focus, query: key === "search" ? new URLSearchParams(location.search).get("q") || undefined : undefined });
    return;
  }
  const fromAgenda = Boolean(state.agenda);
  closeAgenda();
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
    state.stayShown.clear();
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
  else if (fromAgenda) {
    // Back from a view: the list may have changed meanwhile (a task ticked off in Today).
    refreshList();
    revealWanted();
  }
  if (focus) $("#list-title").focus({ preventScroll: false });
}

export function showLists() {
  setView("lists");
  const current = $(`#sidebar [data-list="${CSS.escape(state.selected)}"] a`);
  (current || $("#sidebar a[data-list]"))?.focus();
}

// MARK: Live updates

function setLiveStatus(text, which = text ? "reconnecting" : "live") {
  const status = $("#live-status");
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = which;
}

/**
 * The session ended (a change refused with 401 session_ended, or the live stream refused to a person who was
 * signed in): the page stops following and fetching, since the server now answers as to a new visitor, and the
 * banner at the top (js/app.js) is the one message. What is on screen stays as the server last had it.
 */
function endSession() {
  if (state.sessionEnded) return;
  state.sessionEnded = true;
  clearTimeout(retry.timer);
  retry.timer = 0;
  retry.attempt = 0;
  setSyncStatus("");
  state.live?.close();
  setLiveStatus("Not live", "off");
}
onSessionEnded(endSession);

function tellsAnythingNew(update) {
  if ((update.deleted || []).some((id) => byId(id))) return true;
  if (update.inbox && update.inbox.revision > state.inbox.revision) return true;
  return update.projects.some((project) => {
    const known = byId(project.id);
    return !known || project.revision > known.revision;
  });
}

/** Applies a ProjectsLiveUpdate: a snapshot replaces the list, a change updates and removes projects. */
function applyLive(update) {
  followUndo(update); // before the early return: which step is last matters even when the lists are as shown here
  if (!update.snapshot && !tellsAnythingNew(update)) return; // our own change, already applied from its answer
  const selectedBefore = state.selected;
  const selectedName = listName(selectedBefore);
  const wasOpen = Boolean(byId(selectedBefore) && !byId(selectedBefore).archived);
  if (update.snapshot) {
    const ids = new Set(update.projects.map((project) => project.id));
    for (const project of [...state.projects]) if (!ids.has(project.id)) removeProject(project.id);
  }
  for (const id of update.deleted || []) removeProject(id);
  for (const project of update.projects) upsertProject(project);
  sortProjects();
  updateInbox(update.inbox);
  state.revision = Math.max(state.revision, update.revision);
  if (selectedBefore !== INBOX && !byId(selectedBefore) && state.agenda) {
    // Behind a view: the Inbox is what opens when the view is left.
    state.selected = INBOX;
    state.list = null;
  } else if (selectedBefore !== INBOX && !byId(selectedBefore)) {
    selectList(INBOX, { replace: true });
    showError(`${selectedName} was deleted.`);
    return;
  }
  renderSidebar();
  renderHeader();
  if (wasOpen && byId(selectedBefore)?.archived && !state.agenda) archivedElsewhere(byId(selectedBefore));
  refreshIfStale();
  refreshAgenda();
}

/**
 * The open project was archived in another window: its add field closes (an archived project takes no tasks),
 * and the page says why, keeping what was being typed there for when it is unarchived.
 */
function archivedElsewhere(project) {
  renderTasks(); // the empty list's hint no longer invites typing
  const typed = $("#add-task").value.trim();
  showError(typed
    ? `${project.name} was archived in another window, so it takes no new tasks. “${typed}” stays in the field: unarchive the project to add it.`
    : `${project.name} was archived in another window, so it takes no new tasks until it is unarchived.`);
}

/** Opens the live stream: a change made elsewhere moves the rings and the open list here too. */
export function connectLive(me) {
  if (state.live) return;
  // A visitor who has stored nothing yet has no account, and the stream answers 401 until they do: it opens
  // right after their first write (which makes the guest) instead of failing and retrying in the meantime.
  if (me && !me.id) {
    afterWrite(() => {
      if (!state.live) connectLive();
    });
    // Their first write may come from another tab: looked at again when this one is used.
    const recheck = () => {
      if (state.live) return window.removeEventListener("focus", recheck);
      currentUser(true).then((now) => {
        if (now && now.id && !state.live) connectLive(now);
      }).catch(() => {});
    };
    window.addEventListener("focus", recheck);
    return;
  }
  const signedIn = Boolean(me && me.id);
  state.live = keepLive("/api/projects/events", {
    events: { projects: applyLive },
    // Without a connection there is nothing to reconnect to: the bar says so (the list says what waits).
    onState: (which) => {
      if (state.sessionEnded) return;
      if (which === "off") {
        // Refused to someone who was signed in: their session ended elsewhere, which the page says before a change is lost.
        if (signedIn) return sessionEnded("You were signed out (on another device, or after a long time away), so this page no longer shows your changes.");
        return setLiveStatus("Not live", "off");
      }
      if (which === "live") connectionBack();
      setLiveStatus(which === "live" ? "" : navigator.onLine === false ? "Offline" : "Reconnecting…");
    },
    // Back after a gap: the snapshot that follows says what changed; a list still behind is refetched.
    onOpen: () => refreshIfStale(),
  });
}

export async function reloadEverything() {
  if (state.sessionEnded) return; // the server would answer a new visitor's empty lists
  try {
    await loadOverview();
    if (state.selected !== INBOX && !byId(state.selected)) selectList(INBOX, { replace: true });
    renderAll();
    await refreshList();
  } catch (error) {
    showError(error.message, { untilOnline: Boolean(error.network) });
  }
}
