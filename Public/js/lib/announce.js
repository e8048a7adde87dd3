// Says something to screen readers without moving focus, through the page's aria-live `#announcer` region.

/** Announces `text`; the region is cleared first so the same words said twice are read twice. */
export function announce(text, region = document.querySelector("#announcer")) {
  if (!region) return;
  region.textContent = "";
  // A new text node in a cleared region, a frame later, is announced even when the words repeat.
  requestAnimationFrame(() => {
    region.textContent = text;
  });
}
