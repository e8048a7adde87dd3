// Projects: working in the task list: inline title editing, the keyboard cursor and shortcuts, and the list's events.
import { $ } from "../lib/dom.js";
import { preference } from "../motion.js";
import { deleteTask, moveProjectBy, moveTaskBy, patchTask, toggleTask, undoLast } from "./changes.js";
import { dismissCelebration, openSelector, openShortcuts } from "./dialogs.js";
import { fitTextarea, renderRow, renderTasks, revealRow, rowFor, taskDetails } from "./render.js";
import { focusAgendaAdd } from "./agenda.js";
import { selectList, setHideCompleted } from "./lists.js";
import { clearPicks, pickByTouch, togglePick } from "./selection.js";
import { INBOX, isEditingInList, isTyping, showError, shownTasks, state, taskById } from "./state.js";
import { addHeading } from "./headings.js";

// MARK: Inline title editing

function startEditing(taskId) {
  if (!taskById(taskId)) return;
  if (state.editing && state.editing !== taskId) {
    const open = $("#task-list .pj-title-input");
    if (open) finishEditing(open, true, { refocus: false });
  }
  state.editing = taskId;
  state.cursor = taskId;
  // The revision this edit is made on: a save finds out whether the task changed elsewhere meanwhile.
  state.editingRevision = taskById(taskId).revision;
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
    patchTask(taskId, { title, baseRevision: state.editingRevision ?? task.revision }).then((response) => {
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
  for (const row of $("#task-list").children) if (row.dataset.taskId) row.tabIndex = row.dataset.taskId === taskId ? 0 : -1;
  // In a long list the row may not be drawn yet: it is scrolled into the document first.
  const row = focus ? revealRow(taskId) : rowFor(taskId);
  if (row && focus) {
    row.focus({ preventScroll: true });
    row.scrollIntoView({ block: "nearest", behavior: preference() === "full" ? "smooth" : "auto" });
  }
}

function moveCursor(step) {
  const tasks = shownTasks();
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

export function onKeyDown(event) {
  if (event.key === "Escape" && !$("#celebration").hidden) {
    dismissCelebration();
    return;
  }
  if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
  const target = event.target;
  if (event.key === "Escape" && !isTyping(target) && state.picked.size) {
    clearPicks();
    event.preventDefault();
    return;
  }
  // Undo: z, or Ctrl/Cmd+Z, anywhere on the page but in a text field (there the field's own undo works).
  if ((event.key || "").toLowerCase() === "z" && !event.altKey && !event.shiftKey && !isTyping(target)) {
    event.preventDefault();
    undoLast();
    return;
  }
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

  // A view (Today, Upcoming, Search) is shown: the list's keys would act on a list that is not on screen.
  // `n` adds there too (the view's own field), and `?` lists the keys.
  if (state.agenda && !navItem && key !== "?" && key !== "n" && key !== "N") return;
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
    case "s":
    case "S": {
      // Selects the task for a batch change; Shift extends the selection from the last one picked.
      const taskId = keyTask(target);
      if (!taskId) return;
      togglePick(taskId, { range: event.shiftKey });
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
      if (state.agenda) {
        // Today and Upcoming have their own field; Search has none, so n opens the Inbox's.
        if (!focusAgendaAdd()) {
          selectList(INBOX, { push: true });
          $("#add-task").focus();
        }
        break;
      }
      $("#add-task").focus();
      break;
    case "h":
    case "H":
      if (state.agenda) return; // the views show no completed list to hide
      setHideCompleted(!state.hideCompleted);
      break;
    case "g":
    case "G":
      // A heading in the open project (not in the Inbox or a view).
      if (event.shiftKey || state.selected === INBOX || state.agenda) return;
      addHeading();
      break;
    case "?":
      openShortcuts();
      break;
    default:
      return;
  }
  event.preventDefault();
}

// MARK: Selecting by touch

/** How long a finger rests on a task before it is selected: the platforms' own long-press time. */
const LONG_PRESS_MS = 500;
/** How far a finger may drift (px) and still be pressing, not scrolling. */
const LONG_PRESS_SLOP = 10;

/**
 * A long press with a finger selects the task under it and starts selecting by taps. The page times the press
 * itself (pointer events) as well as taking the platform's context-menu gesture, which not every browser sends
 * for a touch; the click that ends the press is not a tap on the task. A mouse's right click keeps its menu.
 */
function wireLongPress(list) {
  let press = null;
  const cancel = () => {
    if (press) clearTimeout(press.timer);
    press = null;
  };
  const pressed = (row) => {
    state.swallowClick = true;
    setCursor(row.dataset.taskId, { focus: false });
    pickByTouch(row.dataset.taskId);
    if (navigator.vibrate) navigator.vibrate(10);
  };
  const pressable = (event) => {
    const row = event.target.closest("[data-task-id]");
    return row && !event.target.closest("input, textarea, select, .pj-handle") ? row : null;
  };
  list.addEventListener("pointerdown", (event) => {
    state.swallowClick = false;
    cancel();
    const row = event.pointerType === "touch" && pressable(event);
    if (!row) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, timer: setTimeout(() => { press = null; pressed(row); }, LONG_PRESS_MS) };
  });
  list.addEventListener("pointermove", (event) => {
    if (press && event.pointerId === press.id && Math.hypot(event.clientX - press.x, event.clientY - press.y) > LONG_PRESS_SLOP) cancel();
  });
  list.addEventListener("pointerup", cancel);
  list.addEventListener("pointercancel", cancel);
  list.addEventListener("contextmenu", (event) => {
    const row = pressable(event);
    if (!row || state.lastPointer !== "touch") return;
    event.preventDefault();
    cancel();
    if (!state.picked.has(row.dataset.taskId)) pressed(row);
  });
}

/** The task list, by delegation: buttons, fields, inline titles, and renders that wait for a press or typing. */
export function wireTaskList() {
  // The task list, by delegation.
  const list = $("#task-list");
  list.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action]");
    const row = event.target.closest("[data-task-id]");
    if (state.swallowClick) {
      // The end of a long press, which selected the task already.
      state.swallowClick = false;
      event.preventDefault();
      return;
    }
    if (row && state.touchPicking && state.picked.size && !event.target.closest("input, textarea, select, .pj-details, .pj-handle")) {
      // Selecting by touch: a tap on a task (its check and buttons too) selects or unselects it, as in Mail.
      event.preventDefault();
      togglePick(row.dataset.taskId);
      return;
    }
    if (row && (event.shiftKey || event.ctrlKey || event.metaKey) && !event.target.closest("input, textarea, select, .pj-details")) {
      // A click with Shift (a range), Ctrl or Cmd selects instead of acting.
      event.preventDefault();
      setCursor(row.dataset.taskId, { focus: false });
      togglePick(row.dataset.taskId, { range: event.shiftKey });
      return;
    }
    if (!button || !row) return;
    const taskId = row.dataset.taskId;
    setCursor(taskId, { focus: false });
    switch (button.dataset.action) {
      case "toggle": toggleTask(taskId); break;
      case "edit": startEditing(taskId); break;
      case "move": openSelector(taskId); break;
      case "delete": deleteTask(taskId); break;
      case "clear-due": patchTask(taskId, { dueDate: null, baseRevision: taskById(taskId)?.revision }); break;
      case "expand": {
        const open = !state.expanded.has(taskId);
        if (open) state.expanded.add(taskId);
        else state.expanded.delete(taskId);
        row.classList.toggle("is-open", open);
        button.setAttribute("aria-expanded", String(open));
        let details = row.querySelector(".pj-details");
        if (open && details.dataset.empty) {
          const fresh = taskDetails(taskById(taskId), details.id, true);
          details.replaceWith(fresh);
          details = fresh;
        }
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
    if (field === "notes" && value !== task.notes) {
      const base = Number(event.target.dataset.baseRevision);
      patchTask(task.id, { notes: value, baseRevision: Number.isFinite(base) && event.target.dataset.baseRevision ? base : task.revision });
      event.target.dataset.baseRevision = "";
    }
    // Every edit names the revision it was made on, so a change saved elsewhere meanwhile is a choice, not lost.
    else if (field === "priority" && value !== task.priority) patchTask(task.id, { priority: value, baseRevision: task.revision });
    else if (field === "dueDate" && !value && task.dueDate) patchTask(task.id, { dueDate: null, baseRevision: task.revision });
  });
  // Typing a date fires "change" at every complete-looking value (0002-07-04, 0020-07-04, …): save a date
  // once focus leaves the field (or Enter is pressed in it).
  const saveDate = (input) => {
    const row = input.closest("[data-task-id]");
    const task = row && taskById(row.dataset.taskId);
    if (task && input.value && input.value !== (task.dueDate || "")) patchTask(task.id, { dueDate: input.value, baseRevision: task.revision });
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
  list.addEventListener("pointerdown", (event) => {
    state.pressing = true;
    state.lastPointer = event.pointerType || "mouse";
  }, true);
  wireLongPress(list);
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
    // Notes remember the revision their editing began on (see patchTask's conflict).
    if (row && event.target.dataset.field === "notes" && !event.target.dataset.baseRevision) {
      event.target.dataset.baseRevision = String(taskById(row.dataset.taskId)?.revision ?? "");
    }
    if (row && row.dataset.taskId !== state.cursor) setCursor(row.dataset.taskId, { focus: false });
  });
}
