// The children's screens of Waldabenteuer. Each screen has `build(view, ui)`, which makes its element once,
// and `update(element, view, ui)`, which brings it up to date with a new view without rebuilding it (so a
// heartbeat's answer never restarts an animation). Taps only send events: the server decides everything.
import { art, fill, h, setData, setText } from "./dom.js";
import { TraceBox } from "./trace.js";
import { LabyrinthBoard } from "./labyrinth.js";
import { avatarOf, backButton, lockOverlay, plaque, woodIconButton } from "./pieces.js";
import { filmPicture, treasureScreen, videoSelection, videoPlaying } from "./video.js";

// MARK: Shared pieces

/** The coin bar: a slot per coin of a chest, filled to `filledSlots`, then a chest for every full one. */
export function coinBar(ui) {
  const slots = h("ol", { class: "coin-slots", "aria-hidden": "true" },
    Array.from({ length: ui.catalog.coinsPerChest }, (_, index) => h("li", { class: "coin-slot", data: { slot: String(index) } }, art("coin", { className: "coin-slot-coin" }))));
  const chests = h("span", { class: "coin-chests", "aria-hidden": "true" });
  return h("div", { class: "coin-bar", role: "img", data: { testid: "coin-bar", filled: "0", chests: "0" } }, slots, chests);
}

export function updateCoinBar(bar, player, ui) {
  if (!bar || !player) return;
  const filled = player.filledSlots;
  const previous = Number(bar.dataset.filled);
  setData(bar, "filled", filled);
  setData(bar, "coins", player.coins);
  bar.setAttribute("aria-label", player.coinsLabel);
  bar.querySelectorAll(".coin-slot").forEach((slot, index) => slot.classList.toggle("is-filled", index < filled));
  const chests = bar.querySelector(".coin-chests");
  if (Number(bar.dataset.chests) !== player.chests || chests.childElementCount !== player.chests) {
    setData(bar, "chests", player.chests);
    fill(chests, Array.from({ length: player.chests }, () => art("chest-closed", { className: "coin-chest" })));
  }
  return previous;
}

/** The top bar of the activity screens: home, back, and the coin bar. */
function topBar(ui) {
  return h("header", { class: "top-bar" },
    h("div", { class: "top-bar-buttons" },
      woodIconButton("home-button", "Nach Hause", "home-button", () => ui.send("home")),
      woodIconButton("back-button", ui.t("back"), "back-button", () => ui.send("back"))),
    coinBar(ui));
}

function dieFace(value) {
  // Before the first roll the die is not an empty square: it shows a calm "?" (the roll is still to come).
  if (!value) return h("span", { class: "die-face is-waiting", data: { value: "0" } }, h("span", { class: "die-question", "aria-hidden": "true" }, "?"));
  // Pip positions on a 3×3 grid, 1-based cells.
  const layouts = {
    1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9],
  };
  return h("span", { class: "die-face", data: { value: String(value || 0) } },
    Array.from({ length: 9 }, (_, index) => h("span", { class: (layouts[value] || []).includes(index + 1) ? "pip" : "pip is-empty" })));
}

