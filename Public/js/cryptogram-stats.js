// The cryptogram stats page: totals, a bar chart of solve times and the five-week streak calendar,
// all drawn from GET /api/cryptogram/stats (the server counts; this page only draws).
import { boot } from "./app.js";
import { api } from "./lib/api.js";
import { $ } from "./lib/dom.js";
import { formatClock, parseDay } from "./lib/format.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attributes = {}, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text != null) element.textContent = text;
  return element;
}

function dayLabel(date, options = { day: "numeric", month: "short" }) {
  return date.toLocaleDateString(undefined, options);
}

function tile(label, value, { note = "", kind = "" } = {}) {
  const wrap = document.createElement("div");
  wrap.className = `cgs-tile ${kind}`;
  const dt = document.createElement("dt");
  dt.textContent = label;
  const dd = document.createElement("dd");
  dd.textContent = value;
  if (note) {
    const small = document.createElement("small");
    small.textContent = ` ${note}`;
    dd.append(small);
  }
  wrap.append(dt, dd);
  return wrap;
}

function renderTiles(stats) {
  const tiles = $("#tiles");
  tiles.textContent = "";
  const time = (seconds) => (seconds == null ? "—" : formatClock(seconds));
  const days = (n) => (n === 1 ? "day" : "days");
  const items = [
    tile("Played", String(stats.played)),
    tile("Solved", String(stats.solved), { kind: "is-accent" }),
    tile("Finished", String(stats.finished || 0), { note: "after Continue" }),
    tile("Win rate", `${Math.round(stats.winRate * 100)} %`),
    tile("Average time", time(stats.averageSeconds)),
    tile("Best time", time(stats.bestSeconds), { kind: "is-accent" }),
    tile("Current streak", String(stats.currentStreak), { note: days(stats.currentStreak), kind: "is-gold" }),
    tile("Best streak", String(stats.bestStreak), { note: days(stats.bestStreak) }),
    tile("Points", String(stats.points), { kind: "is-gold" }),
  ];
  items[0].dataset.stat = "played";
  items[1].dataset.stat = "solved";
  items[2].dataset.stat = "finished";
  items[3].dataset.stat = "win-rate";
  items[8].dataset.stat = "points";
  tiles.append(...items);
}

/** A round top for the time axis and the step between its labels, so every label is a round time. */
function timeAxis(seconds) {
  const scales = [[30, 10], [60, 15], [120, 30], [180, 60], [300, 60], [600, 120], [900, 180], [1200, 300],
    [1800, 600], [2700, 900], [3600, 900], [5400, 1800], [7200, 1800]];
  for (const [top, step] of scales) if (seconds <= top) return { top, step };
  const top = Math.ceil(seconds / 3600) * 3600;
  return { top, step: top / 4 };
}

