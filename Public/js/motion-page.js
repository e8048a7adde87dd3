import { boot } from "./app.js";
import { $, h } from "./lib/dom.js";
import { fetchChoreography, fetchStagger, fetchWave, playChoreography, playStagger, playWave, preference } from "./motion.js";

const colors = ["#2f6f5e", "#c99a2e", "#6a7fb5", "#b5676a", "#5e8f4a", "#8a6bb0", "#3f8fa3", "#c07a3a"];
const names = ["Morning pages", "Solve today's cryptogram", "Three coins in the forest", "Close the garden project",
  "7-day streak challenge", "Read one chapter", "Tidy the desk", "Call a friend", "Practice piano",
  "Plan the weekend", "Stretch for ten minutes", "Write a thank-you note"];

const state = { config: "standard", origin: "first", count: 6, shown: 0, wave: null, waveOn: true };
const list = $("#stagger-list");

function renderItems() {
  while (list.children.length < state.count) {
    const index = list.children.length;
    const dot = h("span", { class: "dot", text: String(index + 1) });
    dot.style.background = colors[index % colors.length];
    list.append(h("li", { "data-index": String(index) }, dot, h("span", { class: "name", text: names[index % names.length] }), h("span", { class: "delay" })));
  }
  while (list.children.length > state.count) list.lastElementChild.remove();
}

function describeStagger(timeline) {
  for (const li of list.children) {
    const item = timeline.items[Number(li.dataset.index)];
    const label = li.querySelector(".delay");
    li.classList.toggle("new", item && item.delay != null && timeline.previouslyRevealed > 0);
    label.textContent = !item || item.delay == null ? "shown" : `+${item.delay.toFixed(2)} s`;
  }
  $("#stagger-note").textContent =
    `${timeline.config} · ${timeline.curve.kind}${timeline.curve.response ? ` ${timeline.curve.response}/${timeline.curve.dampingFraction}` : ""}` +
    ` · each item ${timeline.duration.toFixed(2)} s · all done at ${timeline.totalDuration.toFixed(2)} s · ${timeline.preference} motion`;
}

async function revealList({ previous = 0, direction = "enter" } = {}) {
  renderItems();
  const timeline = await fetchStagger({ config: state.config, count: state.count, origin: state.origin, direction, previous });
  describeStagger(timeline);
  list.dataset.playing = "true";
  await playStagger(timeline, Array.from(list.children));
  list.dataset.playing = "false";
  state.shown = direction === "enter" ? state.count : 0;
}

async function revealSequences() {
  const [card, listAppear] = await Promise.all([fetchChoreography("cardReveal"), fetchChoreography("listAppear")]);
  const pick = (root) => Object.fromEntries(Array.from(root.querySelectorAll("[data-step]")).map((el) => [el.dataset.step, el]));
  $("#sequence-note").textContent =
    card.steps.map((s) => `${s.id} +${s.delay.toFixed(2)} s`).join(" · ") + "   |   " +
    listAppear.steps.map((s) => `${s.id} +${s.delay.toFixed(2)} s`).join(" · ");
  await Promise.all([playChoreography(card, pick($("#card-reveal"))),
    playChoreography(listAppear, pick($("#list-appear")))]);
}

async function startWave() {
  const row = $("#wave-row");
  if (!row.children.length) {
    for (let i = 0; i < 12; i++) {
      const dot = h("span");
      dot.style.background = colors[i % colors.length];
      row.append(dot);
    }
  }
  if (state.wave) state.wave.stop();
  state.wave = null;
  if (!state.waveOn) return;
  const payload = await fetchWave(row.children.length);
  state.wave = playWave(payload, Array.from(row.children));
  $("#toggle-wave").disabled = !payload.active;
}

function showPreference() {
  const pref = preference();
  $("#preference-label").textContent = pref === "full" ? "Full motion" : "Calm: fades only";
  document.body.dataset.motion = pref;
}

function choose(groupSelector, key) {
  const group = document.querySelector(groupSelector);
  group.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b === button));
    state[key] = button.dataset[key];
    revealList();
  });
}

choose("#config-choice", "config");
choose("#origin-choice", "origin");
$("#replay-list").addEventListener("click", () => revealList());
$("#add-items").addEventListener("click", () => {
  const previous = state.shown;
  state.count = Math.min(state.count + 3, names.length);
  revealList({ previous });
});
$("#exit-list").addEventListener("click", () => revealList({ direction: "exit" }));
$("#reset-list").addEventListener("click", () => { state.count = 6; revealList(); });
$("#replay-sequences").addEventListener("click", () => revealSequences());
$("#replay-all").addEventListener("click", () => { revealList(); revealSequences(); });
$("#toggle-wave").addEventListener("click", (event) => {
  state.waveOn = !state.waveOn;
  event.target.textContent = state.waveOn ? "Pause wave" : "Play wave";
  event.target.setAttribute("aria-pressed", String(state.waveOn));
  startWave();
});
window.addEventListener("motionpreferencechange", () => { showPreference(); revealList(); revealSequences(); startWave(); });

boot();
showPreference();
Promise.all([revealList(), revealSequences(), startWave()])
  .then(() => { document.body.dataset.ready = "true"; })
  .catch((error) => {
    $("#stagger-note").textContent = `Could not load the motion timelines: ${error.message}`;
  });
