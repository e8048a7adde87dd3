// Projects: the undo toast. The server keeps each person's last task and heading changes and takes them back (every window
// follows through the live stream); this toast says what the last change did — in the server's words — with an
// Undo button that takes back that change and no other (its step goes with the request). The undo itself is
// sent by changes.js (button, z, Ctrl/Cmd+Z).
import { announce } from "../lib/announce.js";
import { $ } from "../lib/dom.js";

/** How long the toast stays when nobody is in it (the keys keep working after it goes). */
const SHOWN_MS = 8000;
let timer = 0;
/** The step (an UndoStepView) the toast offers to take back; null while it shows a note or nothing. */
let offered = null;

/** Takes the toast away (a batch change, which undo does not take back, makes its offer out of date). */
export function hideUndo() {
  if (!$("#undo-toast").hidden) hide();
}

function hide() {
  clearTimeout(timer);
  const toast = $("#undo-toast");
  // Focus in the toast goes back to the list rather than to the page's top.
  if (toast.contains(document.activeElement)) $("#task-list [data-task-id][tabindex='0']")?.focus({ preventScroll: true });
  toast.hidden = true;
  offered = null;
}

function show(text, { note }) {
  const toast = $("#undo-toast");
  toast.classList.toggle("is-note", note);
  $("#undo-text").textContent = text;
  toast.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (toast.contains(document.activeElement) || toast.matches(":hover")) return; // never away from under the person
    hide();
  }, SHOWN_MS);
}

/** A change the person can take back (an UndoStepView): its label and Undo, in place of whatever it showed. */
export function showUndo(step) {
  show(step.label, { note: false });
  offered = step;
}

/** What an undo did, or why it could not (no button). */
export function showUndoNote(text) {
  show(text, { note: true });
  offered = null;
  announce(text);
}

/**
 * A live update (a ProjectsLiveUpdate): when the server's last step, as of a revision that has seen the offered
 * one, is another (a later change or an undo, here or in another window), Undo would not take back what the toast
 * names, so the toast goes.
 */
export function followUndo(update) {
  if (offered && offered.seq != null && update.revision >= offered.seq && update.undoSeq !== offered.seq) hide();
}

/** The toast's buttons: Undo runs `undo` with the step shown (as it is at the click); the cross dismisses. */
export function wireUndoToast(undo) {
  $("#undo-button").addEventListener("click", () => undo(offered && offered.seq != null ? offered.seq : null));
  $("#undo-dismiss").addEventListener("click", hide);
  $("#undo-toast").addEventListener("mouseleave", () => {
    clearTimeout(timer);
    timer = setTimeout(hide, SHOWN_MS / 2);
  });
}