function renderChart(stats) {
  const container = $("#chart");
  container.textContent = "";
  const history = stats.history || [];
  if (!history.length) {
    const empty = document.createElement("div");
    empty.className = "cgs-empty";
    empty.innerHTML = `
      <svg aria-hidden="true" viewBox="0 0 64 64" width="64" height="64" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" style="color: var(--accent)"><path d="M10 54h44"/><path d="M18 46V34M30 46V24M42 46V30" opacity=".35"/><circle cx="46" cy="16" r="7"/></svg>
      <p><strong>Nothing solved yet.</strong></p>
      <p class="muted">Your solve times will line up here, one bar per quote. Today's puzzle is a good place to start.</p>
      <a class="button primary" href="/cryptogram">Play a puzzle</a>`;
    container.append(empty);
    $("#chart-note").textContent = "One bar for every quote you solve.";
    return;
  }
  // Drawn at the size it is shown, so labels stay readable on a phone and on a wide screen.
  const width = Math.max(280, Math.round(container.clientWidth || 560));
  const height = Math.round(Math.min(280, Math.max(200, width * 0.5)));
  const margin = { top: 16, right: 10, bottom: 46, left: 52 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const { top, step } = timeAxis(Math.max(...history.map((s) => s.seconds), 1));
  const y = (seconds) => margin.top + plotH - (Math.min(seconds, top) / top) * plotH;
  const slot = plotW / history.length;
  const barWidth = Math.max(3, Math.min(38, slot * 0.68));

  const chart = svg("svg", {
    class: "cgs-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": "chart-svg-title chart-svg-desc", preserveAspectRatio: "xMidYMid meet",
  });
  const best = Math.min(...history.map((s) => s.seconds));
  chart.append(
    svg("title", { id: "chart-svg-title" }, `Solve times of your last ${history.length} ${history.length === 1 ? "puzzle" : "puzzles"}`),
    svg("desc", { id: "chart-svg-desc" },
      `One bar per solved puzzle, oldest first. Fastest ${formatClock(best)}` +
      (stats.averageSeconds != null ? `, average ${formatClock(stats.averageSeconds)}.` : ".")),
  );

  // The time axis: four steps from 0 to the top, labelled m:ss, with light grid lines.
  for (let seconds = 0; seconds <= top; seconds += step) {
    const lineY = y(seconds);
    if (seconds > 0) chart.append(svg("line", { class: "grid-line", x1: margin.left, x2: width - margin.right, y1: lineY, y2: lineY }));
    chart.append(svg("text", { class: "label", x: margin.left - 8, y: lineY + 4, "text-anchor": "end" }, formatClock(seconds)));
  }
  chart.append(svg("line", { class: "axis", x1: margin.left, x2: width - margin.right, y1: y(0), y2: y(0) }));
  chart.append(svg("line", { class: "axis", x1: margin.left, x2: margin.left, y1: margin.top, y2: y(0) }));
  chart.append(svg("text", { class: "axis-title", x: 12, y: margin.top + plotH / 2, transform: `rotate(-90 12 ${margin.top + plotH / 2})`, "text-anchor": "middle" }, "Time (m:ss)"));

  const labelEvery = Math.max(1, Math.ceil(history.length / Math.max(2, Math.floor(plotW / 64))));
  const bars = svg("g", { class: "bars" });
  // Labelled by day, one kind of label on the axis: a day's first bar carries its date, further solves that day
  // none (a row of identical dates says nothing; a time of day beside dates read as another scale).
  let labelledDay = null;
  let lastLabel = -Infinity;
  history.forEach((solve, index) => {
    const x = margin.left + slot * index + (slot - barWidth) / 2;
    const barTop = y(solve.seconds);
    const h = Math.max(2, y(0) - barTop);
    const date = new Date(solve.solvedAt * 1000);
    const bar = svg("rect", {
      class: `bar ${solve.mode === "daily" ? "daily" : "random"}${solve.outcome === "finished" ? " finished" : ""}`, x, y: y(0) - h, width: barWidth, height: h, rx: Math.min(5, barWidth / 3),
      "data-seconds": solve.seconds, "data-game": solve.gameID,
    });
    const extras = [solve.mode === "daily" ? "daily" : "random"];
    if (solve.outcome === "finished") extras.push("finished after Continue");
    if (solve.mistakes) extras.push(`${solve.mistakes} ${solve.mistakes === 1 ? "mistake" : "mistakes"}`);
    if (solve.hints) extras.push(`${solve.hints} ${solve.hints === 1 ? "hint" : "hints"}`);
    bar.append(svg("title", {}, `${dayLabel(date)}: ${formatClock(solve.seconds)} (${extras.join(", ")})`));
    bars.append(bar);
    const day = date.toDateString();
    if (day !== labelledDay && index - lastLabel >= labelEvery) {
      labelledDay = day;
      lastLabel = index;
      bars.append(svg("text", { class: "label", x: x + barWidth / 2, y: y(0) + 16, "text-anchor": "middle", "data-day": solve.solvedAt }, dayLabel(date)));
    }
  });
  chart.append(bars);
  chart.append(svg("text", { class: "axis-title", x: margin.left + plotW / 2, y: height - 6, "text-anchor": "middle" }, "Solved on"));

  if (stats.averageSeconds != null && stats.averageSeconds <= top) {
    const avgY = y(stats.averageSeconds);
    chart.append(svg("line", { class: "axis", x1: margin.left, x2: width - margin.right, y1: avgY, y2: avgY, "stroke-dasharray": "6 4", style: "stroke: var(--ink-soft)" }));
    chart.append(svg("text", { class: "label", x: width - margin.right, y: avgY - 5, "text-anchor": "end" }, `average ${formatClock(stats.averageSeconds)}`));
  }
  container.append(chart);

  const legend = document.createElement("ul");
  legend.className = "cgs-legend";
  legend.innerHTML = '<li><i class="daily"></i>Daily puzzle</li><li><i></i>Just play</li>'
    + (history.some((solve) => solve.outcome === "finished") ? '<li><i class="finished"></i>Finished after Continue</li>' : "");
  container.append(legend);
  $("#chart-note").textContent = history.length === 1
    ? "Your first solve. Every new one adds a bar."
    : `Your last ${history.length} solves, oldest first.`;
}

function renderCalendar(stats) {
  const container = $("#calendar");
  container.textContent = "";
  const days = stats.calendar || [];
  const grid = document.createElement("div");
  grid.className = "cgs-calendar";
  grid.setAttribute("role", "list");
  grid.setAttribute("aria-label", "Daily puzzles of the last five weeks");
  // Weeks start on Monday: the headings are Monday to Sunday, and the first day sits in its own column.
  for (let offset = 0; offset < 7; offset += 1) {
    const head = document.createElement("span");
    head.className = "dow";
    head.setAttribute("aria-hidden", "true");
    head.textContent = new Date(2024, 0, 1 + offset).toLocaleDateString(undefined, { weekday: "short" });  // 1 Jan 2024 was a Monday
    grid.append(head);
  }
  const lead = days.length ? (parseDay(days[0].date).getDay() + 6) % 7 : 0;
  for (let pad = 0; pad < lead; pad += 1) {
    const blank = document.createElement("span");
    blank.className = "cgs-pad";
    blank.setAttribute("aria-hidden", "true");
    grid.append(blank);
  }
  const today = days.length ? days[days.length - 1].date : null;
  for (const day of days) {
    const date = parseDay(day.date);
    const cell = document.createElement("span");
    cell.className = `cgs-day${day.solved ? " solved" : ""}${day.date === today ? " today" : ""}`;
    cell.setAttribute("role", "listitem");
    cell.dataset.date = day.date;
    cell.textContent = String(date.getDate());
    const long = dayLabel(date, { weekday: "long", day: "numeric", month: "long" });
    const label = `${long}${day.date === today ? " (today)" : ""}: ${day.solved ? "solved" : "not solved"}`;
    cell.setAttribute("aria-label", label);
    cell.title = label;
    grid.append(cell);
  }
  container.append(grid);
  const streak = $("#streak-line");
  streak.innerHTML = "";
  const strong = document.createElement("strong");
  strong.textContent = String(stats.currentStreak);
  const rest = document.createElement("span");
  rest.className = "muted";
  rest.textContent = stats.currentStreak === 1 ? "day in a row" : "days in a row";
  if (stats.bestStreak > 0) rest.textContent += ` · best ${stats.bestStreak}`;
  streak.append(strong, rest);
}

async function load() {
  try {
    const stats = await api("/api/cryptogram/stats");
    renderTiles(stats);
    renderChart(stats);
    renderCalendar(stats);
    $("#stats-lede").textContent = stats.solved > 0
      ? `${stats.solved} ${stats.solved === 1 ? "quote" : "quotes"} decoded so far. Nicely done.`
      : "Nothing solved yet — your first quote is waiting.";
  } catch (error) {
    $("#stats-error").textContent = error.message;
  } finally {
    document.body.dataset.ready = "true";
  }
}

boot();
load();
