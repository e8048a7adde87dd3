// Projects: which task rows a long list puts in the document. A list of up to WINDOW_FROM tasks is drawn
// whole; a longer one only around what is on screen, with the rest of its height kept as padding above and
// below, so the scroll bar, Page Down and the End key behave as if every row were there. Rows are measured
// once drawn; a row never drawn counts as the typical row's height.

/** From this many tasks on, only the rows near the screen are in the document. */
export const WINDOW_FROM = 200;
/** How far beyond the screen rows are drawn (CSS pixels), so a quick scroll does not show a gap. */
const OVERSCAN = 500;
/** A row's height before any row was measured (a collapsed row at desktop size). */
const FIRST_GUESS = 56;

/** taskId → measured height (the row's border box plus the list's gap). */
const heights = new Map();
let typical = 0;

/** Forgets the measurements (another list opened; the layout changed). */
export function forgetHeights() {
  heights.clear();
  typical = 0;
}

function heightOf(id) {
  return heights.get(id) ?? (typical || FIRST_GUESS);
}

/** Notes the heights of the rows now in `list` (read together, in one layout); true when the typical row's height was learnt now. */
export function measure(list) {
  const gap = parseFloat(getComputedStyle(list).rowGap) || 0;
  let collapsed = 0;
  let count = 0;
  for (const row of list.children) {
    // A task's row by its task, a heading's by its "heading:<id>" key (the ids shownItems gives them).
    const id = row.dataset.taskId || row.dataset.rowKey;
    if (!id) continue;
    const height = row.offsetHeight + gap;
    if (!height) continue;
    heights.set(id, height);
    if (row.dataset.taskId && !row.classList.contains("is-open")) {
      collapsed += height;
      count += 1;
    }
  }
  if (count && !typical) {
    typical = collapsed / count;
    return true;
  }
  return false;
}

/**
 * The rows to draw: `{start, end}` (indexes into `tasks`, end excluded) and the padding that stands for the
 * rows above and below. `list` is the list element; the page (the window) is what scrolls. `pending`: rows
 * still on their way after the last of `tasks` (a list opened with its first page), counted in the padding below.
 */
export function windowFor(list, tasks, pending = 0) {
  if (tasks.length + pending <= WINDOW_FROM) return { start: 0, end: tasks.length, before: 0, after: 0, windowed: false };
  const box = list.getBoundingClientRect();
  const viewTop = -box.top - OVERSCAN;
  const viewBottom = -box.top + window.innerHeight + OVERSCAN;
  let offset = 0;
  let start = 0;
  while (start < tasks.length && offset + heightOf(tasks[start].id) < viewTop) {
    offset += heightOf(tasks[start].id);
    start += 1;
  }
  const before = offset;
  let end = start;
  while (end < tasks.length && offset < viewBottom) {
    offset += heightOf(tasks[end].id);
    end += 1;
  }
  let after = 0;
  for (let i = end; i < tasks.length; i++) after += heightOf(tasks[i].id);
  after += pending * (typical || FIRST_GUESS);
  return { start, end, before, after, windowed: true };
}

/** The distance from the list's top to the row at `index` (for scrolling a row that is not drawn into view). */
export function offsetOf(tasks, index) {
  let offset = 0;
  for (let i = 0; i < index && i < tasks.length; i++) offset += heightOf(tasks[i].id);
  return offset;
}