function gameIcon(game) {
  const icons = {
    wuerfel: '<svg viewBox="0 0 100 100"><rect x="14" y="14" width="72" height="72" rx="16" fill="#FAF5EB" stroke="#6B4423" stroke-width="5"/><g fill="#3D2B1F"><circle cx="34" cy="34" r="7"/><circle cx="50" cy="50" r="7"/><circle cx="66" cy="66" r="7"/></g></svg>',
    waehleDieZahl: '<svg viewBox="0 0 100 100"><rect x="10" y="16" width="80" height="68" rx="14" fill="#FAF5EB" stroke="#6B4423" stroke-width="5"/><path d="M38 36l10-8v44" fill="none" stroke="#D9C27A" stroke-width="9" stroke-linecap="round" stroke-linejoin="round"/><path d="M62 40c8-6 18 0 12 10l-14 18h18" fill="none" stroke="#99BF8C" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/></svg>',
    puzzleMatching: '<svg viewBox="0 0 100 100"><g stroke="#6B4423" stroke-width="4"><rect x="16" y="16" width="22" height="22" rx="5" fill="#99BF8C"/><rect x="39" y="16" width="22" height="22" rx="5" fill="#FAF5EB"/><rect x="62" y="16" width="22" height="22" rx="5" fill="#D9C27A"/><rect x="16" y="39" width="22" height="22" rx="5" fill="#FAF5EB"/><rect x="39" y="39" width="22" height="22" rx="5" fill="#99BF8C"/><rect x="62" y="39" width="22" height="22" rx="5" fill="#FAF5EB"/><rect x="16" y="62" width="22" height="22" rx="5" fill="#D9C27A"/><rect x="39" y="62" width="22" height="22" rx="5" fill="#FAF5EB"/><rect x="62" y="62" width="22" height="22" rx="5" fill="#99BF8C"/></g></svg>',
    labyrinth: '<svg viewBox="0 0 100 100"><rect x="12" y="12" width="76" height="76" rx="14" fill="#7A9973" stroke="#6B4423" stroke-width="5"/><path d="M24 76V50h22V30h30" fill="none" stroke="#A8A090" stroke-width="11" stroke-linecap="round" stroke-linejoin="round"/><circle cx="24" cy="76" r="6" fill="#FAF5EB"/><circle cx="76" cy="30" r="6" fill="#D9C27A"/></svg>',
  };
  const holder = h("span", { class: "game-icon", "aria-hidden": "true" });
  holder.innerHTML = icons[game] || icons.wuerfel;
  return holder;
}

// MARK: Loading

const loading = {
  build(view, ui) {
    const bar = h("div", { class: "loading-bar", role: "progressbar", "aria-label": ui.t("loading"), "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": "0", data: { testid: "loading-bar" } },
      h("span", { class: "loading-fill" }));
    return h("section", { class: "screen screen-loading" },
      plaque(ui.t("homeTitle"), { className: "plaque-large" }),
      h("div", { class: "loading-friends", "aria-hidden": "true" }, art("lemming", { className: "friend" }), art("lemming", { className: "friend friend-flip" })),
      bar,
      h("p", { class: "loading-text" }, ui.t("loading")));
  },
  update(element, view, ui) {
    ui.state.loadingBar = element.querySelector(".loading-bar");
  },
};

/** Moves the loading bar (loadingProgress effect). */
export function setLoadingProgress(bar, value) {
  if (!bar) return;
  const percent = Math.max(0, Math.min(100, value));
  bar.setAttribute("aria-valuenow", String(percent));
  bar.dataset.value = String(percent);
  bar.firstElementChild.style.width = `${percent}%`;
}

// MARK: Player selection

const playerSelection = {
  build(view, ui) {
    return h("section", { class: "screen screen-players" },
      plaque(ui.t("playerSelectionTitle")),
      h("div", { class: "player-cards", role: "group", "aria-label": ui.t("playerSelectionTitle") }));
  },
  update(element, view, ui) {
    const list = element.querySelector(".player-cards");
    const key = JSON.stringify(view.players.map((p) => [p.id, p.name, p.coins]));
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    fill(list, view.players.map((player, index) =>
      h("button", {
        type: "button", class: "player-card", data: { player: player.id, testid: "player-card" },
        "aria-label": `${player.name}, ${player.coinsLabel}`,
        onclick: () => ui.send("selectPlayer", { player: player.id }),
      },
      art(avatarOf(player), { className: "player-avatar", width: 120, height: 120 }),
      h("span", { class: "player-name" }, player.name),
      h("span", { class: "player-coins" }, art("coin", { className: "coin-icon" }), h("span", {}, String(player.coins))))));
  },
};

// MARK: Home

