// Waldabenteuer, the web client. The server runs the game (every rule, every timing); this page draws the
// screen it describes (`view`), carries out what it says to do (`effects`: speak, sounds, confetti, the coin
// flight, scheduled events…) and sends what the child or the parent did. It keeps no game rule of its own.
import { apiHeaders } from "./app.js";
import { sessionEnded } from "./lib/api.js";
import { preference } from "./motion.js";
import { Narrator, playSound, setAudioEnabled } from "./kids/audio.js";
import { playConfetti } from "./kids/confetti.js";
import { h, newEventID, wait } from "./kids/dom.js";
import { holdForTimeUp, pauseVideo, syncVideo } from "./kids/film.js";
import { flyCoin, syncCelebration } from "./kids/moments.js";
import { parentMessage, parentScreens, showGateMessage } from "./kids/parent.js";
import { confirmDialog, parentNotice, upload } from "./kids/parent-tools.js";
import { rollDie, screens, setLoadingProgress, setTraceProgress } from "./kids/screens.js";
import { watchPage, watchPuzzleRoom } from "./kids/watch.js";

const $ = (selector) => document.querySelector(selector);
const main = $("#kids");
const stage = $("#stage");
/** This tab's id, kept across its reloads: a second tab opened during play joins the game instead of relaunching it. */
const tab = (() => {
  try {
    const id = sessionStorage.getItem("waldabenteuer-tab") || newEventID();
    sessionStorage.setItem("waldabenteuer-tab", id);
    return id;
  } catch {
    return undefined;
  }
})();
/** Whether this page load is a reload of the tab (always a new launch, as the seed has it). */
const reloaded = (performance.getEntriesByType("navigation")[0] || {}).type === "reload";

/** Events the page sends by itself: when the server cannot be reached they are simply dropped. */
const BACKGROUND = new Set(["loadingTick", "heartbeat", "videoTick", "idle", "appBackgrounded", "appForegrounded"]);

const state = {
  /** GET /api/kids/text: words, coin and tier numbers, report intervals and the game's movement. */
  catalog: { screen: {}, tiers: {}, motion: {}, timing: {}, lines: {} },
  view: null,
  /** The screen on show: {key, kind, element}. */
  current: null,
  queue: Promise.resolve(),
  activity: freshActivity(),
  video: { clock: null, player: null, over: false, ticker: null },
  loading: { started: 0, timer: null, inFlight: false },
  idle: [],
  schedules: [],
  celebration: null,
  unreachable: false,
  retry: null,
};

function freshActivity() {
  // puzzleTool: the leaf colour (or the eraser) in the child's hand; null means the level's first colour.
  return { level: null, highlight: null, answer: null, coverage: 0, tumbleUntil: 0, trace: null, puzzleTool: null };
}

// MARK: Words

/** A screen text from the server's catalog, gaps like [X] filled. */
function t(key, values = {}) {
  let text = state.catalog.screen[key] ?? "";
  for (const [gap, value] of Object.entries(values)) text = text.replaceAll(`[${gap}]`, String(value));
  return text;
}

const reduced = () => preference() === "reduced";

/**
 * One step of one of the game's choreographies (from the server's Swift), as Web Animations timing:
 * `{delay, duration, easing, from, to}` in milliseconds. Null if the server did not send it.
 */
function motionStep(name, id) {
  const choreography = state.catalog.motion[name];
  const step = choreography && choreography.steps.find((candidate) => candidate.id === id);
  if (!step) return null;
  return { delay: step.delay * 1000, duration: step.duration * 1000, easing: step.curve.css, from: step.from, to: step.to };
}

/** A keyframe from an appearance (opacity and scale). */

/** Seconds from the server's report intervals, in milliseconds. */
const scaled = (appearance) => ({ opacity: appearance.opacity, transform: `scale(${appearance.scale})` });
const every = (name) => state.catalog.timing[name] * 1000;

// MARK: Speech bubble

const bubble = $("#bubble");
let typing = null;

/** Types the line letter by letter; the bubble has its full size from the start, so nothing jumps. */
function typewrite(target, text) {
  clearInterval(typing);
  target.textContent = "";
  if (reduced()) {
    target.textContent = text;
    return;
  }
  const typed = h("span", { class: "typed" });
  const rest = h("span", { class: "rest", "aria-hidden": "true" }, text);
  target.append(typed, rest);
  let shown = 0;
  typing = setInterval(() => {
    shown += 1;
    typed.textContent = text.slice(0, shown);
    rest.textContent = text.slice(shown);
    if (shown >= text.length) {
      clearInterval(typing);
      target.textContent = text;
    }
  }, every("typewriterSecondsPerCharacter"));
}

