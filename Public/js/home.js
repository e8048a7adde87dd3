import { boot, currentUser, renderWho } from "./app.js";
import { api } from "./lib/api.js";
import { $, h } from "./lib/dom.js";
import { fetchStagger, fetchWave, playStagger, playWave } from "./motion.js";

const icons = {
  cryptogram: '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 15.5h5M15 15.5h5"/><path d="M4.8 11 6.5 5l1.7 6M5.3 9h2.4"/><path d="M15.5 5h2.2a1.5 1.5 0 0 1 0 3h-2.2zM15.5 8h2.6a1.6 1.6 0 0 1 0 3.2h-2.6z"/><path d="M9 19.5h6"/></svg>',
  kids: '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M12 3 6.5 11h3L6 16h12l-3.5-5h3z"/><path d="M12 16v5"/><circle cx="18.5" cy="5.5" r="2"/></svg>',
  motion: '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"><path d="M3 17c3 0 3-10 6-10s3 10 6 10 3-10 6-10"/></svg>',
  // A ring filled most of the way with a check: a project nearly done.
  projects: '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><circle cx="12" cy="12" r="9"/><path d="M12 3a9 9 0 1 1-9 9"/><path d="m8.5 12.5 2.5 2.5 4.5-5"/></svg>',
  // A trophy: a challenge completed.
  challenges: '<svg viewBox="0 0 24 24" width="26" height="26" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M8 4h8v5a4 4 0 0 1-8 0z"/><path d="M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4"/><path d="M12 13v4M8.5 20h7M10 17h4"/></svg>',
};

async function showSystems() {
  const container = $("#systems");
  try {
    const systems = await api("/api/systems");
    container.innerHTML = "";
    const cards = systems.map((system) => {
      const card = h("a", { class: "card system-card", href: system.path, "data-system": system.id },
        h("span", { class: "icon", html: icons[system.id] || "" }),
        h("h3", { text: system.name }),
        h("p", { class: "muted", text: system.tagline }),
        h("span", { class: "go", text: `Open ${system.name} →` }));
      container.append(card);
      return card;
    });
    const timeline = await fetchStagger({ config: "standard", count: cards.length });
    await playStagger(timeline, cards);
    const motionCard = container.querySelector('[data-system="motion"]');
    if (motionCard) {
      const dots = h("div", { class: "mini-wave", "aria-hidden": "true" }, Array.from({ length: 8 }, () => h("i")));
      motionCard.querySelector("p").after(dots);
      playWave(await fetchWave(8), Array.from(dots.children));
    }
  } catch (error) {
    $("#systems-error").textContent = error.message;
  }
}

function showTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== name;
  setMessage("");
}

function setMessage(text, kind = "") {
  const message = $("#account-message");
  message.textContent = text;
  message.className = `message ${kind}`;
}

async function showAccount(refresh = false) {
  const me = await currentUser(refresh);
  $("#account-status").textContent = me.isGuest
    ? `You are playing as ${me.displayName}. Save a username and password to keep your progress and play from other devices.`
    : `Signed in as ${me.displayName} (@${me.username}). Your progress is saved to this account.`;
  $("#guest-panel").hidden = !me.isGuest;
  $("#member-panel").hidden = me.isGuest;
  await renderWho();
}

function formValues(form) {
  const data = new FormData(form);
  return { username: String(data.get("username") || "").trim(), password: String(data.get("password") || "") };
}

/**
 * Sends one account change; then the account panel is drawn again (and `tab` shown) and `done` is said, or the
 * server's refusal is. `form` is cleared once the change went through.
 */
async function accountChange(path, { body, form, tab, done }) {
  try {
    await api(path, { method: "POST", body });
    form?.reset();
    await showAccount(true);
    if (tab) showTab(tab);
    setMessage(done, "ok");
  } catch (error) {
    setMessage(error.message, "error");
  }
}

function wireAccount() {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("#save-form").addEventListener("submit", (event) => {
    event.preventDefault();
    // The username and password rules live on the server; its message says what to change.
    accountChange("/api/account/register", { body: formValues(event.target), form: event.target, done: "Saved. You can now sign in from any browser." });
  });
  $("#login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(event.target);
    if (!values.username || !values.password) return setMessage("Enter your username and password.", "error");
    accountChange("/api/account/login", { body: values, form: event.target, done: "Welcome back!" });
  });
  $("#logout-everywhere").addEventListener("click", () => accountChange("/api/account/logout-everywhere", {
    tab: "login", done: "You are signed out on every device and every API token has stopped working.",
  }));
  $("#logout").addEventListener("click", () => accountChange("/api/account/logout", { tab: "login", done: "You are signed out. Sign in again any time." }));
}

async function showHealth() {
  try {
    const health = await api("/health");
    $("#version").textContent = health.version;
    $("#health").textContent = `Server ${health.status} · ${health.database}`;
  } catch {
    $("#health").textContent = "Server unreachable";
  }
}

boot();
wireAccount();
showSystems();
showAccount().catch((error) => setMessage(error.message, "error"));
showHealth();
