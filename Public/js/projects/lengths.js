// Projects: a field that holds at most so many characters (the server's limits, put on the fields as maxlength
// from the overview, see takeLabelsAndLimits in lists.js, and on the rows' fields in render.js and headings.js)
// says so when text typed, pasted or dropped into it goes past the limit, instead of cutting it without a word.
import { showError } from "./state.js";

/** Whether `field` is a text field with a limit. */
function limited(field) {
  return Boolean(field && (field.tagName === "INPUT" || field.tagName === "TEXTAREA") && field.maxLength > 0);
}

/** Listens under `root` (capture, so every field of the page, the rows' too, is covered). */
export function wireLengthNotes(root) {
  root.addEventListener("beforeinput", (event) => {
    const field = event.target;
    if (!limited(field) || !event.inputType.startsWith("insert")) return;
    const incoming = event.data ?? (event.dataTransfer ? event.dataTransfer.getData("text/plain") : "") ?? "";
    const selected = Math.max(0, (field.selectionEnd ?? 0) - (field.selectionStart ?? 0));
    const room = field.maxLength - (field.value.length - selected);
    const length = event.inputType === "insertLineBreak" || event.inputType === "insertParagraph" ? 1 : incoming.length;
    if (length > room) {
      showError(length > 1 && room > 0
        ? `This field holds at most ${field.maxLength} characters: only the first ${room} of the ${length} you added were kept.`
        : `This field holds at most ${field.maxLength} characters, and it is full.`);
    }
  }, true);
}