const narrator = new Narrator({
  holdMs: () => every("bubbleHoldSeconds"),
  show(line) {
    const holder = state.celebration ? state.celebration.querySelector(".celebration-bubble") : bubble;
    holder.hidden = false;
    holder.dataset.line = line.text;
    holder.dataset.speaker = line.speaker || "B";
    main.dataset.lastLine = line.text;
    typewrite(holder.querySelector(".bubble-text"), line.text);
    if (holder === bubble) {
      bubble.classList.remove("is-leaving");
      const pop = motionStep("kidsSpeechBubble", "bubble");
      if (!reduced() && bubble.animate && bubble.dataset.open !== "true" && pop) {
        bubble.animate([scaled(pop.from), scaled(pop.to)], { duration: pop.duration, easing: pop.easing });
      }
      bubble.dataset.open = "true";
    }
  },
  hide() {
    bubble.dataset.open = "false";
    bubble.hidden = true;
    bubble.dataset.line = "";
  },
});

// MARK: Talking to the server

function showNotice(stuck) {
  const notice = $("#notice");
  notice.hidden = false;
  $("#notice-text").textContent = stuck ? "Bitte hol Mama oder Papa. Wir versuchen es gleich nochmal." : "Einen Moment bitte …";
  $("#notice-retry").hidden = !stuck;
}

function hideNotice() {
  $("#notice").hidden = true;
  state.unreachable = false;
}

/** Waits for the "Nochmal versuchen" button, the browser coming back online, or a quiet 10 s. */
function waitForRetry() {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      $("#notice-retry").removeEventListener("click", done);
      resolve();
    };
    const timer = setTimeout(done, 10000);
    window.addEventListener("online", done);
    $("#notice-retry").addEventListener("click", done);
  });
}

/**
 * POSTs `payload` to `path` and applies the answer (a refusal's view and effects too). Taps are retried with
 * the same event id until they arrive; background events are dropped when the server cannot be reached.
 */
async function deliver(path, payload, { background = false } = {}) {
  for (let attempt = 0; ; attempt += 1) {
    let response = null;
    try {
      response = await fetch(path, {
        method: "POST", credentials: "same-origin",
        headers: apiHeaders({ "Content-Type": "application/json" }),
        body: JSON.stringify(payload),
        keepalive: payload.type === "appBackgrounded",
      });
    } catch {
      response = null;
    }
    const body = response ? await response.json().catch(() => null) : null;
    const unreachable = !response || response.status >= 500;
    if (response && response.status === 401 && body && body.code === "session_ended") {
      // Signed out elsewhere: the page says so at its top (the shell's notice); nothing here was saved.
      sessionEnded(body.message);
      return null;
    }
    if (!unreachable) {
      if (!background) hideNotice();
      if (body && body.view) {
        await apply(body, { refusedCode: response.ok ? null : body.code, background });
        // The other tabs showing the game follow at once: a tap, or a change of screen (time up, loading done).
        if (response.ok && (!background || (body.effects || []).some((e) => e.type === "transition"))) otherTabs.changed();
        return body;
      }
      problem(body && body.code);
      return null;
    }
    if (background) return null;
    state.unreachable = true;
    if (attempt < 3) {
      showNotice(false);
      await wait(700 * 2 ** attempt);
    } else {
      showNotice(true);
      await waitForRetry();
    }
  }
}

/** A request the server did not understand: parents get a plain message, children see nothing. */
function problem(code) {
  if (state.view && state.view.screen === "parentDashboard") parentNotice(page, parentMessage(code, ui), "error");
  else if (code) console.warn("Waldabenteuer: request refused", code);
}

/** Runs `task` after every earlier one, so events reach the server in the order they happened. */
function enqueue(task) {
  const run = state.queue.then(task).catch((error) => console.error("Waldabenteuer:", error));
  state.queue = run;
  return run;
}

/** Sends one event: `send("tapNumber", { number: 3 })`. */
function send(type, fields = {}) {
  const background = BACKGROUND.has(type);
  if (background && state.unreachable) return Promise.resolve(null);
  const payload = { type, eventID: newEventID(), ...fields };
  return enqueue(() => deliver("/api/kids/events", payload, { background }));
}