const home = {
  build(view, ui) {
    const sound = h("button", { type: "button", class: "icon-button sound-button", data: { testid: "sound" } });
    sound.addEventListener("click", () => ui.send("setAudio", { enabled: !ui.state.view.audioEnabled }));
    const chest = h("button", { type: "button", class: "chest", data: { testid: "chest" }, onclick: () => ui.send("tapChest") });
    return h("section", { class: "screen screen-home" },
      h("header", { class: "home-top" },
        sound,
        plaque(ui.t("homeTitle"), { className: "plaque-large" }),
        // Siblings hand over here: the turn ends on home, and "Wer spielt heute?" asks again.
        h("button", { type: "button", class: "wood-button who-plays", data: { testid: "change-player" }, onclick: () => ui.send("changePlayer") },
          h("span", { class: "who-avatar" }), h("span", {}, ui.t("changePlayer"))),
        woodIconButton("settings-button", "Elternbereich", "settings", () => ui.send("tapSettings"))),
      h("div", { class: "signs" }),
      h("div", { class: "chest-area" }, chest, h("p", { class: "chest-coins", data: { testid: "home-coins" } })),
      h("div", { class: "home-bottom" },
        // Paid film time left unwatched (a sibling's turn, a reload, the day's end) waits here for its child.
        h("button", {
          type: "button", class: "resume-film", hidden: true, data: { testid: "resume-film" },
          onclick: () => ui.send("resumeUnwatchedVideo", { online: navigator.onLine }),
        })));
  },
  update(element, view, ui) {
    const sound = element.querySelector(".sound-button");
    if (sound.dataset.enabled !== String(view.audioEnabled)) {
      sound.dataset.enabled = String(view.audioEnabled);
      const label = view.audioEnabled ? "Ton aus" : "Ton an";
      sound.setAttribute("aria-label", label);
      sound.title = label;
      sound.setAttribute("aria-pressed", String(view.audioEnabled));
      fill(sound, art(view.audioEnabled ? "sound-on" : "sound-off", { width: 96, height: 96 }));
    }
    const signs = element.querySelector(".signs");
    const key = JSON.stringify(view.signs);
    if (signs.dataset.key !== key) {
      signs.dataset.key = key;
      fill(signs, view.signs.map((sign, index) =>
        h("div", { class: "sign-hanger", style: { "--i": String(index) } },
          h("span", { class: "rope", "aria-hidden": "true" }), h("span", { class: "rope rope-right", "aria-hidden": "true" }),
          h("button", {
            type: "button", class: `sign${sign.unlocked ? "" : " is-locked"}`,
            data: { activity: sign.activity, unlocked: String(sign.unlocked), testid: "sign" },
            "aria-label": sign.unlocked ? sign.title : `${sign.title} (gesperrt)`,
            onclick: (event) => {
              const hanger = event.currentTarget.parentElement;
              hanger.classList.remove("is-swinging");
              void hanger.offsetWidth;
              hanger.classList.add("is-swinging");
              setTimeout(() => hanger.classList.remove("is-swinging"), 520);
              ui.send("tapActivity", { activity: sign.activity });
            },
          }, art("sign", { className: "sign-board" }), sign.unlocked ? null : lockOverlay(), h("span", { class: "sign-title" }, h("span", { class: "sign-title-text" }, sign.title))))));
    }
    const player = view.activePlayer;
    const chest = element.querySelector(".chest");
    const state = player ? player.chest : "closed";
    if (chest.dataset.chest !== state) {
      chest.dataset.chest = state;
      chest.setAttribute("aria-label", state === "closed" ? "Schatztruhe (zu)" : "Schatztruhe");
      const open = state !== "closed";
      fill(chest,
        open ? h("span", { class: "chest-glow", "aria-hidden": "true" }) : null,
        state === "openWithSparkles" ? art("chest-open", { className: "chest-img chest-second" }) : null,
        art(open ? "chest-open" : "chest-closed", { className: "chest-img" }),
        state === "openWithSparkles" ? h("span", { class: "sparkles", "aria-hidden": "true" }, h("i"), h("i"), h("i"), h("i"), h("i")) : null);
    }
    const coins = element.querySelector(".chest-coins");
    setText(coins, player ? player.coinsLabel : "");
    if (player) setData(coins, "coins", player.coins);
    const avatar = element.querySelector(".who-avatar");
    const avatarName = player ? avatarOf(player) : "";
    if (avatar.dataset.avatar !== avatarName) {
      avatar.dataset.avatar = avatarName;
      fill(avatar, player ? art(avatarName, { className: "who-avatar-img", width: 56, height: 56 }) : null);
    }
    const resume = element.querySelector(".resume-film");
    const unwatched = view.unwatchedVideo;
    const resumeKey = unwatched ? JSON.stringify([unwatched.video && unwatched.video.id, unwatched.label, navigator.onLine]) : "";
    if (resume.dataset.key !== resumeKey) {
      resume.dataset.key = resumeKey;
      resume.hidden = !unwatched;
      fill(resume, unwatched
        ? [h("span", { class: "resume-picture" }, filmPicture(unwatched.video || { needsInternet: false })),
          h("span", { class: "resume-text" }, h("span", { class: "resume-title" }, ui.t("resumeFilm")), h("span", { class: "resume-time" }, unwatched.label))]
        : []);
    }
  },
};

