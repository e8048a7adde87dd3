// The Calm switch says what the page does: when the system asks for reduced motion the page is already calm,
// so the switch shows "on" (and cannot be turned off here, since the system's setting wins).
import { calmMode } from "../motion.js";

export function reflectSystemMotion(input = document.querySelector("#calm")) {
  if (!input || !window.matchMedia) return;
  const query = window.matchMedia("(prefers-reduced-motion: reduce)");
  const help = document.getElementById(input.getAttribute("aria-describedby") || "");
  const ownHelp = help ? help.textContent : "";
  const apply = () => {
    const system = query.matches;
    input.checked = system || calmMode();
    input.disabled = system;
    input.closest("label")?.classList.toggle("is-system", system);
    if (help) help.textContent = system ? "On because your device asks for reduced motion." : ownHelp;
  };
  apply();
  query.addEventListener?.("change", apply);
}