async function getJSON(path) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const response = await fetch(path, { credentials: "same-origin", headers: apiHeaders() });
      if (response.ok) {
        hideNotice();
        return await response.json();
      }
    } catch {
      // Fall through to the gentle retry.
    }
    state.unreachable = true;
    if (attempt < 3) {
      showNotice(false);
      await wait(700 * 2 ** attempt);
    } else {
      showNotice(true);
      await waitForRetry();
    }
  }
}

// MARK: Other tabs

/**
 * Other tabs of this browser showing the game (a parent's second window, a tab opened again): a tab that
 * changed the game tells the others, and each visible one asks the server for the screen as it now is
 * (hidden tabs catch up when they come back into view, with `appForegrounded`). Without BroadcastChannel
 * a tab still follows with its heartbeat.
 */
const otherTabs = (() => {
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("completionkit-waldabenteuer") : null;
  let asked = false;
  const follow = () => {
    if (asked || !state.view || document.visibilityState !== "visible") return;
    asked = true;
    enqueue(async () => {
      asked = false;
      const response = await fetch("/api/kids/state", { credentials: "same-origin", headers: apiHeaders() }).catch(() => null);
      const body = response && response.ok ? await response.json().catch(() => null) : null;
      if (body && body.view) await apply({ view: body.view, effects: [] }, { background: true });
    });
  };
  if (channel) channel.addEventListener("message", follow);
  return { changed: () => channel && channel.postMessage({ tab }) };
})();

// MARK: Applying an answer

/**
 * Shows the answer's view and carries out its effects. Some effects set what the drawing needs first (a new
 * level, the glowing number); the rest run after it. Time up holds the video for its `seconds` first.
 */
async function apply(body, { refusedCode = null, background = false } = {}) {
  const { view } = body;
  const effects = body.effects || [];
  // A new screen, or an answer to the child's own tap, speaks now: older lines would only confuse.
  const speaks = effects.some((e) => e.type === "speak");
  if (effects.some((e) => e.type === "transition") || (speaks && !background)) narrator.clear();
  prepare(effects);
  const timeUp = effects.find((e) => e.type === "videoTimeUp");
  if (timeUp && state.current && state.current.kind === "videoPlaying") {
    await holdForTimeUp(page, timeUp, effects);
    render(view);
    perform(effects.filter((e) => e.type !== "speak" && e.type !== "sound"));
  } else {
    render(view);
    perform(effects);
  }
  if (refusedCode && view.screen === "parentDashboard") parentNotice(page, parentMessage(refusedCode, ui), "error");
}

function prepare(effects) {
  const activity = state.activity;
  for (const effect of effects) {
    switch (effect.type) {
      case "levelStarted":
        Object.assign(activity, freshActivity(), { trace: activity.trace, level: effect.level });
        break;
      case "highlightNumber":
        activity.highlight = effect.value;
        break;
      case "showAnswer":
        activity.answer = { value: effect.value, until: performance.now() + (effect.seconds || 0) * 1000 };
        break;
      case "traceProgress":
        activity.coverage = effect.coverage || 0;
        break;
      case "clearTrace":
        activity.coverage = 0;
        break;
      case "dieRolled":
        // The tumble starts once the die is drawn; until then it shows no face.
        activity.tumbleUntil = performance.now() + motionStep("kidsDieTumble", "die").duration;
        break;
      default:
        break;
    }
  }
}

/** hintCell: the DU cell to fix next and its ZIEL cell glow gold for `seconds`. */
function hintPuzzleCell(element, cell, seconds) {
  const cells = element.querySelectorAll(`.play-puzzle .puzzle-cell[data-cell='${Number(cell)}']`);
  for (const node of cells) node.classList.add("is-hint");
  setTimeout(() => { for (const node of cells) node.classList.remove("is-hint"); }, seconds * 1000);
}

