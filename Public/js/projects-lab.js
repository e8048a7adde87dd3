// The completion ring's test bench (/projects/lab): the seed's test component. It fills and empties a real
// test project through the API, so every change is stored and reaches every open window live; it shows the
// ring at every size the app uses, the server's value beside the ring's, the animation as a plot over the
// server's duration, and a warning whenever the ring and the server disagree. The percentage, the
// fraction, the duration and the curve all come from the server; this page never computes them.
import { boot, currentUser } from "./app.js";
import { announce } from "./lib/announce.js";
import { api, newIdempotencyKey } from "./lib/api.js";
import { $, h } from "./lib/dom.js";
import { plural } from "./lib/format.js";
import { keepLive } from "./lib/live.js";
import { preference } from "./motion.js";
import { configureRingMotion, forgetRing, ringElement, ringIsMoving, ringTarget, ringValue, syncRing } from "./progress-ring.js";
import { draw, follow, setTiming, summary, watch } from "./projects-lab/plot.js";

/** The test project's name and how many tasks it starts with (the slider moves in steps of one task). */
const BENCH_NAME = "Ring test bench";
const BENCH_TASKS = 20;
/** The sizes the app shows rings at (group headers, selector, sidebar, header) and a large one to look closely. */
const SIZES = [[10, "10 px · group headers"], [12, "12 px · selector"], [16, "16 px · sidebar"], [20, "20 px · header"], [96, "Large"]];

const bench = {
  /** The test project's ProjectView as the server last sent it. */
  project: null,
  /** Its tasks (TaskView), from the last list the server sent and the answers since. */
  tasks: [],
  /** The server's view of the project as last read or told (what the ring must end at). */
  expected: null,
  ring: null,
  changesSent: 0,
  inFlight: 0,
  lastAnswerMs: null,
  live: "connecting",
  liveStream: null,
};

// MARK: Server answers

function showError(message) {
  $("#error").textContent = message || "";
}

/** Takes a ProjectView of the test project; an older one (a late answer after a newer) is ignored. */
function takeProject(view, { ring = true } = {}) {
  if (!view || (bench.project && view.id !== bench.project.id)) return;
  if (bench.expected && view.revision < bench.expected.revision) return;
  bench.expected = view;
  if (ring) {
    if (bench.project && view.revision < bench.project.revision) return;
    bench.project = view;
    syncRing(view);
    if (ringIsMoving(view.id)) follow(view.id, () => bench.inFlight > 0);
  }
  renderValues();
}

function takeTask(task) {
  if (!task) return;
  const index = bench.tasks.findIndex((t) => t.id === task.id);
  if (index >= 0) bench.tasks[index] = task;
  else bench.tasks.push(task);
}

async function loadTasks() {
  const list = await api(`/api/projects/${encodeURIComponent(bench.project.id)}/tasks`);
  bench.tasks = list.tasks;
  takeProject(list.project);
}

/** Reads the project from the server without touching the ring: the independent side of the comparison. */
async function checkWithServer() {
  if (!bench.project) return;
  const list = await api(`/api/projects/${encodeURIComponent(bench.project.id)}/tasks`);
  takeProject(list.project, { ring: false });
  compare({ checked: true });
}

/** Sends one change of a task and applies the answer (each with its own idempotency key). */
async function changeTask(taskId, body) {
  bench.changesSent += 1;
  bench.inFlight += 1;
  const sent = performance.now();
  try {
    const answer = await api(`/api/tasks/${encodeURIComponent(taskId)}?preference=${preference()}`, {
      method: "PATCH", body, idempotencyKey: newIdempotencyKey(),
    });
    bench.lastAnswerMs = Math.round(performance.now() - sent);
    takeTask(answer.task);
    for (const project of answer.projects) takeProject(project);
    return answer;
  } finally {
    bench.inFlight -= 1;
    renderFacts();
  }
}

// MARK: Driving

let working = false;
let queued = null;

function setBusy(text) {
  $("#lab-busy").textContent = text;
  $("#bench").setAttribute("aria-busy", text ? "true" : "false");
}

