// Projects: a small todo app (projects with tasks, an Inbox for the rest) whose rings follow the database
// live. The server keeps every count and decides every completion; this page shows what it sends
// (`percent`, `fraction`, `isComplete`, `active`), sends what the person does, and listens to the live stream
// so another tab or device moves the rings here too.
// This entry wires the page and starts it; the parts live in js/projects/.
import { boot, currentUser } from "./app.js";
import { $ } from "./lib/dom.js";
import { preference } from "./motion.js";
import { isAgenda, openAgenda, wireAgenda } from "./projects/agenda.js";
import { commitProjectOrder, commitTaskOrder, createProject, setTaskHeading, undoLast, wireHeader } from "./projects/changes.js";
import { commitPlacement, wireHeadings } from "./projects/headings.js";
import { openShortcuts, wireDialogs } from "./projects/dialogs.js";
import { sortable } from "./projects/drag.js";
import { connectLive, keepListCopy, keptHideCompleted, listFromURL, setHideCompleted, loadList, loadOverview, reloadEverything, selectList, setView, showListCopy, showLists } from "./projects/lists.js";
import { renderHeader, renderSidebar, renderTasks, renderVisibleRows } from "./projects/render.js";
import { byId, INBOX, PHONE, showError, state } from "./projects/state.js";
import { wirePickBar } from "./projects/selection.js";
import { onKeyDown, wireTaskList } from "./projects/task-list.js";
import { openTransfer, wireTransfer } from "./projects/transfer.js";
import { send as sendWaiting, setPerson, showState as showOfflineState, whenSent } from "./projects/offline.js";
import { forgetHeights } from "./projects/window.js";
import { keepForOffline } from "./projects/service-worker.js";
import { wireUndoToast } from "./projects/undo.js";
import { wireLengthNotes } from "./projects/lengths.js";

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
  wireAgenda({
    openTask: (list, taskId) => {
      state.revealTask = taskId;
      selectList(list, { push: true });
    },
  });
  $("#agenda-back").addEventListener("click", () => $("#back-to-lists").click());
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
  $("#hide-completed").addEventListener("click", () => setHideCompleted(!state.hideCompleted));
  state.hideCompleted = keptHideCompleted();
  $("#welcome-new").addEventListener("click", createProject);
  $("#welcome-import").addEventListener("click", () => openTransfer({ example: true }));
  $("#open-transfer").addEventListener("click", () => openTransfer());
  $("#open-shortcuts").addEventListener("click", openShortcuts);

  wireHeader();
  wireTaskList();
  wirePickBar();
  wireUndoToast(undoLast);
  wireHeadings();
  // Heading rows move with the others while a task is dragged, so a task can be dropped under a heading.
  sortable($("#task-list"), {
    rowSelector: "[data-task-id], [data-heading-id]", idOf: (row) => row.dataset.taskId || row.dataset.rowKey,
    commit: (keys, movedId) => commitPlacement(keys, movedId, commitTaskOrder, setTaskHeading),
  });
  sortable($("#project-nav"), { rowSelector: "[data-testid=project-row]", idOf: (row) => row.dataset.projectId, commit: commitProjectOrder });

  wireDialogs();
  wireTransfer();
  wireLengthNotes($("#app"));

  // Keeps sticky elements under the site's sticky top bar.
  const topbar = $(".topbar");
  const measure = () => document.documentElement.style.setProperty("--topbar-h", `${topbar.offsetHeight}px`);
  measure();
  if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);

  // A long list draws the rows near the screen: once a frame while scrolling, again after a resize.
  let scrollFrame = 0;
  window.addEventListener("scroll", () => {
    if (scrollFrame) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      renderVisibleRows();
    });
  }, { passive: true });
  let width = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === width) return renderVisibleRows();
    width = window.innerWidth;
    forgetHeights();
    renderTasks();
  });

  PHONE.addEventListener("change", () => {
    if (!PHONE.matches) setView("tasks");
  });
}

async function start() {
  document.body.dataset.motion = preference();
  boot();
  // The guest cookie comes from the first /api/me; every later request (and the stream) carries it.
  const me = await currentUser().catch(() => null);
  // Changes kept offline are sent and shown only for the person who made them.
  if (me) setPerson(me.id);
  await loadOverview();
  const requested = listFromURL();
  // A view (Today, Upcoming, Search) shows in place of a list; the Inbox loads behind it.
  const view = isAgenda(requested) ? requested : null;
  const key = !view && requested && (requested === INBOX || byId(requested)) ? requested : INBOX;
  if (requested && !view && key !== requested) showError("That project could not be found. Here is your Inbox.");
  state.selected = key;
  // A link to one task (from a view, or shared): its row gets the cursor once the list is here.
  state.revealTask = view ? null : new URLSearchParams(location.search).get("task");
  if (!view) history.replaceState({ list: requested ? key : null }, "", requested ? `/projects?list=${encodeURIComponent(key)}` : "/projects");
  // On a phone the first screen is the lists, unless a link named one.
  setView(PHONE.matches && !requested ? "lists" : "tasks");
  if (view) openAgenda(view, { replace: true, query: new URLSearchParams(location.search).get("q") || "" });
  renderSidebar();
  renderHeader();
  // Rows kept from the last visit show at once; the server's answer replaces them (equal rows stay).
  showListCopy(me, key);
  keepListCopy(me);
  await loadList(key);
  // Kept for a reload without a connection: the person, the lists and the list open now.
  keepForOffline(() => ["/api/me", "/api/projects", state.selected === INBOX ? "/api/projects/inbox/tasks" : `/api/projects/${encodeURIComponent(state.selected)}/tasks`]);
  connectLive(me);
  // Changes kept while offline (in this page or before a reload) are sent now, and the lists reloaded after.
  whenSent(() => reloadEverything());
  showOfflineState();
  if (navigator.onLine !== false) sendWaiting();
}

wire();
start()
  .catch((error) => showError(error.message, { untilOnline: Boolean(error.network) }))
  .finally(() => {
    document.body.dataset.ready = "true";
  });