function perform(effects) {
  const element = state.current ? state.current.element : null;
  const celebrating = effects.some((e) => e.type === "showCelebration");
  for (const effect of effects) {
    switch (effect.type) {
      case "speak":
        narrator.say(effect);
        break;
      case "sound":
        playSound(effect.name);
        break;
      case "loadingProgress":
        setLoadingProgress(state.loadingBar || (element && element.querySelector(".loading-bar")), effect.value);
        break;
      case "coinsChanged":
        if (effect.amount > 0 && effect.reason === "earned") flyCoin(page);
        break;
      case "confetti":
        if (!reduced()) playConfetti($("#confetti"), { amount: celebrating ? 1 : 0.35, duration: motionStep("kidsCelebration", "confetti").duration });
        break;
      case "showCelebration":
        if (navigator.vibrate) navigator.vibrate([60, 40, 120]);
        break;
      case "dieRolled":
        if (element) rollDie(element, effect.value, ui);
        break;
      case "showAnswer":
        setTimeout(() => refresh(), (effect.seconds || 0) * 1000 + 30);
        break;
      case "clearTrace":
        if (state.activity.trace) state.activity.trace.clear();
        setTraceProgress(element, 0);
        break;
      case "traceProgress":
        setTraceProgress(element, effect.coverage);
        break;
      case "showWay":
        if (state.activity.trace && state.activity.trace.showWay) state.activity.trace.showWay(effect.points || [], effect.seconds || 0);
        break;
      case "hintCell":
        if (element) hintPuzzleCell(element, effect.value, effect.seconds || 0);
        break;
      case "pauseVideoTimer":
        pauseVideo(page, true);
        break;
      case "resumeVideoTimer":
        pauseVideo(page, false);
        break;
      case "videoOneMinuteWarning":
        if (state.video.clock) {
          const pulses = reduced() ? [] : state.catalog.motion.kidsClockWarning.steps.map((step) => motionStep("kidsClockWarning", step.id));
          state.video.clock.warn(pulses);
        }
        if (navigator.vibrate) navigator.vibrate(80);
        break;
      case "gateRejected":
        showGateMessage(element, effect.text, effect.seconds || 2);
        break;
      case "schedule":
        schedule(effect.event, effect.seconds || 0);
        break;
      case "settingsChanged":
        if (state.view.screen === "parentDashboard") parentNotice(page, "Gespeichert.", "ok");
        break;
      default:
        // transition (drawn by render), save, gateInput, gateNewQuestion (in the view), playTimeStage, refused.
        break;
    }
  }
}

/** Redraws the current screen from the last view (after a timed highlight ends, going online…). */
function refresh() {
  if (state.view && state.current) modules[state.current.kind].update(state.current.element, state.view, ui);
}

function schedule(event, seconds) {
  const screen = state.view.screen;
  const timer = setTimeout(() => {
    state.schedules = state.schedules.filter((each) => each !== timer);
    // A scheduled event belongs to the screen that asked for it.
    if (state.view && state.view.screen === screen) send(event);
  }, seconds * 1000);
  state.schedules.push(timer);
}

// MARK: Drawing

const modules = { ...screens, ...parentScreens };

function kindOf(view) {
  switch (view.screen) {
    case "playing":
    case "levelComplete":
    case "celebrationOverlay":
      return "activity";
    default:
      return modules[view.screen] ? view.screen : "loading";
  }
}

function keyOf(view, kind) {
  if (kind === "activity") return `activity:${view.game || (view.level && view.level.game) || ""}`;
  if (kind === "activitySelection") return `select:${view.activity}`;
  if (kind === "videoPlaying") return `video:${view.playback ? view.playback.video.id : ""}`;
  return kind;
}

const GUIDE_PLACES = {
  loading: "corner", playerSelection: "corner", home: "corner", activitySelection: "corner", activity: "corner",
  treasureScreen: "corner", videoSelection: "corner", videoPlaying: "video", parentGate: "hidden", parentDashboard: "hidden",
};

function render(view) {
  const previous = state.view;
  state.view = view;
  setAudioEnabled(view.audioEnabled);
  const kind = kindOf(view);
  if (kind === "videoPlaying" && !view.playback) return;
  const key = keyOf(view, kind);
  if (!state.current || state.current.key !== key) switchScreen(kind, key, view);
  modules[kind].update(state.current.element, view, ui);

  main.dataset.screen = view.screen;
  main.dataset.coins = view.activePlayer ? String(view.activePlayer.coins) : "";
  main.dataset.player = view.activePlayer ? view.activePlayer.id : "";
  main.dataset.audio = String(view.audioEnabled);
  $("#guide").dataset.place = GUIDE_PLACES[kind] || "corner";
  $("#guide").setAttribute("aria-hidden", String(GUIDE_PLACES[kind] === "hidden"));
  syncCelebration(page, view);
  syncLoading(view);
  syncVideo(page, view, kind);
  const enteredPlay = view.screen === "playing" && (!previous || previous.screen !== "playing"
    || (previous.level && view.level && previous.level.level !== view.level.level));
  if (enteredPlay) resetIdle();
  if (view.screen !== "playing") clearIdle();
}