/** Runs one bench action at a time; a newer slider value replaces one still waiting. */
async function perform(label, action) {
  if (working) {
    queued = { label, action };
    return;
  }
  working = true;
  showError("");
  setBusy(`${label}…`);
  try {
    await action();
  } catch (error) {
    showError(error.message);
  } finally {
    working = false;
    setBusy("");
    const next = queued;
    queued = null;
    if (next) perform(next.label, next.action);
    else waitForRest().then(() => compare({}));
  }
}

/**
 * Completes or reopens tasks of the test project until as many are done as the slider's position (0…1 of
 * the tasks) asks for. How many tasks to tick is the bench's choice; the percentage shown is the server's.
 */
async function driveTo(position) {
  await loadTasks();
  const tasks = [...bench.tasks].sort((a, b) => a.position - b.position);
  const want = Math.round(position * tasks.length);
  const done = tasks.filter((task) => task.completed);
  const open = tasks.filter((task) => !task.completed);
  const flips = want > done.length
    ? open.slice(0, want - done.length).map((task) => [task.id, true])
    : done.slice(want).reverse().map((task) => [task.id, false]);
  // Sent together, as one jump: the answers arrive within milliseconds and the ring makes one movement
  // (an answer older than one already taken is ignored by its revision).
  await Promise.all(flips.map(([id, completed]) => changeTask(id, { completed })));
}