// MARK: Activity selection

const activitySelection = {
  build(view, ui) {
    return h("section", { class: "screen screen-select" },
      topBar(ui),
      h("div", { class: "select-body" }, plaque("", { className: "select-title" }), h("div", { class: "game-cards" })));
  },
  update(element, view, ui) {
    updateCoinBar(element.querySelector(".coin-bar"), view.activePlayer, ui);
    const sign = view.signs.find((s) => s.activity === view.activity);
    setText(element.querySelector(".select-title"), sign ? sign.title : "");
    const cards = element.querySelector(".game-cards");
    const key = JSON.stringify(view.games);
    if (cards.dataset.key === key) return;
    cards.dataset.key = key;
    fill(cards, view.games.map((game) =>
      h("button", {
        type: "button", class: `game-card${game.available ? "" : " is-locked"}`,
        data: { game: game.game, available: String(game.available), testid: "game-card" },
        "aria-label": game.available ? game.title : `${game.title} (gesperrt)`,
        onclick: () => ui.send("tapSubActivity", { game: game.game }),
      }, gameIcon(game.game), h("span", { class: "game-title" }, game.title), game.available ? null : h("span", { class: "game-lock", "aria-hidden": "true" }))));
  },
};

// MARK: The activity (playing, level complete, and under the celebration)

function numberPad(rows, ui, testid) {
  return h("div", { class: "number-pad", data: { testid } },
    rows.map((row) => h("div", { class: "number-row" },
      row.map((number) => h("button", {
        type: "button", class: "number", data: { number: String(number) }, "aria-label": `Zahl ${number}`,
        onclick: () => ui.send("tapNumber", { number }),
      }, String(number))))));
}

function diceStage(ui) {
  const die = h("button", { type: "button", class: "die", data: { testid: "die", state: "ready", face: "" }, "aria-label": "Würfel werfen" },
    h("span", { class: "die-body" }, dieFace(0)));
  die.addEventListener("click", () => {
    if (die.dataset.state !== "ready") return;
    ui.send("rollDie");
  });
  return h("div", { class: "play-dice" }, die, h("div", { class: "dice-numbers" }));
}

function updateDice(stage, level, ui) {
  const die = stage.querySelector(".die");
  const numbers = stage.querySelector(".dice-numbers");
  if (numbers.dataset.key !== JSON.stringify(level.numberRows)) {
    numbers.dataset.key = JSON.stringify(level.numberRows);
    fill(numbers, numberPad(level.numberRows, ui, "numbers"));
  }
  const activity = ui.state.activity;
  const tumbling = activity.tumbleUntil > performance.now();
  if (!level.rolled) {
    setData(die, "state", "ready");
    setData(die, "face", "");
    die.disabled = false;
    die.setAttribute("aria-label", "Würfel werfen");
    const face = die.querySelector(".die-face");
    if (face.dataset.value !== "0") face.replaceWith(dieFace(0));
  } else if (!tumbling) {
    setData(die, "state", "rolled");
    setData(die, "face", level.askedNumber);
    die.disabled = true;
    die.setAttribute("aria-label", `Der Würfel zeigt ${level.askedNumber}`);
    const face = die.querySelector(".die-face");
    if (face.dataset.value !== String(level.askedNumber)) face.replaceWith(dieFace(level.askedNumber));
  }
  const ready = level.rolled && !tumbling && ui.state.view.screen === "playing";
  for (const button of numbers.querySelectorAll(".number")) {
    button.disabled = !ready;
    button.classList.toggle("is-glowing", activity.highlight === Number(button.dataset.number));
  }
  setData(numbers, "ready", ready);
}

