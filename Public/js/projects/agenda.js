// Projects: the views across lists — Today (overdue tasks first), Upcoming (by day) and Search. The server
// decides what each holds, what is overdue and which day is today (in the time zone this page sends); this
// page draws the answer, links each task to its list and sends completions.
import { api } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { longDay, overdueWords, plural, shortDay } from "../lib/format.js";
import { ICONS, renderSidebar, svgIcon } from "./render.js";
import { showUndo } from "./undo.js";
import { addDatedTask } from "./changes.js";
import { isTyping, PHONE, showError, state, updateInbox, upsertProject } from "./state.js";

/** The views' keys, as `?list=` carries them (never a project's id or "inbox"). */
export const AGENDA_VIEWS = ["today", "upcoming", "search"];
const TITLES = { today: "Today", upcoming: "Upcoming", search: "Search" };
/** Milliseconds after the last keystroke before a search is sent. */
const SEARCH_DELAY = 250;

export function isAgenda(key) {
  return AGENDA_VIEWS.includes(key);
}

let token = 0;
let searchTimer = 0;

/** Shows view `key` in place of the open list (`push`/`replace`: the history entry) and loads it. */
export function openAgenda(key, { push = false, replace = false, focus = false, query } = {}) {
  const changed = state.agenda !== key;
  state.agenda = key;
  $("#app").dataset.pane = "agenda";
  $("#app").dataset.view = "tasks";
  const input = $("#search");
  if (query !== undefined) input.value = query;
  $("#search-form").hidden = key !== "search";
  showAddForm(key, changed);
  $("#agenda-title").textContent = TITLES[key];
  document.title = `${TITLES[key]} — Projects — CompletionKit`;
  if (changed) {
    $("#agenda-body").replaceChildren();
    $("#agenda-summary").textContent = "";
  }
  const url = agendaURL();
  if (push) history.pushState({ list: key, fromLists: PHONE.matches }, "", url);
  else if (replace) history.replaceState({ list: key }, "", url);
  renderSidebar();
  if (key === "search" && (focus || changed)) input.focus();
  else if (focus) $("#agenda-title").focus();
  return refreshAgenda();
}

/** Back to the open list. */
export function closeAgenda() {
  if (!state.agenda) return;
  state.agenda = null;
  clearTimeout(searchTimer);
  $("#app").dataset.pane = "list";
}

function agendaURL() {
  const query = $("#search").value.trim();
  const search = state.agenda === "search" && query ? `&q=${encodeURIComponent(query)}` : "";
  return `/projects?list=${state.agenda}${search}`;
}

/** Loads the open view again (after a change here or in another window); a late answer is dropped. */
export async function refreshAgenda() {
  const key = state.agenda;
  if (!key) return;
  const mine = ++token;
  const query = $("#search").value;
  if (key === "search" && !query.trim()) {
    $("#agenda-body").replaceChildren();
    $("#agenda-summary").textContent = "Type to search the titles and notes of every task.";
    return;
  }
  const path = key === "search" ? `/api/tasks/search?q=${encodeURIComponent(query)}` : `/api/tasks/${key}`;
  const body = $("#agenda-body");
  body.setAttribute("aria-busy", "true");
  let answer;
  try {
    answer = await api(path);
  } catch (error) {
    if (mine === token) {
      body.setAttribute("aria-busy", "false");
      showError(error.network ? offlineWords(key) : error.message, { untilOnline: Boolean(error.network) });
    }
    return;
  }
  if (mine !== token || state.agenda !== key) return;
  body.setAttribute("aria-busy", "false");
  if (key !== "search") setAddDay(answer.today);
  if (key === "today") drawToday(answer);
  else if (key === "upcoming") drawUpcoming(answer);
  else drawSearch(answer);
}

/**
 * Why a view cannot be shown without a connection: Today and Upcoming are kept for offline use once they were
 * opened online (js/projects/service-worker.js), a search always asks the server.
 */
function offlineWords(key) {
  if (key === "search") return "Search needs the connection. Try again when you are back online.";
  const name = key === "today" ? "Today" : "Upcoming";
  return `${name} has not been kept on this device yet, so it cannot be shown offline. Open it once while online and it shows here without a connection too.`;
}

// Back online: a view that could not be loaded is loaded now.
window.addEventListener("online", () => {
  if (state.agenda) refreshAgenda();
});

// MARK: Adding from a view

/** The person's today as the server last said (an ISO day), which Today's additions are due on. */
let agendaToday = null;

