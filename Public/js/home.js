import { api, boot, currentUser, renderWho } from "./app.js";
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
  const container = document.querySelector("#systems");
  try {
    const systems = await api("/api/systems");
    container.innerHTML = "";
    const cards = systems.map((system) => {
      const card = document.createElement("a");
      card.className = "card system-card";
      card.href = system.path;
      card.dataset.system = system.id;
      card.innerHTML = `<span class="icon">${icons[system.id] || ""}</span><h3></h3><p class="muted"></p><span class="go"></span>`;
      card.querySelector("h3").textContent = system.name;
      card.querySelector("p").textContent = system.tagline;
      card.querySelector(".go").textContent = `Open ${system.name} →`;
      container.append(card);
      return card;
    });
    const timeline = await fetchStagger({ config: "standard", count: cards.length });
    await playStagger(timeline, cards);
    const motionCard = container.querySelector('[data-system="motion"]');
    if (motionCard) {
      const dots = document.createElement("div");
      dots.className = "mini-wave";
      dots.setAttribute("aria-hidden", "true");
      for (let i = 0; i < 8; i++) dots.append(document.createElement("i"));
      motionCard.querySelector("p").after(dots);
      playWave(await fetchWave(8), Array.from(dots.children));
    }
  } catch (error) {
    document.querySelector("#systems-error").textContent = error.message;
  }
}

function showTab(name) {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== name;
  setMessage("");
}

function setMessage(text, kind = "") {
  const message = document.querySelector("#account-message");
  message.textContent = text;
  message.className = `message ${kind}`;
}

async function showAccount(refresh = false) {
  const me = await currentUser(refresh);
  document.querySelector("#account-status").textContent = me.isGuest
    ? `You are playing as ${me.displayName}. Save a username and password to keep your progress and play from other devices.`
    : `Signed in as ${me.displayName} (@${me.username}). Your progress is saved to this account.`;
  document.querySelector("#guest-panel").hidden = !me.isGuest;
  document.querySelector("#member-panel").hidden = me.isGuest;
  await renderWho();
}

function formValues(form) {
  const data = new FormData(form);
  return { username: String(data.get("username") || "").trim(), password: String(data.get("password") || "") };
}

function wireAccount() {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  document.querySelector("#save-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = formValues(event.target);
    // The username and password rules live on the server; its message says what to change.
    try {
      await api("/api/account/register", { method: "POST", body: values });
      event.target.reset();
      await showAccount(true);
      setMessage("Saved. You can now sign in from any browser.", "ok");
    } catch (error) {
      setMessage(error.message, "error");
    }
  });
  document.querySelector("#login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = formValues(event.target);
    if (!values.username || !values.password) return setMessage("Enter your username and password.", "error");
    try {
      await api("/api/account/login", { method: "POST", body: values });
      event.target.reset();
      await showAccount(true);
      setMessage("Welcome back!", "ok");
    } catch (error) {
      setMessage(error.message, "error");
    }
  });
  document.querySelector("#logout-everywhere").addEventListener("click", async () => {
    try {
      await api("/api/account/logout-everywhere", { method: "POST" });
      await showAccount(true);
      showTab("login");
      setMessage("You are signed out on every device and every API token has stopped working.", "ok");
    } catch (error) {
      setMessage(error.message, "error");
    }
  });
  document.querySelector("#logout").addEventListener("click", async () => {
    try {
      await api("/api/account/logout", { method: "POST" });
      await showAccount(true);
      showTab("login");
      setMessage("You are signed out. Sign in again any time.", "ok");
    } catch (error) {
      setMessage(error.message, "error");
    }
  });
}

async function showHealth() {
  try {
    const health = await api("/health");
    document.querySelector("#version").textContent = health.version;
    document.querySelector("#health").textContent = `Server ${health.status} · ${health.database}`;
  } catch {
    document.querySelector("#health").textContent = "Server unreachable";
  }
}

boot();
wireAccount();
showSystems();
showAccount().catch((error) => setMessage(error.message, "error"));
showHealth();
