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

function postPlainList(text) {
  return api("/api/projects/import", { method: "POST", body: text, contentType: "text/plain; charset=utf-8" });
}

async function runImport() {
  const text = $("#import-text").value;
  const result = $("#import-result");
  const error = $("#import-error");
  result.textContent = "";
  error.textContent = "";
  if (!text.trim()) {
    error.textContent = "Paste a list or choose a file first.";
    $("#import-text").focus();
    return;
  }
  const button = $("#import-submit");
  button.disabled = true;
  try {
    let answer;
    // An export is a JSON object; anything else is sent as a plain list for the server to read.
    if (text.trimStart().startsWith("{")) {
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error("This looks like JSON but it could not be read. Check that the whole export was pasted.");
      }
      answer = await enqueue(() => api("/api/projects/import", { method: "POST", body: parsed }));
    } else {
      answer = await enqueue(() => postPlainList(text));
    }
    result.textContent = `Added ${plural(answer.projectsAdded, "project")} and ${plural(answer.tasksAdded, "task")}.`;
    $("#import-text").value = "";
    $("#import-file").value = "";
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
    $("#import-result").textContent = `Read ${file.name}. Check it, then choose Import.`;
  } catch {
    $("#import-error").textContent = "That file could not be read.";
  }
}

export function openTransfer({ example = false } = {}) {
  $("#import-result").textContent = "";
  $("#import-error").textContent = "";
  $("#export-error").textContent = "";
  if (example && !$("#import-text").value) $("#import-text").value = $("#example-list").textContent;
  $("#transfer").showModal();
}

/** The import and export dialog. */
export function wireTransfer() {
  $("#export").addEventListener("click", downloadExport);
  $("#import-submit").addEventListener("click", runImport);
  $("#import-file").addEventListener("change", readImportFile);
  $("#use-example").addEventListener("click", () => {
    $("#import-text").value = $("#example-list").textContent;
    $("#import-text").focus();
  });
}