function switchScreen(kind, key, view) {
  const old = state.current;
  // A passing line (a locked sign's answer) belongs to the screen it was said on; the new screen's own
  // lines come with this answer's effects, after this. (Time up's goodbye was said for the way home: it stays.)
  if (old && !(old.kind === "videoPlaying" && state.video.over)) narrator.reset();
  if (old) leave(old);
  // The activity's own state (glowing number, trace) was set up by this answer's effects; it ends with the activity.
  if (old && old.kind === "activity" && kind !== "activity") state.activity = freshActivity();
  const element = modules[kind].build(view, ui);
  element.dataset.kind = kind;
  stage.append(element);
  state.current = { key, kind, element };
  window.scrollTo(0, 0);
  if (!old) return;
  if (reduced() || !element.animate) {
    old.element.remove();
    return;
  }
  old.element.classList.add("is-leaving");
  old.element.setAttribute("aria-hidden", "true");
  old.element.inert = true;
  const incoming = motionStep("kidsCrossFade", "incoming");
  const outgoing = motionStep("kidsCrossFade", "outgoing");
  element.animate([{ opacity: incoming.from.opacity }, { opacity: incoming.to.opacity }], { duration: incoming.duration, easing: incoming.easing });
  const fade = old.element.animate([{ opacity: outgoing.from.opacity }, { opacity: outgoing.to.opacity }],
    { duration: outgoing.duration, easing: outgoing.easing, fill: "forwards" });
  fade.finished.catch(() => null).then(() => old.element.remove());
}

/** Whatever a screen was running stops when it goes. */
function leave(old) {
  for (const timer of state.schedules) clearTimeout(timer);
  state.schedules = [];
  if (old.kind === "videoPlaying") {
    if (state.video.player && state.video.player.tagName === "VIDEO") {
      state.video.player.pause();
      state.video.player.removeAttribute("src");
      state.video.player.load();
    }
    if (state.video.clock) state.video.clock.stop();
    state.video = { clock: null, player: null, over: false, ticker: null };
  }
  if (old.kind === "loading") state.loadingBar = null;
}

// MARK: Loading ticks

function syncLoading(view) {
  const loading = state.loading;
  if (view.screen !== "loading") {
    clearInterval(loading.timer);
    loading.timer = null;
    loading.started = 0;
    return;
  }
  if (loading.timer) return;
  loading.started = performance.now();
  loading.timer = setInterval(() => {
    if (loading.inFlight || document.visibilityState !== "visible") return;
    loading.inFlight = true;
    const seconds = (performance.now() - loading.started) / 1000;
    send("loadingTick", { seconds: Math.round(seconds * 1000) / 1000 }).finally(() => {
      loading.inFlight = false;
    });
  }, every("loadingTickSeconds"));
}

// MARK: Idle prompts

function clearIdle() {
  for (const timer of state.idle) clearTimeout(timer);
  state.idle = [];
}

function resetIdle() {
  clearIdle();
  if (!state.view || state.view.screen !== "playing" || !state.view.level) return;
  state.idle = state.view.level.idleMarks.map((seconds) => setTimeout(() => {
    if (state.view && state.view.screen === "playing") send("idle", { seconds });
  }, seconds * 1000));
}

// MARK: The screens' helpers

const ui = {
  state,
  get catalog() {
    return state.catalog;
  },
  t,
  send,
  reduced,
  say: (line) => narrator.say(line),
  motion: motionStep,
  noInternetLine: () => state.catalog.lines.noInternet,
  confirm: (question) => confirmDialog(page, question),
  upload: (file, title) => upload(page, file, title),
  parentNotice: (text, kind) => parentNotice(page, text, kind),
};

/** What the page's modules (film, moments, parent tools, watchers) share of it. */
const page = {
  state, main, tab, ui, narrator, t, send, every, motionStep, reduced, enqueue, apply, refresh, resetIdle,
};

// MARK: Start

async function start() {
  watchPage(page);
  const catalog = await getJSON("/api/kids/text");
  state.catalog = catalog;
  // Play time counts while the page is visible: the server says how often to report it.
  setInterval(() => {
    if (document.visibilityState === "visible" && state.view) send("heartbeat", { tab });
  }, every("heartbeatSeconds"));
  document.title = t("homeTitle") || "Waldabenteuer";
  await enqueue(() => deliver("/api/kids/launch", { tab, reload: reloaded }));
  watchPuzzleRoom(page);
  main.dataset.ready = "true";
  // /kids#eltern opens the parent area (through the gate, as always).
  if (location.hash === "#eltern") {
    history.replaceState(null, "", location.pathname);
    send("openParentDeepLink");
  }
}

start();
