// Challenges: the page's icons (trusted constants, drawn inline so they take the text's colour).
import { h } from "../lib/dom.js";

export const ICONS = {
  star: '<svg viewBox="0 0 24 24" width="16" height="16"><path fill="currentColor" d="M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3L2.9 9.5l6.3-.9z"/></svg>',
  clock: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="12" cy="12" r="8.5"/><path d="M12 7.5V12l3 2"/></svg>',
  check: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"><path d="M5 12.5l4.5 4.5L19 7.5"/></svg>',
  circle: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2"><circle cx="12" cy="12" r="8"/></svg>',
  camera: '<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor"><path d="M9.2 4h5.6l1.6 2.4H20a1.5 1.5 0 0 1 1.5 1.5v10.6A1.5 1.5 0 0 1 20 20H4a1.5 1.5 0 0 1-1.5-1.5V7.9A1.5 1.5 0 0 1 4 6.4h3.6zM12 9a4 4 0 1 0 0 8 4 4 0 0 0 0-8z"/></svg>',
  checkCircle: '<svg viewBox="0 0 24 24" width="18" height="18"><circle cx="12" cy="12" r="10" fill="currentColor"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#1e7a3c" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>',
  trophy: '<svg viewBox="0 0 24 24" width="24" height="24"><path fill="currentColor" d="M7 3h10v1h3.5v3A4.5 4.5 0 0 1 16.6 11.5 5.5 5.5 0 0 1 13 14.4V17h3v4H8v-4h3v-2.6a5.5 5.5 0 0 1-3.6-2.9A4.5 4.5 0 0 1 3.5 7V4H7zm-1.5 3v1a2.5 2.5 0 0 0 1.6 2.3A6 6 0 0 1 7 8.5V6zm13 0H17v2.5a6 6 0 0 1-.1.8A2.5 2.5 0 0 0 18.5 7z"/></svg>',
  clap: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M8.5 10.5 6 8a1.4 1.4 0 0 1 2-2l4.5 4.5M10 7.5 8.8 6.3a1.4 1.4 0 0 1 2-2l5.8 5.8c1.5 1.5 2 4.6-.4 7s-5.6 2-7.2.4L5 13.4a1.4 1.4 0 0 1 2-2l2 2"/><path d="M7.2 9.7 5.6 8.1M17 3.5l.6-1.5M20 6.5l1.5-.6M19 4.5l1.3-1.2"/></svg>',
  comment: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M4 5h16v11H10l-5 4v-4H4z"/></svg>',
  share: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"><path d="M12 15V3.5M7.5 8 12 3.5 16.5 8"/><path d="M6 11H5v9.5h14V11h-1"/></svg>',
  more: '<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor"><circle cx="5.5" cy="12" r="1.8"/><circle cx="12" cy="12" r="1.8"/><circle cx="18.5" cy="12" r="1.8"/></svg>',
  flag: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M5 21V4M5 4h11l-2 4 2 4H5"/></svg>',
  userPlus: '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><circle cx="10" cy="8" r="3.5"/><path d="M3.5 20a6.5 6.5 0 0 1 13 0M19 8v6M16 11h6"/></svg>',
};

export function icon(name, className = "ch-icon") {
  return h("span", { class: className, "aria-hidden": "true", html: ICONS[name] });
}