/** Resolves once the ring has stopped moving. */
function waitForRest() {
  return new Promise((resolve) => {
    const check = () => {
      if (!bench.project || !ringIsMoving(bench.project.id)) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
}

/** Ten changes sent at once (not one after another), as a person clicking fast or a sync would. */
async function burst() {
  await loadTasks();
  const tasks = [...bench.tasks].sort((a, b) => a.position - b.position);
  if (!tasks.length) throw new Error("The test project has no tasks. Add one first.");
  const chains = new Map();
  for (let i = 0; i < 10; i++) {
    const task = tasks[i % tasks.length];
    // Two changes of one task go one after the other, so each flips what the one before left.
    const before = chains.get(task.id) || Promise.resolve();
    chains.set(task.id, before.then(() => {
      const current = bench.tasks.find((t) => t.id === task.id);
      return changeTask(task.id, { completed: !(current && current.completed) });
    }));
  }
  await Promise.all(chains.values());
}

async function addTask() {
  const count = bench.tasks.length + 1;
  bench.inFlight += 1;
  try {
    const answer = await api("/api/tasks", { method: "POST", body: { title: `Bench task ${count}`, projectId: bench.project.id }, idempotencyKey: newIdempotencyKey() });
    bench.changesSent += 1;
    takeTask(answer.task);
    for (const project of answer.projects) takeProject(project);
  } finally {
    bench.inFlight -= 1;
  }
}

async function createBench() {
  // A second press (a double-click) waits behind the first and then finds its project made: it opens that one.
  if (bench.project) return;
  const existing = findBench((await api("/api/projects")).projects);
  if (existing) {
    await openBench(existing);
    $("#lab-slider").focus();
    return;
  }
  const lines = [`# ${BENCH_NAME}`];
  for (let i = 1; i <= BENCH_TASKS; i++) lines.push(`- Bench task ${i}`);
  await api("/api/projects/import", { method: "POST", body: `${lines.join("\n")}\n`, contentType: "text/plain; charset=utf-8" });
  const overview = await api("/api/projects");
  const made = findBench(overview.projects);
  if (!made) throw new Error("The test project could not be made. Please try again.");
  // Blue shows the rings' parts more clearly than the default gray.
  const project = await api(`/api/projects/${encodeURIComponent(made.id)}`, { method: "PATCH", body: { color: "blue" } });
  await openBench(project);
  announce(`Made ${BENCH_NAME} with ${plural(BENCH_TASKS, "task")}.`);
  $("#lab-slider").focus();
}

async function removeBench() {
  const project = bench.project;
  await api(`/api/projects/${encodeURIComponent(project.id)}`, { method: "DELETE" });
  closeBench();
  announce(`Deleted ${project.name}.`);
  $("#create-bench").focus();
}

function findBench(projects) {
  return projects.find((project) => project.name === BENCH_NAME) || null;
}

// MARK: Showing

async function openBench(project) {
  bench.project = null;
  bench.expected = null;
  takeProject(project);
  await loadTasks();
  const rings = $("#lab-rings");
  rings.replaceChildren(...SIZES.map(([size, label]) =>
    h("li", { class: "lab-ring", "data-size": String(size) },
      ringElement(project.id, size, { slot: size > 20 ? "large" : String(size) }),
      h("span", { class: "small muted", text: label }))));
  $("#setup").hidden = true;
  $("#bench").hidden = false;
  connectLive();
  renderValues();
  compare({});
}

function closeBench() {
  if (bench.project) forgetRing(bench.project.id);
  bench.project = null;
  bench.expected = null;
  bench.tasks = [];
  $("#lab-rings").replaceChildren();
  $("#bench").hidden = true;
  $("#setup").hidden = false;
}

/** The ring's value (0…1) as a reading with one decimal, "37.5%" (the platform formats it; the server's whole percent is shown as sent). */
const READING = new Intl.NumberFormat("en", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A slider position (0…1) as a whole percentage, for the slider's own label. */
const POSITION = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 });

function percentText(fraction) {
  return READING.format(fraction);
}

function showSlider(fraction) {
  const slider = $("#lab-slider");
  slider.value = String(fraction);
  const text = POSITION.format(Number(slider.value));
  slider.setAttribute("aria-valuetext", text);
  $("#lab-slider-value").textContent = text;
}

function renderValues() {
  const expected = bench.expected;
  if (!expected) return;
  $("#lab-expected").textContent = `${expected.percent}%`;
  $("#lab-expected").dataset.fraction = String(expected.fraction);
  $("#lab-expected-counts").textContent = `${expected.completed} of ${plural(expected.total, "task")} done · fraction ${expected.fraction.toFixed(4)} · revision ${expected.revision}`;
  if (!working && document.activeElement !== $("#lab-slider")) showSlider(expected.fraction);
  renderActual();
  renderFacts();
}

function renderActual() {
  if (!bench.project) return;
  const id = bench.project.id;
  const value = ringValue(id);
  const moving = ringIsMoving(id);
  $("#lab-actual").textContent = percentText(value);
  $("#lab-actual").dataset.fraction = String(value);
  $("#lab-actual").dataset.moving = String(moving);
  $("#lab-actual-state").textContent = moving ? `moving to ${percentText(ringTarget(id))}` : "at rest";
  if (moving && $("#main").dataset.agrees !== "pending") {
    // Judged again once the ring rests.
    $("#main").dataset.agrees = "pending";
    $("#lab-ok").textContent = "";
    $("#lab-warning").hidden = true;
  }
}

/** The warning: once the ring rests, it must show exactly what the server says. */
function compare({ checked = false }) {
  if (!bench.project || !bench.expected) return;
  const id = bench.project.id;
  renderActual();
  if (ringIsMoving(id)) return;
  const expected = bench.expected;
  const shown = ringValue(id);
  const warning = $("#lab-warning");
  const differs = shown !== expected.fraction || ringTarget(id) !== expected.fraction;
  warning.hidden = !differs;
  warning.textContent = differs
    ? `The ring shows ${percentText(shown)} but the server says ${expected.percent}% (${expected.completed} of ${expected.total} done). Reload the page to catch up; if it stays, the ring missed a change.`
    : "";
  $("#lab-ok").textContent = differs ? "" : `The ring agrees with the server${checked ? ` (checked at ${new Date().toLocaleTimeString()})` : ""}.`;
  $("#main").dataset.agrees = String(!differs);
}

function renderFacts() {
  const project = bench.project;
  const ring = bench.ring || { duration: 0, samples: [] };
  const facts = [
    ["Duration (server)", `${ring.duration} s`],
    ["Curve (server)", `${ring.samples.length} samples, ${ring.samples.slice(0, 4).map((v) => Number(v).toFixed(3)).join(", ")}…`],
    ["Motion", preference() === "full" ? "Full: rings animate" : "Reduced: rings are set at once"],
    ["Project", project ? `${project.id.slice(0, 8)} · revision ${project.revision}` : "—"],
    ["Tasks", project ? `${project.completed} of ${project.total} done (server)` : "—"],
    ["Changes sent", String(bench.changesSent)],
    ["In flight", String(bench.inFlight)],
    ["Last answer", bench.lastAnswerMs == null ? "—" : `${bench.lastAnswerMs} ms`],
    ["Live stream", bench.live],
  ];
  const last = summary();
  if (last) facts.push(["Last animation", `${last.frames} frames in ${last.ms} ms, ${plural(last.retargets, "retarget")}, ${plural(last.backwards, "backward step")}`]);
  $("#lab-facts").replaceChildren(...facts.map(([term, value]) => h("div", {}, h("dt", { text: term }), h("dd", { text: value }))));
}

watch({
  frame: () => renderActual(),
  rest: (last) => {
    const from = percentText(last.from);
    const to = percentText(last.to);
    const summaryText = `From ${from} to ${to} in ${last.ms} ms over ${plural(last.frames, "frame")}; ${plural(last.retargets, "retarget")}; ${last.backwards ? `${plural(last.backwards, "step")} against the target` : "no jump back"}.`;
    $("#lab-plot-summary").textContent = summaryText;
    $("#lab-plot").setAttribute("aria-label", `Plot of the ring's value: ${summaryText}`);
    $("#lab-plot").dataset.backwards = String(last.backwards);
    renderFacts();
    if (!working) compare({});
  },
});

// MARK: Live

function connectLive() {
  if (bench.liveStream) return;
  bench.liveStream = keepLive("/api/projects/events", {
    events: {
      projects: (update) => {
        if (!bench.project) return;
        if ((update.deleted || []).includes(bench.project.id) || (update.snapshot && !update.projects.some((p) => p.id === bench.project.id))) {
          closeBench();
          showError(`${BENCH_NAME} was deleted in another window.`);
          return;
        }
        const view = update.projects.find((project) => project.id === bench.project.id);
        if (view) {
          takeProject(view);
          if (!working) waitForRest().then(() => compare({}));
        }
      },
    },
    onState: (which) => {
      bench.live = which;
      const status = $("#live-status");
      status.textContent = which === "reconnecting" ? "Reconnecting…" : "";
      status.dataset.state = which;
      renderFacts();
    },
  });
}

// MARK: Wiring

function wire() {
  for (const element of document.querySelectorAll("[data-bench-name]")) element.textContent = BENCH_NAME;
  $("#setup-count").textContent = String(BENCH_TASKS);
  $("#create-bench").addEventListener("click", () => perform("Making the test project", createBench));
  const slider = $("#lab-slider");
  slider.addEventListener("input", () => showSlider(Number(slider.value)));
  // A drag sends once, where it ends (and each arrow-key step once).
  slider.addEventListener("change", () => {
    const value = Number(slider.value);
    perform(`Going to ${POSITION.format(value)}`, () => driveTo(value));
  });
  for (const button of document.querySelectorAll("[data-preset]")) {
    button.addEventListener("click", () => {
      const value = Number(button.dataset.preset);
      perform(`Going to ${button.textContent}`, () => driveTo(value));
    });
  }
  for (const button of document.querySelectorAll("[data-from]")) {
    button.addEventListener("click", () => {
      const from = Number(button.dataset.from);
      const to = Number(button.dataset.to);
      perform(button.textContent, async () => {
        await driveTo(from);
        await waitForRest();
        await driveTo(to);
      });
    });
  }
  $("#lab-burst").addEventListener("click", () => perform("Ten changes at once", burst));
  // A double-click adds one task (each separate press adds one more).
  $("#lab-add").addEventListener("click", (event) => {
    if (event.detail <= 1) perform("Adding a task", addTask);
  });
  $("#lab-check").addEventListener("click", () => perform("Checking", checkWithServer));
  $("#lab-remove").addEventListener("click", () => perform("Deleting the test project", removeBench));
  window.addEventListener("motionpreferencechange", () => {
    renderFacts();
    draw();
  });
}

async function start() {
  boot();
  await currentUser().catch(() => null);
  const overview = await api("/api/projects");
  bench.ring = overview.ring;
  configureRingMotion(overview.ring);
  setTiming(overview.ring);
  const project = findBench(overview.projects);
  if (project) await openBench(project);
  else $("#setup").hidden = false;
  renderFacts();
}

wire();
start()
  .catch((error) => showError(error.message))
  .finally(() => {
    document.body.dataset.ready = "true";
  });
