// Projects: reordering rows by dragging their handle (Pointer Events: mouse, pen and touch alike).
import { renderSidebar, renderTasks } from "./render.js";
import { state } from "./state.js";

/**
 * Makes the rows of `list` draggable by their `.pj-handle`. The row follows the pointer and the others
 * make room as it crosses their middles; on release `commit(ids, movedId)` gets the new order.
 */
export function sortable(list, { rowSelector, idOf, commit }) {
  list.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".pj-handle");
    if (!handle || !list.contains(handle) || event.button !== 0) return;
    const row = handle.closest(rowSelector);
    if (!row) return;
    event.preventDefault();
    handle.setPointerCapture(event.pointerId);
    const rect = row.getBoundingClientRect();
    state.dragging = {
      list, row, handle, pointerId: event.pointerId, grab: event.clientY - rect.top,
      before: [...list.querySelectorAll(rowSelector)].map(idOf),
    };
    row.classList.add("is-dragging");
    list.classList.add("is-sorting");
  });

  list.addEventListener("pointermove", (event) => {
    const drag = state.dragging;
    if (!drag || drag.list !== list || event.pointerId !== drag.pointerId) return;
    const { row } = drag;
    // Make room: the row swaps with a neighbour once the pointer passes that neighbour's middle.
    const siblings = [...list.querySelectorAll(rowSelector)].filter((element) => element !== row);
    let before = null;
    for (const sibling of siblings) {
      const box = sibling.getBoundingClientRect();
      if (event.clientY < box.top + box.height / 2) {
        before = sibling;
        break;
      }
    }
    if (before !== row.nextElementSibling) {
      // The neighbours move, never the dragged row: taking it out of the document would end the pointer capture.
      const rowsNow = [...list.querySelectorAll(rowSelector)];
      const from = rowsNow.indexOf(row);
      const to = before ? rowsNow.indexOf(before) : rowsNow.length;
      if (to > from) for (const sibling of rowsNow.slice(from + 1, to)) list.insertBefore(sibling, row);
      else for (const sibling of rowsNow.slice(to, from).reverse()) row.after(sibling);
    }
    row.style.transform = "";
    const top = row.getBoundingClientRect().top;
    row.style.transform = `translateY(${event.clientY - drag.grab - top}px)`;
  });

  const end = (event) => {
    const drag = state.dragging;
    if (!drag || drag.list !== list || event.pointerId !== drag.pointerId) return;
    state.dragging = null;
    drag.row.style.transform = "";
    drag.row.classList.remove("is-dragging");
    list.classList.remove("is-sorting");
    const movedId = idOf(drag.row);
    const after = [...list.querySelectorAll(rowSelector)].map(idOf);
    const changed = after.some((id, index) => id !== drag.before[index]);
    if (changed && event.type === "pointerup") commit(after, movedId);
    else if (changed) restoreOrder(list, rowSelector, idOf, drag.before);
    if (state.deferred.sidebar) renderSidebar();
    if (state.deferred.tasks) renderTasks();
    const row = [...list.querySelectorAll(rowSelector)].find((element) => idOf(element) === movedId);
    row?.querySelector(".pj-handle")?.focus({ preventScroll: true });
  };
  list.addEventListener("pointerup", end);
  list.addEventListener("pointercancel", end);
  list.addEventListener("lostpointercapture", end);
}

function restoreOrder(list, rowSelector, idOf, ids) {
  const rows = new Map([...list.querySelectorAll(rowSelector)].map((row) => [idOf(row), row]));
  for (const id of ids) if (rows.has(id)) list.append(rows.get(id));
}
