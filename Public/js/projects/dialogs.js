// Projects: the confirm, shortcuts and project-selector dialogs, and the completion celebration.
import { announce } from "../lib/announce.js";
import { $, closeOnBackdrop, h } from "../lib/dom.js";
import { playChoreography } from "../motion.js";
import { ringElement } from "../progress-ring.js";
import { moveTaskTo, setTaskHeading } from "./changes.js";
import { ICONS, svgIcon } from "./render.js";
import { INBOX, listHeadings, state, taskById } from "./state.js";

// MARK: Dialogs

export function confirmDialog({ title, text, confirm = "Delete" }) {
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

/**
 * Two versions of a task's `field` (its title or notes): the person's and the one saved elsewhere meanwhile.
 * Resolves to "mine" or "theirs" (Escape keeps what was saved: nothing is overwritten without a choice).
 */
export function chooseVersion({ field, title, mine, theirs }) {
  const dialog = $("#conflict");
  const was = field === "notes" ? "were" : "was";
  $("#conflict-text").textContent = `The ${field} of “${title}” ${was} changed in another window while you were editing it. Which do you want to keep?`;
  $("#conflict-mine").textContent = mine;
  $("#conflict-theirs").textContent = theirs;
  dialog.returnValue = "";
  dialog.showModal();
  $("#conflict-keep-mine").focus();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "mine" ? "mine" : "theirs"), { once: true });
  });
}

export function openShortcuts() {
  $("#shortcuts").showModal();
}

/**
 * The project selector: "Inbox (No Project)" first, then every project with its ring. For several tasks
 * (`many.tasks`), the choice goes to `many.onPick`.
 */
export function openSelector(taskId, many = null) {
  const task = many ? many.tasks[0] : taskById(taskId);
  if (!task) return;
  const dialog = $("#selector");
  // One task of the open project may also go under one of its headings (listed after the project); several
  // tasks under a heading of any project (`many.headings`, every project's, as the server listed them).
  const headings = many ? many.headings || [] : task.projectId && task.projectId === state.selected ? listHeadings() : [];
  const headingsOf = (project) => (many || project.id === task.projectId ? headings.filter((heading) => heading.projectId === project.id) : []);
  const currentKey = many && many.tasks.some((other) => (other.projectId ?? INBOX) !== (task.projectId ?? INBOX)) ? null
    : task.headingId && headings.length ? `heading:${task.headingId}` : task.projectId ?? INBOX;
  $("#selector-task").textContent = many ? `${many.tasks.length} selected tasks` : `“${task.title}”`;
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
    // Archived projects take no tasks.
    ...state.projects.filter((project) => !project.archived || project.id === currentKey || (!many && project.id === task.projectId))
      .flatMap((project) => [
        option(project.id, !many && headings.length && project.id === task.projectId ? `${project.name} (no heading)` : project.name, ringElement(project.id, 12)),
        ...headingsOf(project).map((heading) => option(`heading:${heading.id}`, `${project.name} › ${heading.name}`, "")),
      ]),
  ];
  const list = $("#selector-options");
  list.replaceChildren(...options);
  list.onclick = (event) => {
    const button = event.target.closest("[data-key]");
    if (!button) return;
    dialog.close();
    const key = button.dataset.key;
    if (many) many.onPick(key);
    else if (key.startsWith("heading:")) setTaskHeading(taskId, key.slice(8));
    else if (key === task.projectId && task.headingId) setTaskHeading(taskId, null);
    else moveTaskTo(taskId, key);
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
export function completed(response) {
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

export function dismissCelebration() {
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

/** The project selector's arrow keys, every dialog's backdrop, and the celebration's dismissal. */
export function wireDialogs() {
  $("#selector").addEventListener("keydown", selectorKeys);
  // A click on the backdrop (outside the dialog's box) closes it, as Escape does.
  for (const dialog of document.querySelectorAll("dialog")) closeOnBackdrop(dialog);

  // The celebration dismisses itself; a click or Escape sends it away sooner.
  $("#celebration").addEventListener("click", dismissCelebration);
}