/** dieRolled: a calm 0.5 s tumble, then the face; the number buttons wake up after it. */
export function rollDie(element, value, ui) {
  const stage = element.querySelector(".play-dice");
  if (!stage) return;
  const die = stage.querySelector(".die");
  const tumble = ui.motion("kidsDieTumble", "die");
  ui.state.activity.tumbleUntil = performance.now() + tumble.duration;
  setData(die, "state", "rolling");
  die.disabled = true;
  const body = die.querySelector(".die-body");
  if (!ui.reduced() && body.animate) {
    body.animate([
      { transform: "rotate(0deg) scale(1)" },
      { transform: "rotate(200deg) scale(1.06)", offset: 0.6 },
      { transform: "rotate(360deg) scale(1)" },
    ], { duration: tumble.duration, easing: tumble.easing }).id = "die-tumble";
  }
  setTimeout(() => {
    if (!element.isConnected) return;
    screens.activity.update(element, ui.state.view, ui);
  }, tumble.duration + 10);
}

function choiceStage(ui) {
  return h("div", { class: "play-choice" });
}

function updateChoice(stage, level, ui) {
  const mode = level.mode || "tap";
  if (stage.dataset.mode !== mode) {
    stage.dataset.mode = mode;
    if (mode === "trace") {
      const box = new TraceBox({
        label: `Fahre die ${level.askedNumber} nach`,
        onStroke: (points) => ui.send("traceStroke", { points }),
        maxPoints: ui.catalog.maxTracePoints,
      });
      ui.state.activity.trace = box;
      const meter = h("div", { class: "trace-meter", role: "progressbar", "aria-label": "Schon nachgemalt", "aria-valuemin": "0", "aria-valuemax": "100", data: { testid: "trace-progress", coverage: "0" } },
        h("span", { class: "trace-meter-fill" }));
      fill(stage, h("div", { class: "trace-area" }, box.element, meter));
    } else {
      ui.state.activity.trace = null;
      fill(stage, h("div", { class: "tablet" }));
    }
  }
  if (mode === "trace") {
    const box = ui.state.activity.trace;
    box.update(level);
    box.element.dataset.disabled = String(ui.state.view.screen !== "playing");
    setTraceProgress(stage, ui.state.activity.coverage);
  } else {
    const tablet = stage.querySelector(".tablet");
    if (tablet.dataset.key !== JSON.stringify(level.numberRows)) {
      tablet.dataset.key = JSON.stringify(level.numberRows);
      fill(tablet, numberPad(level.numberRows, ui, "numbers"));
    }
    const answer = ui.state.activity.answer;
    const showing = answer && answer.until > performance.now() ? answer.value : null;
    for (const button of tablet.querySelectorAll(".number")) {
      button.disabled = ui.state.view.screen !== "playing";
      button.classList.toggle("is-glowing", showing === Number(button.dataset.number));
    }
    setData(tablet, "answer", showing ?? "");
  }
}

export function setTraceProgress(element, coverage) {
  const meter = element && element.querySelector(".trace-meter");
  if (!meter) return;
  const percent = Math.round(Math.max(0, Math.min(1, coverage || 0)) * 100);
  meter.dataset.coverage = String(percent);
  meter.setAttribute("aria-valuenow", String(percent));
  meter.firstElementChild.style.height = `${percent}%`;
}

// MARK: Puzzle Matching

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  for (const child of children) element.append(child);
  return element;
}

