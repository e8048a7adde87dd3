// The public page of a shared completion (/s/{id}): the page itself is the server's HTML; this only offers
// "Report this post" to whoever is signed in and is not its author (the server decides what a report does).
import { api } from "./lib/api.js";
import { $ } from "./lib/dom.js";

async function start() {
  const section = $("#share-report");
  if (!section) return;
  let me;
  try {
    me = await api("/api/me");
  } catch {
    return;
  }
  if (!me.id) {
    $("#report-signin").hidden = false;
    return;
  }
  if (me.id === section.dataset.author) return;
  section.hidden = false;
  $("#report-form").addEventListener("submit", send);
}

async function send(event) {
  event.preventDefault();
  const section = $("#share-report");
  const button = $("#report-send");
  const status = $("#report-status");
  if (button.disabled) return;
  button.disabled = true;
  status.textContent = "";
  status.classList.remove("error");
  try {
    const reason = $("#report-reason").value.trim();
    await api(`/api/activities/${encodeURIComponent(section.dataset.post)}/report`, { method: "POST", body: reason ? { reason } : {} });
    section.querySelector("details").remove();
    status.textContent = "Thank you — we’ll take a look.";
  } catch (failure) {
    status.textContent = failure.message;
    status.classList.add("error");
    button.disabled = false;
  }
}

start();