/** The day after `isoDay` (calendar arithmetic on the date the server named, no clock of this page's). */
function dayAfter(isoDay) {
  const [year, month, day] = isoDay.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

function showAddForm(key, changed) {
  const form = $("#agenda-add-form");
  form.hidden = key === "search";
  const upcoming = key === "upcoming";
  $("#agenda-add").placeholder = upcoming ? "Add a task, due on" : "Add a task for today";
  $("#agenda-add-label").textContent = upcoming ? "Add a task to the Inbox, due on the day chosen beside it" : "Add a task to the Inbox, due today";
  const day = $("#agenda-add-day");
  day.hidden = !upcoming;
  if (changed) $("#agenda-add").value = "";
}

function setAddDay(today) {
  if (!today) return;
  const moved = agendaToday !== today;
  agendaToday = today;
  const day = $("#agenda-add-day");
  day.min = dayAfter(today);
  if (moved || !day.value || day.value < day.min) day.value = day.min;
}

/** `n` in Today or Upcoming: the view's own add field (false in Search, which has none). */
export function focusAgendaAdd() {
  if (!state.agenda || state.agenda === "search") return false;
  $("#agenda-add").focus();
  return true;
}

async function submitAdd(event) {
  event.preventDefault();
  const input = $("#agenda-add");
  const title = input.value.trim();
  if (!title || !agendaToday) return;
  const due = state.agenda === "upcoming" ? $("#agenda-add-day").value || dayAfter(agendaToday) : agendaToday;
  input.value = "";
  const response = await addDatedTask(title, due);
  if (!response && !input.value) input.value = title; // give the words back after a refusal
  await refreshAgenda();
}

// MARK: Drawing

function dueText(entry) {
  if (entry.due === "overdue") return overdueWords(entry.daysLate);
  if (entry.due === "today") return "Due today";
  if (entry.task.dueDate) return `Due ${shortDay(entry.task.dueDate)}`;
  return "";
}

function entryRow(entry, { showDue = true } = {}) {
  const { task } = entry;
  const done = task.completed;
  const href = `/projects?list=${encodeURIComponent(entry.list)}&task=${encodeURIComponent(task.id)}`;
  const due = showDue ? dueText(entry) : "";
  return h("li", { class: `pj-entry${done ? " is-done" : ""}${entry.due === "overdue" ? " is-overdue" : ""}`, "data-testid": "agenda-row", "data-task-id": task.id, "data-due": entry.due || "" },
    h("button", {
      class: "pj-check", type: "button", role: "checkbox", "aria-checked": String(done), "aria-label": `Complete ${task.title}`,
      "data-testid": "agenda-check", "data-task-id": task.id,
    }, svgIcon(ICONS.check, 16)),
    h("div", { class: "pj-entry-main" },
      h("a", { class: "pj-entry-link", href, "data-task-link": "true", "data-list": entry.list, "data-task": task.id, "data-testid": "agenda-link" }, task.title),
      h("span", { class: "pj-entry-meta" },
        h("span", { class: "pj-entry-list", "data-color": entry.color || null },
          h("span", { class: "pj-entry-dot", "aria-hidden": "true" }), h("span", { class: "vh", text: "In " }), entry.listName),
        due ? h("span", { class: `pj-entry-due${entry.due === "overdue" ? " is-overdue" : ""}`, "data-testid": "agenda-due" },
          entry.due === "overdue" ? h("span", { class: "pj-overdue-mark", "aria-hidden": "true", text: "!" }) : svgIcon(ICONS.calendar, 14), due) : null)));
}

function drawToday(answer) {
  const open = answer.tasks.filter((entry) => !entry.task.completed).length;
  const overdue = answer.overdue ? ` (${answer.overdue} overdue)` : "";
  $("#agenda-summary").textContent = answer.tasks.length
    ? `${longDay(answer.today)} · ${plural(open, "task")} to do${overdue}`
    : `${longDay(answer.today)} · Nothing due today. Tasks with today's date, and overdue ones, show here.`;
  $("#agenda-body").replaceChildren(
    answer.tasks.length ? h("ul", { class: "pj-entries", "data-testid": "agenda-list", "aria-labelledby": "agenda-title" }, answer.tasks.map((entry) => entryRow(entry))) : "");
}

function drawUpcoming(answer) {
  const count = answer.days.reduce((sum, day) => sum + day.tasks.length, 0);
  $("#agenda-summary").textContent = count
    ? `${plural(count, "task")} due after today, on ${plural(answer.days.length, "day")}`
    : "Nothing due after today. Give a task a due date and it shows here, under its day.";
  $("#agenda-body").replaceChildren(...answer.days.map((day) => {
    const id = `day-${day.date}`;
    const when = day.daysAhead === 1 ? `Tomorrow · ${longDay(day.date)}` : longDay(day.date);
    return h("section", { class: "pj-day", "aria-labelledby": id, "data-testid": "agenda-day", "data-date": day.date },
      h("h3", { class: "pj-day-title", id }, when),
      h("ul", { class: "pj-entries", "aria-labelledby": id }, day.tasks.map((entry) => entryRow(entry, { showDue: false }))));
  }));
}

function drawSearch(answer) {
  const quoted = `“${answer.query}”`;
  $("#agenda-summary").textContent = !answer.tasks.length
    ? `No task matches ${quoted}.`
    : answer.more
      ? `The first ${answer.tasks.length} tasks matching ${quoted}. There are more: type more to narrow them.`
      : `${plural(answer.tasks.length, "task")} ${answer.tasks.length === 1 ? "matches" : "match"} ${quoted}.`;
  $("#agenda-body").replaceChildren(
    answer.tasks.length ? h("ul", { class: "pj-entries", "data-testid": "agenda-list", "aria-label": "Search results" }, answer.tasks.map((entry) => entryRow(entry))) : "",
    answer.more ? h("p", { class: "pj-more muted small", "data-testid": "search-more", text: "More tasks match than are shown." }) : "");
}

// MARK: Doing

/** Completes (or reopens) a task from a view; the server's answer moves the rings, then the view is loaded again. */
async function toggle(button) {
  const taskId = button.dataset.taskId;
  const completed = button.getAttribute("aria-checked") !== "true";
  button.setAttribute("aria-checked", String(completed));
  button.closest("li").classList.toggle("is-done", completed);
  try {
    const answer = await api(`/api/tasks/${encodeURIComponent(taskId)}`, {
      method: "PATCH", body: { completed },
    });
    for (const project of answer.projects || []) upsertProject(project);
    updateInbox(answer.inbox);
    renderSidebar();
    if (answer.undo) showUndo(answer.undo); // z or the toast takes it back, as in a list
  } catch (error) {
    showError(error.message, { untilOnline: Boolean(error.network) });
  }
  await refreshAgenda();
  const again = $(`#agenda-body [data-testid=agenda-check][data-task-id="${CSS.escape(taskId)}"]`);
  if (again) again.focus();
}

/** The links and checks of the view, in order (for j/k and the arrow keys). */
function links() {
  return [...$("#agenda-body").querySelectorAll("[data-testid=agenda-link]")];
}

function onPaneKeyDown(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
  const row = event.target.closest && event.target.closest("[data-testid=agenda-row]");
  const all = links();
  const at = row ? all.indexOf(row.querySelector("[data-testid=agenda-link]")) : -1;
  switch (event.key) {
    case "j":
    case "ArrowDown":
    case "k":
    case "ArrowUp": {
      if (!all.length) return;
      const step = event.key === "k" || event.key === "ArrowUp" ? -1 : 1;
      all[Math.min(Math.max(at + step, 0), all.length - 1)].focus();
      break;
    }
    case "x":
    case "X":
      if (!row) return;
      toggle(row.querySelector("[data-testid=agenda-check]"));
      break;
    case " ":
      // On the check itself Space presses it, as on any button.
      if (!row || !event.target.matches("a")) return;
      toggle(row.querySelector("[data-testid=agenda-check]"));
      break;
    default:
      return;
  }
  event.preventDefault();
}

/** Wires the views: the search field, checks, keys. `openTask(list, taskId)` opens a task in its list. */
export function wireAgenda({ openTask }) {
  $("#search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      history.replaceState({ list: "search" }, "", agendaURL());
      refreshAgenda();
    }, SEARCH_DELAY);
  });
  $("#search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(searchTimer);
    history.replaceState({ list: "search" }, "", agendaURL());
    refreshAgenda().then(() => links()[0]?.focus());
  });
  $("#search").addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" && links().length) {
      event.preventDefault();
      links()[0].focus();
    }
  });
  $("#agenda-add-form").addEventListener("submit", submitAdd);
  $("#agenda-add").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    (links()[0] || $("#agenda-title")).focus();
  });
  const pane = $("#agenda-pane");
  pane.addEventListener("keydown", onPaneKeyDown);
  pane.addEventListener("click", (event) => {
    const check = event.target.closest("[data-testid=agenda-check]");
    if (check) return toggle(check);
    const link = event.target.closest("a[data-task-link]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    openTask(link.dataset.list, link.dataset.task);
  });
  // "/" searches from anywhere on the page.
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target) || document.querySelector("dialog[open]")) return;
    event.preventDefault();
    openAgenda("search", { push: state.agenda !== "search", focus: true });
  });
}
