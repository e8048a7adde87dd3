// Words and numbers for people, from what the server sent: counts, calendar days, clock times. No rule lives here.

/** "1 task", "3 tasks"; `many` for a word whose plural is not `one` + "s". */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The server's "YYYY-MM-DD" as a local calendar day (not an instant), or null when it is not one. */
export function parseDay(isoDay) {
  const [year, month, day] = String(isoDay || "").split("-").map(Number);
  if (!year || !month || !day) return null;
  return new Date(year, month - 1, day);
}

/** "3 May" for a "YYYY-MM-DD", with the year when it is not this year; the text as it is when it is not a day. */
export function shortDay(isoDay) {
  const date = parseDay(isoDay);
  if (!date) return isoDay;
  const options = { day: "numeric", month: "short" };
  if (date.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
  return date.toLocaleDateString(undefined, options);
}

/** What a task the server marked overdue says, in Today and in its list: "Overdue · due yesterday", "Overdue · 3 days late". */
export function overdueWords(daysLate) {
  return `Overdue · ${daysLate === 1 ? "due yesterday" : `${daysLate} days late`}`;
}

/** "Monday, 23 November" for a "YYYY-MM-DD"; empty when it is not a day. */
export function longDay(isoDay) {
  const date = parseDay(isoDay);
  return date ? date.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long" }) : "";
}

/** `m:ss` for a number of seconds (whole seconds, rounded down), as the Swift core formats times. */
export function formatClock(seconds) {
  const total = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