/** A leaf drawn in its colour (the view's hex); an empty one is invisible and fades in when filled. */
function leafShape() {
  return svg("svg", { class: "leaf", viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    svg("path", { class: "leaf-blade", d: "M50 8C74 22 86 44 80 66C75 82 62 90 50 92C38 90 25 82 20 66C14 44 26 22 50 8Z" }),
    svg("path", { class: "leaf-vein", d: "M50 22V92M50 48L64 36M50 64L34 52M50 78L66 66" }));
}

function paintLeaf(holder, leaf) {
  const shape = holder.querySelector(".leaf");
  shape.classList.toggle("is-empty", !leaf);
  if (leaf) shape.style.setProperty("--leaf", leaf.hex);
}

function toolIcon(kind) {
  const icons = {
    eraser: [
      svg("path", { class: "tool-fill", d: "M18 62L52 28a8 8 0 0 1 11 0l19 19a8 8 0 0 1 0 11L58 82H34Z" }),
      svg("path", { class: "tool-soft", d: "M18 62l16 20h24L40 64Z" }),
      svg("path", { class: "tool-line", d: "M14 86h72" }),
    ],
    reset: [
      svg("path", { class: "tool-line", d: "M74 38A28 28 0 1 0 78 60" }),
      svg("path", { class: "tool-fill", d: "M64 22l16 16-20 6Z" }),
    ],
  };
  return svg("svg", { class: `tool-icon tool-${kind}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" }, ...icons[kind]);
}

/** "Reihe 1, Feld 2: Grün" (or "… leer"). */
function cellLabel(index, size, leaf) {
  return `Reihe ${Math.floor(index / size) + 1}, Feld ${(index % size) + 1}: ${leaf ? leaf.label : "leer"}`;
}

function puzzleStage(ui) {
  const target = h("div", { class: "puzzle-grid", role: "group", "aria-label": "ZIEL", data: { testid: "puzzle-target" } });
  const mine = h("div", { class: "puzzle-grid", role: "group", "aria-label": "DU", data: { testid: "puzzle-cells" } });
  const reset = h("button", {
    type: "button", class: "puzzle-tool puzzle-reset", "aria-label": "Neu anfangen", title: "Neu anfangen", data: { testid: "puzzle-reset" },
    onclick: () => ui.confirm({
      title: "Neu anfangen?", message: "Alle Blätter kommen weg.", confirm: "Neu anfangen", kids: true,
      onConfirm: () => ui.send("resetPuzzle"),
    }),
  }, toolIcon("reset"));
  const eraser = h("button", {
    type: "button", class: "puzzle-tool puzzle-eraser", "aria-label": "Radiergummi", title: "Radiergummi", "aria-pressed": "false",
    data: { testid: "puzzle-eraser", tool: "eraser" },
    onclick: () => choosePuzzleTool(eraser.closest(".play-puzzle"), "eraser", ui),
  }, toolIcon("eraser"));
  return h("div", { class: "play-puzzle", data: { testid: "puzzle", size: "", tool: "" } },
    h("section", { class: "puzzle-board puzzle-target" },
      plaque("ZIEL", { tag: "h2", className: "plaque-small", testid: "puzzle-target-title" }), target),
    h("section", { class: "puzzle-board puzzle-mine" },
      plaque("DU", { tag: "h2", className: "plaque-small", testid: "puzzle-mine-title" }), mine),
    h("div", { class: "puzzle-picker", role: "group", "aria-label": "Blätter", data: { testid: "puzzle-picker" } }),
    // Reset sits apart from the leaves; the eraser, a tool like them, sits next to them.
    h("div", { class: "puzzle-tools" }, reset, eraser));
}

/** The tool in the child's hand is the page's own state: a leaf colour or the eraser. */
function choosePuzzleTool(stage, tool, ui) {
  ui.state.activity.puzzleTool = tool;
  markPuzzleTool(stage, tool);
}

function markPuzzleTool(stage, tool) {
  setData(stage, "tool", tool);
  for (const button of stage.querySelectorAll("[data-tool]")) {
    const chosen = button.dataset.tool === tool;
    button.setAttribute("aria-pressed", String(chosen));
    button.classList.toggle("is-chosen", chosen);
  }
}

function buildPuzzle(stage, puzzle, ui) {
  const { size, leaves } = puzzle;
  const count = size * size;
  const target = stage.querySelector("[data-testid=puzzle-target]");
  const mine = stage.querySelector("[data-testid=puzzle-cells]");
  for (const grid of [stage, target, mine]) grid.style.setProperty("--n", String(size));
  fill(target, Array.from({ length: count }, (_, index) =>
    h("span", { class: "puzzle-cell", role: "img", data: { cell: String(index), leaf: "" } }, leafShape())));
  fill(mine, Array.from({ length: count }, (_, index) =>
    h("button", {
      type: "button", class: "puzzle-cell", data: { cell: String(index), leaf: "", match: "false" },
      onclick: () => {
        const tool = stage.dataset.tool;
        if (!tool) return;
        if (tool === "eraser") ui.send("eraseCell", { cell: index });
        else ui.send("paintCell", { cell: index, colour: tool });
      },
    }, leafShape())));
  fill(stage.querySelector(".puzzle-picker"), leaves.map((leaf) => {
    const button = h("button", {
      type: "button", class: "puzzle-tool puzzle-leaf", "aria-label": `Blatt ${leaf.label}`, title: leaf.label, "aria-pressed": "false",
      data: { tool: leaf.id, testid: "puzzle-colour" },
      onclick: () => choosePuzzleTool(stage, leaf.id, ui),
    }, leafShape());
    paintLeaf(button, leaf);
    return button;
  }));
}

function updatePuzzle(stage, level, ui) {
  const puzzle = level.puzzle;
  if (!puzzle) return;
  const leaves = new Map(puzzle.leaves.map((leaf) => [leaf.id, leaf]));
  const key = JSON.stringify([level.level, puzzle.size, puzzle.leaves.map((leaf) => leaf.id)]);
  if (stage.dataset.key !== key) {
    const newLevel = stage.dataset.level !== String(level.level);
    stage.dataset.key = key;
    setData(stage, "level", level.level);
    setData(stage, "size", puzzle.size);
    setData(stage, "leaves", puzzle.leaves.length);
    buildPuzzle(stage, puzzle, ui);
    // Each level starts with the first colour in hand.
    if (newLevel) ui.state.activity.puzzleTool = null;
  }
  const activity = ui.state.activity;
  if (activity.puzzleTool !== "eraser" && !leaves.has(activity.puzzleTool)) activity.puzzleTool = puzzle.leaves[0] ? puzzle.leaves[0].id : null;
  markPuzzleTool(stage, activity.puzzleTool || "");

  const target = stage.querySelectorAll("[data-testid=puzzle-target] .puzzle-cell");
  target.forEach((cell, index) => {
    const leaf = leaves.get(puzzle.target[index]) || null;
    if (cell.dataset.leaf === (leaf ? leaf.id : "") && cell.hasAttribute("aria-label")) return;
    setData(cell, "leaf", leaf ? leaf.id : "");
    cell.setAttribute("aria-label", cellLabel(index, puzzle.size, leaf));
    paintLeaf(cell, leaf);
  });
  const playing = ui.state.view.screen === "playing";
  let matched = 0;
  stage.querySelectorAll("[data-testid=puzzle-cells] .puzzle-cell").forEach((cell, index) => {
    const leaf = leaves.get(puzzle.cells[index]) || null;
    // The live check: a leaf that matches ZIEL glows softly; anything else simply waits, unmarked.
    const match = Boolean(leaf) && Boolean(puzzle.matches[index]);
    if (match) matched += 1;
    cell.disabled = !playing;
    setData(cell, "match", match);
    cell.classList.toggle("is-match", match);
    if (cell.dataset.leaf === (leaf ? leaf.id : "") && cell.hasAttribute("aria-label")) return;
    setData(cell, "leaf", leaf ? leaf.id : "");
    cell.setAttribute("aria-label", cellLabel(index, puzzle.size, leaf));
    paintLeaf(cell, leaf);
  });
  setData(stage, "matched", matched);
  setData(stage, "filled", puzzle.cells.filter(Boolean).length);
  for (const button of stage.querySelectorAll(".puzzle-tool")) button.disabled = !playing;
}

const activity = {
  build(view, ui) {
    const game = view.game || (view.level && view.level.game);
    const stage = game === "waehleDieZahl" ? choiceStage(ui) : game === "puzzleMatching" ? puzzleStage(ui) : game === "labyrinth" ? labyrinthStage(ui) : diceStage(ui);
    return h("section", { class: "screen screen-activity", data: { game } }, topBar(ui), h("div", { class: "play-area" }, stage));
  },
  update(element, view, ui) {
    updateCoinBar(element.querySelector(".coin-bar"), view.activePlayer, ui);
    const level = view.level;
    if (!level) return;
    setData(element, "level", level.level);
    setData(element, "state", view.screen);
    const dice = element.querySelector(".play-dice");
    if (dice) updateDice(dice, level, ui);
    const choice = element.querySelector(".play-choice");
    if (choice) updateChoice(choice, level, ui);
    const puzzle = element.querySelector(".play-puzzle");
    if (puzzle) updatePuzzle(puzzle, level, ui);
    const labyrinth = element.querySelector(".labyrinth-stage"); if (labyrinth) updateLabyrinth(labyrinth, level, ui);
  },
};

// MARK: Labyrinth

function labyrinthStage(ui) {
  return h("div", { class: "labyrinth-stage", data: { testid: "labyrinth-stage" } });
}

/** Draws the maze once per level (or new maze); a view that changed nothing else leaves it as it is. */
function updateLabyrinth(stage, level, ui) {
  const maze = level.labyrinth;
  if (!maze) return;
  const key = JSON.stringify([level.level, maze.width, maze.height, maze.tolerance, maze.segments, maze.start, maze.goal]);
  if (stage.dataset.key !== key || !stage.board) {
    if (stage.board) stage.board.destroy();
    stage.dataset.key = key;
    stage.board = new LabyrinthBoard(maze, {
      onTrace: (points) => ui.send("traceLabyrinth", { points }),
      reduced: () => ui.reduced(),
      fade: () => ui.motion("kidsTraceFade", "trace"),
      words: { start: ui.t("labyrinthStart") || "START", goal: ui.t("puzzleTarget") || "ZIEL", label: "Labyrinth: Fahre mit dem Finger vom Start zum Ziel" },
    });
    stage.board.element.dataset.level = String(level.level);
    fill(stage, stage.board.element);
    stage.board.observe(stage);
  }
  // clearTrace (kids.js) wipes whatever trace the activity holds: here, the finger's line through the maze.
  ui.state.activity.trace = stage.board;
  stage.board.setEnabled(ui.state.view.screen === "playing");
}

// MARK: Celebration overlay

export function celebrationCard(view, ui) {
  const coins = view.activePlayer ? view.activePlayer.coins : 0;
  const weiter = h("button", { type: "button", class: "weiter", data: { testid: "weiter" }, onclick: () => ui.send("tapWeiter") }, ui.t("weiter"));
  return h("div", { class: "celebration-card", role: "dialog", "aria-modal": "true", "aria-labelledby": "celebration-title", data: { testid: "celebration-card" } },
    h("p", { class: "celebration-coins", id: "celebration-title" }, art("coin", { className: "coin-icon" }), h("span", {}, view.activePlayer ? view.activePlayer.coinsLabel : "")),
    h("div", { class: "celebration-bubble", data: { testid: "celebration-line" } }, h("p", { class: "bubble-text" })),
    h("div", { class: "celebration-friends" },
      art("lemming-excited", { className: "lemming l1" }),
      art("lemming-excited", { className: "lemming l2" }),
      art("bennie-celebrate", { className: "bennie-big breathe", alt: "Bennie freut sich" }),
      art("lemming-excited", { className: "lemming l3" })),
    weiter);
}

export { setFilmPlaying } from "./video.js";

export const screens = {
  loading, playerSelection, home, activitySelection, activity, treasureScreen, videoSelection, videoPlaying,
};
