// The start screen's daily: whether today's is solved (tick, streak, time to the next one) and the archive of
// past dailies by month, each day a link to its puzzle (`/cryptogram?daily=…`). The server says which days
// exist, how each went, the streak and when the next daily comes; this file only draws it.
import { api } from "../app.js";

const $ = (selector) => document.querySelector(selector);

const archive = {
  /** The month shown ("2026-11"), or null for the current one. */
  month: null,
  /** The last answer, and when it came (performance.now()), for the countdown. */
  view: null,
  at: 0,
  timer: null,
};

function parseDay(isoDate) {
  const [year, month, day] = isoDate.split("-").map(Number);
  return new Date(year, month - 1, day);
}

/** "3 h 12 min", "12 min", "under a minute". */
function waitText(seconds) {
  const minutes = Math.ceil(Math.max(0, seconds) / 60);
  if (minutes <= 1) return "under a minute";
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return hours ? `${hours} h${rest ? ` ${rest} min` : ""}` : `${rest} min`;
}

const STATUS_WORDS = {
  solved: "solved",
  finished: "finished after Continue",
  playing: "started",
  failed: "out of mistakes",
  unplayed: "not played",
};

/** Today's daily on its card: a tick and the streak once solved, and when the next one comes. */
function renderToday(view) {
  const status = $("#daily-status");
  const today = view.today;
  const button = $("#play-daily");
  status.replaceChildren();
  if (today.status === "solved" || today.status === "finished") {
    const tick = document.createElement("span");
    tick.className = "cg-tick";
    tick.setAttribute("aria-hidden", "true");
    tick.textContent = "✓";
    const words = document.createElement("strong");
    words.textContent = today.status === "solved" ? "Solved today" : "Finished today (after Continue)";
    status.append(tick, words);
    const streak = document.createElement("span");
    streak.className = "cg-streak";
    streak.dataset.streak = String(view.currentStreak);
    streak.textContent = view.currentStreak > 0 ? ` · ${view.currentStreak}-day streak` : "";
    status.append(streak);
    button.textContent = "See today's puzzle";
  } else {
    const words = document.createElement("span");
    words.textContent = today.status === "playing" ? "Started — pick up where you left off." : today.status === "failed"
      ? "Out of mistakes — Continue, Try again or a new puzzle." : "Not played yet — today's quote is waiting for you.";
    if (view.currentStreak > 0) words.textContent += `${words.textContent ? " " : ""}Streak: ${view.currentStreak} ${view.currentStreak === 1 ? "day" : "days"}.`;
    status.append(words);
    button.textContent = today.status === "playing" || today.status === "failed" ? "Continue today's puzzle" : "Daily puzzle";
  }
  status.dataset.status = today.status;
  const done = today.status === "solved" || today.status === "finished";
  $("#daily-icon").dataset.icon = done ? "done" : "play";
  $("#daily-card").dataset.status = today.status;
  status.hidden = !status.textContent.trim();
  tickCountdown();
}

function tickCountdown() {
  const view = archive.view;
  const next = $("#daily-next");
  if (!view) return;
  const left = view.secondsToNextDaily - (performance.now() - archive.at) / 1000;
  // A new day: ask again (today's card and the archive move on).
  if (left <= 0 && !archive.refreshing) {
    archive.refreshing = true;
    showDailies(null).finally(() => { archive.refreshing = false; });
    return;
  }
  next.textContent = `Next daily in ${waitText(left)}`;
  next.hidden = false;
}

/** The month's days, Monday first, each one that has a puzzle a link to it. */
function renderMonth(view) {
  const [year, month] = view.month.split("-").map(Number);
  $("#archive-month").textContent = new Date(year, month - 1, 1).toLocaleDateString(undefined, { month: "long", year: "numeric" });
  const previous = $("#archive-prev");
  const next = $("#archive-next");
  previous.disabled = !view.previousMonth;
  next.disabled = !view.nextMonth;
  previous.dataset.month = view.previousMonth || "";
  next.dataset.month = view.nextMonth || "";
  const grid = $("#archive-days");
  grid.replaceChildren();
  for (let offset = 0; offset < 7; offset += 1) {
    const head = document.createElement("li");
    head.className = "cg-dow";
    head.setAttribute("aria-hidden", "true");
    head.textContent = new Date(2024, 0, 1 + offset).toLocaleDateString(undefined, { weekday: "narrow" }); // 1 Jan 2024: a Monday
    grid.append(head);
  }
  const lead = (new Date(year, month - 1, 1).getDay() + 6) % 7;
  for (let pad = 0; pad < lead; pad += 1) {
    const blank = document.createElement("li");
    blank.className = "cg-pad";
    blank.setAttribute("aria-hidden", "true");
    grid.append(blank);
  }
  for (const day of view.days) {
    const item = document.createElement("li");
    const date = parseDay(day.date);
    const number = String(date.getDate());
    const long = date.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" });
    if (!day.available) {
      item.className = "cg-day is-closed";
      item.textContent = number;
      item.setAttribute("aria-hidden", "true");
    } else {
      const link = document.createElement("a");
      link.href = `/cryptogram?daily=${day.date}`;
      link.className = `cg-day is-${day.status}${day.solvedOnDay ? " is-on-day" : ""}${day.date === view.today.date ? " is-today" : ""}`;
      link.dataset.date = day.date;
      link.dataset.status = day.status;
      link.textContent = number;
      const onDay = day.solvedOnDay ? ", on the day" : "";
      link.setAttribute("aria-label", `${long}${day.date === view.today.date ? " (today)" : ""}: ${STATUS_WORDS[day.status] || day.status}${onDay}`);
      if (day.date === view.today.date) link.setAttribute("aria-current", "date");
      item.append(link);
    }
    grid.append(item);
  }
}

/** Asks the server for `month`'s dailies (the current month when null) and draws the card and the archive. */
export async function showDailies(month = archive.month) {
  try {
    const view = await api(month ? `/api/cryptogram/dailies?month=${encodeURIComponent(month)}` : "/api/cryptogram/dailies");
    archive.view = view;
    archive.at = performance.now();
    archive.month = view.month;
    renderToday(view);
    renderMonth(view);
    $("#archive").hidden = false;
  } catch {
    // The start screen works without it: the daily button still opens today's puzzle.
    $("#archive").hidden = true;
  }
  if (!archive.timer) archive.timer = setInterval(() => !$("#start").hidden && tickCountdown(), 30_000);
}

export function wireDailies() {
  for (const button of [$("#archive-prev"), $("#archive-next")]) {
    button.addEventListener("click", () => {
      if (button.dataset.month) showDailies(button.dataset.month);
    });
  }
}
