// The two moments on top of a screen: the celebration overlay (over the dimmed activity) and the coin that
// flies into the bar. `page` is the page's shared context (state, ui, motion; see kids.js).
import { h } from "./dom.js";
import { celebrationCard } from "./screens.js";

const scaled = (appearance) => ({ opacity: appearance.opacity, transform: `scale(${appearance.scale})` });

/** Shows or closes the celebration overlay to match `view`. */
export function syncCelebration(page, view) {
  const layer = document.querySelector("#celebration-layer");
  const want = view.screen === "celebrationOverlay";
  const activity = page.state.current && page.state.current.kind === "activity" ? page.state.current.element : null;
  if (activity) {
    activity.classList.toggle("is-dimmed", want);
    // Under the card nothing can be reached: only "Weiter" closes it.
    activity.inert = want;
  }
  if (want && !page.state.celebration) {
    const card = celebrationCard(view, page.ui);
    layer.textContent = "";
    layer.append(card);
    layer.hidden = false;
    layer.dataset.coins = view.activePlayer ? String(view.activePlayer.coins) : "";
    page.state.celebration = card;
    const entrance = page.motionStep("kidsCelebration", "card");
    if (!page.reduced() && card.animate && entrance) {
      card.animate([scaled(entrance.from), scaled(entrance.to)], { duration: entrance.duration, easing: entrance.easing });
    }
    card.querySelector(".weiter").focus({ preventScroll: true });
  } else if (!want && page.state.celebration) {
    const card = page.state.celebration;
    page.state.celebration = null;
    const close = () => {
      if (page.state.celebration) return;
      layer.hidden = true;
      layer.textContent = "";
    };
    if (page.reduced() || !card.animate) return close();
    layer.classList.add("is-leaving");
    const exit = page.motionStep("kidsCelebrationExit", "card");
    card.animate([scaled(exit.from), scaled(exit.to)], { duration: exit.duration, easing: exit.easing, fill: "forwards" })
      .finished.catch(() => null).then(() => {
        layer.classList.remove("is-leaving");
        close();
      });
  }
}

/** A coin flies from the activity into its slot of the bar. */
export function flyCoin(page) {
  const element = page.state.current && page.state.current.element;
  const bar = element && element.querySelector(".coin-bar");
  if (!bar) return;
  const player = page.state.view.activePlayer;
  const target = player && player.filledSlots > 0
    ? bar.querySelectorAll(".coin-slot")[player.filledSlots - 1]
    : bar.querySelector(".coin-chest:last-child") || bar;
  if (!target || page.reduced()) return;
  const from = (element.querySelector(".die, .trace-box, .tablet, .puzzle-mine .puzzle-grid") || element).getBoundingClientRect();
  const to = target.getBoundingClientRect();
  const coin = h("img", { src: "/img/kids/coin.svg", alt: "", class: "flying-coin", "aria-hidden": "true" });
  document.body.append(coin);
  target.classList.add("is-arriving");
  const startX = from.left + from.width / 2 - 32;
  const startY = from.top + from.height / 2 - 32;
  const endX = to.left + to.width / 2 - 32;
  const endY = to.top + to.height / 2 - 32;
  const flight = page.motionStep("kidsCoinFlight", "coin");
  const landing = page.motionStep("kidsCoinFlight", "slot");
  const animation = coin.animate([
    { transform: `translate(${startX}px, ${startY}px) scale(${flight.from.scale})`, opacity: flight.from.opacity },
    { transform: `translate(${startX}px, ${startY - 40}px) scale(${flight.from.scale})`, opacity: flight.to.opacity, offset: 0.2 },
    { transform: `translate(${endX}px, ${endY}px) scale(${flight.to.scale})`, opacity: flight.to.opacity },
  ], { duration: flight.duration, easing: flight.easing, fill: "forwards" });
  animation.id = "coin-flight";
  animation.finished.catch(() => null).then(() => {
    coin.remove();
    target.classList.remove("is-arriving");
    if (target.animate) {
      target.animate([{ transform: `scale(${landing.from.scale})` }, { transform: `scale(${landing.to.scale})` }],
        { duration: landing.duration, easing: landing.easing });
    }
  });
}
