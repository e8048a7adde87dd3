// Projects: import (a JSON export or a plain list the server reads) and export.
import { api } from "../lib/api.js";
import { $, h } from "../lib/dom.js";
import { plural } from "../lib/format.js";
import { reloadEverything } from "./lists.js";
import { enqueue } from "./state.js";

// MARK: Import and export

async function downloadExport() {
  const error = $("#export-error");
  error.textContent = "";
  try {
    const data = await api("/api/projects/export");
    const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "projects.json", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (failure) {
    error.textContent = failure.message;
  }
}

/** What the text in the field is: a JSON export (an object) or a plain list for the server to read. */
function importBody(text) {
  if (!text.trimStart().startsWith("{")) return { body: text, contentType: "text/plain; charset=utf-8" };
  try {
    return { body: JSON.parse(text) };
  } catch {
    throw new Error("This looks like JSON but it could not be read. Check that the whole export was pasted.");
  }
}

/** Tasks shown per list in the preview (the counts say how many there are in all). */
const PREVIEW_TASKS = 20;

/** The text the preview on screen was made from (an import sends exactly that). */
let previewed = null;

/** First step: the server reads the list and says what it would add and which lines it changes; nothing is written. */
async function runPreview() {
  const text = $("#import-text").value;
  const error = $("#import-error");
  $("#import-result").textContent = "";
  error.textContent = "";
  hidePreview();
  if (!text.trim()) {
    error.textContent = "Paste a list or choose a file first.";
    $("#import-text").focus();
    return;
  }
  const button = $("#import-submit");
  button.disabled = true;
  try {
    const answer = await api("/api/projects/import/preview", { method: "POST", ...importBody(text) });
    showPreview(answer);
    previewed = text;
    $("#preview-title").focus();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

function taskItem(task) {
  return h("li", {}, task.title, task.completed ? h("span", { class: "muted", text: " (done)" }) : null);
}

function listItem(name, tasks) {
  const shown = tasks.slice(0, PREVIEW_TASKS);
  const more = tasks.length - shown.length;
  return h("li", {},
    h("strong", { text: name }), ` · ${plural(tasks.length, "task")}`,
    tasks.length ? h("ul", {}, shown.map(taskItem), more > 0 ? h("li", { class: "muted", text: `and ${plural(more, "more task")}` }) : null) : null);
}

function showPreview(answer) {
  const refused = Boolean(answer.refusal);
  const summary = $("#preview-summary");
  summary.className = refused ? "message error" : "";
  summary.textContent = refused
    ? answer.refusal
    : `This adds ${plural(answer.projectsAdded, "project")} and ${plural(answer.tasksAdded, "task")}. Nothing is imported until you choose Import.`;
  const items = [];
  if (answer.inbox.length) items.push(listItem("Inbox", answer.inbox));
  for (const project of answer.projects) items.push(listItem(project.name, project.tasks));
  $("#preview-items").replaceChildren(...items);
  $("#preview-items").hidden = !items.length;
  const lines = answer.lines.map((line) => h("li", { class: line.refuses ? "is-refused" : "", "data-kind": line.kind },
    `Line ${line.line}${line.refuses ? " (to fix)" : ""}: ${line.message}`));
  $("#preview-lines").replaceChildren(...lines);
  $("#preview-lines").hidden = !lines.length;
  $("#preview-lines-title").hidden = !lines.length;
  $("#preview-lines-title").textContent = answer.lines.some((line) => line.refuses) ? "Lines to look at" : "Lines the import changes";
  $("#import-confirm").hidden = refused;
  $("#import-preview").hidden = false;
}

function hidePreview() {
  previewed = null;
  $("#import-preview").hidden = true;
}

/** Second step: the list previewed is imported. */
async function runImport() {
  const text = previewed;
  if (text == null) return;
  const result = $("#import-result");
  const error = $("#import-error");
  result.textContent = "";
  error.textContent = "";
  const button = $("#import-confirm");
  button.disabled = true;
  try {
    const body = importBody(text);
    const answer = await enqueue(() => api("/api/projects/import", { method: "POST", ...body }));
    result.textContent = `Added ${plural(answer.projectsAdded, "project")} and ${plural(answer.tasksAdded, "task")}.`;
    hidePreview();
    $("#import-text").value = "";
    $("#import-file").value = "";
    $("#import-text").focus();
    await reloadEverything();
  } catch (failure) {
    error.textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

async function readImportFile() {
  const file = $("#import-file").files[0];
  if (!file) return;
  $("#import-error").textContent = "";
  try {
    $("#import-text").value = await file.text();
    hidePreview();
    $("#import-result").textContent = `Read ${file.name}. Check it, then choose Preview import.`;
  } catch {
    $("#import-error").textContent = "That file could not be read.";
  }
}

export function openTransfer({ example = false } = {}) {
  $("#import-result").textContent = "";
  $("#import-error").textContent = "";
  $("#export-error").textContent = "";
  hidePreview();
  if (example && !$("#import-text").value) $("#import-text").value = $("#example-list").textContent;
  $("#transfer").showModal();
}

/** The import and export dialog. */
export function wireTransfer() {
  $("#export").addEventListener("click", downloadExport);
  $("#import-submit").addEventListener("click", runPreview);
  $("#import-confirm").addEventListener("click", runImport);
  $("#import-back").addEventListener("click", () => {
    hidePreview();
    $("#import-text").focus();
  });
  // A preview stands for the text it was made from: editing the text takes it away.
  $("#import-text").addEventListener("input", hidePreview);
  $("#import-file").addEventListener("change", readImportFile);
  $("#use-example").addEventListener("click", () => {
    $("#import-text").value = $("#example-list").textContent;
    hidePreview();
    $("#import-text").focus();
  });
}
