import { boot, currentUser, renderWho } from "./app.js";
import { api } from "./lib/api.js";
import { $, h } from "./lib/dom.js";
import { forgetOfflineCopies } from "./lib/offline-copies.js";
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

/** Shows one of the guest panels: "save", "login", or "recover" (reached from the sign-in panel, whose tab stays selected). */
function showTab(name) {
  const tab = name === "recover" ? "login" : name;
  for (const button of document.querySelectorAll("[data-tab]")) button.setAttribute("aria-selected", String(button.dataset.tab === tab));
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
  if (me.isGuest) $("#codes-panel").hidden = true;
  else showCodeStatus();
  await renderWho();
}

/** How many recovery codes the account has left, as the server counts them. */
async function showCodeStatus() {
  try {
    const { remaining } = await api("/api/account/recovery-codes");
    $("#codes-status").textContent = remaining === 1
      ? "You have 1 unused recovery code."
      : `You have ${remaining} unused recovery codes.`;
  } catch {
    $("#codes-status").textContent = "";
  }
}

/** The form's fields as an object of strings (usernames trimmed; passwords exactly as typed). */
function formValues(form) {
  const values = Object.fromEntries(new FormData(form));
  if (typeof values.username === "string") values.username = values.username.trim();
  return values;
}

/**
 * Sends one account change; then the account panel is drawn again (and `tab` shown) and `done(answer)` is
 * said, or the server's refusal is. `form` is cleared once the change went through. Answers the server's
 * answer (undefined when refused).
 */
/**
 * The account's message goes under the form it answers when that form is one of the signed-in person's folds
 * ("Change password", "Recovery codes"), so it is not read as belonging to the next one; else at the card's foot.
 */
function placeMessage(form) {
  const target = form?.closest("details") ? form : $("#account-message-home");
  const message = $("#account-message");
  if (message.previousElementSibling !== target) target.after(message);
}

async function accountChange(path, { body, form, tab, done }) {
  placeMessage(form);
  try {
    const answer = await api(path, { method: "POST", body });
    // Whoever is signed in now (another person, a new guest) never sees what Projects kept for the one before.
    await forgetOfflineCopies();
    form?.reset();
    await showAccount(true);
    if (tab) showTab(tab);
    setMessage(typeof done === "function" ? done(answer) : done, "ok");
    return answer;
  } catch (error) {
    setMessage(error.message, "error");
    return undefined;
  }
}

/** Shows recovery codes once, with a copy and a download of them; they are not kept anywhere on the page after. */
function showCodes(codes) {
  const list = $("#codes-list");
  list.replaceChildren(...codes.map((code) => h("li", { text: code })));
  const text = `CompletionKit recovery codes\nEach code can set a new password once.\n\n${codes.join("\n")}\n`;
  const link = $("#codes-download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  $("#codes-copy").onclick = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setMessage("The codes are copied. Paste them somewhere safe.", "ok");
    } catch {
      setMessage("This browser would not copy them: select the codes and copy them, or download them.", "error");
    }
  };
  const panel = $("#codes-panel");
  panel.hidden = false;
  $("#codes-title").focus();
}

function hideCodes() {
  $("#codes-panel").hidden = true;
  $("#codes-list").replaceChildren();
  const link = $("#codes-download");
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = "#";
}

function wireAccount() {
  for (const tab of document.querySelectorAll("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  for (const button of document.querySelectorAll("[data-show]")) {
    button.addEventListener("click", () => {
      showTab(button.dataset.show);
      if (button.dataset.show === "recover") $("#recover-title").focus();
    });
  }
  $("#save-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    // The username and password rules live on the server; its message says what to change.
    const saved = await accountChange("/api/account/register", {
      body: formValues(event.target), form: event.target, done: "Saved. You can now sign in from any browser.",
    });
    if (saved?.recoveryCodes) showCodes(saved.recoveryCodes);
  });
  $("#login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(event.target);
    if (!values.username || !values.password) return setMessage("Enter your username and password.", "error");
    accountChange("/api/account/login", { body: values, form: event.target, done: "Welcome back!" });
  });
  $("#recover-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = formValues(event.target);
    if (!values.username || !values.code) return setMessage("Enter your username and one of your recovery codes.", "error");
    accountChange("/api/account/recover", {
      body: values, form: event.target, tab: "login",
      done: ({ recoveryCodesLeft }) => `Your new password is set and you are signed in; every other browser is signed out. ${
        recoveryCodesLeft === 1 ? "1 recovery code is" : `${recoveryCodesLeft} recovery codes are`} left.`,
    });
  });
  $("#password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    accountChange("/api/account/password", {
      body: formValues(event.target), form: event.target,
      done: ({ endedSignIns }) => `Your password is changed. ${
        endedSignIns === 0 ? "No other browser or token was signed in." : endedSignIns === 1 ? "1 other sign-in was ended." : `${endedSignIns} other sign-ins were ended.`}`,
    });
  });
  $("#new-codes-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const fresh = await accountChange("/api/account/recovery-codes", {
      body: formValues(event.target), form: event.target, done: "Here are your new recovery codes; the old ones no longer work.",
    });
    if (fresh?.codes) showCodes(fresh.codes);
  });
  $("#codes-done").addEventListener("click", () => {
    hideCodes();
    setMessage("");
    $("#account-title").focus();
  });
  $("#logout-everywhere").addEventListener("click", () => accountChange("/api/account/logout-everywhere", {
    tab: "login", done: "You are signed out on every device and every API token has stopped working.",
  }));
  $("#signins-details").addEventListener("toggle", (event) => {
    if (event.target.open) showSignIns();
  });
  $("#logout").addEventListener("click", () => accountChange("/api/account/logout", { tab: "login", done: "You are signed out. Sign in again any time." }));
}

/** A moment (seconds since 1970) as a date and time in the reader's words. */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit" });
}

/**
 * The person's sign-ins (GET /api/account/tokens), newest first: this browser, other browsers and API tokens, each
 * but this one with "Sign out" (DELETE /api/account/tokens/{id}), which also ends that browser's live pages.
 */
async function showSignIns() {
  const list = $("#signins-list");
  let signIns;
  try {
    ({ signIns } = await api("/api/account/tokens"));
  } catch (error) {
    placeMessage(list);
    setMessage(error.message, "error");
    return;
  }
  list.replaceChildren(...signIns.map((signIn) => {
    const what = signIn.current ? "This browser" : signIn.kind === "browser" ? "Another browser" : "API token";
    const since = signIn.createdAt ? `signed in ${when(signIn.createdAt)}` : "";
    const seen = signIn.lastSeenAt && !signIn.current ? `, last used ${when(signIn.lastSeenAt)}` : "";
    return h("li", { class: "signin", "data-testid": "signin-row", "data-current": String(signIn.current) },
      h("span", {}, h("strong", { text: what }), h("span", { class: "muted small", text: ` ${since}${seen}` })),
      signIn.current ? null : h("button", {
        class: "button quiet", type: "button", "data-testid": "signin-revoke", "aria-label": `Sign out: ${what.toLowerCase()}, ${since}`,
        onclick: () => revokeSignIn(signIn, what),
      }, "Sign out"));
  }));
}

async function revokeSignIn(signIn, what) {
  const list = $("#signins-list");
  placeMessage(list);
  try {
    await api(`/api/account/tokens/${encodeURIComponent(signIn.id)}`, { method: "DELETE" });
    await showSignIns();
    setMessage(signIn.kind === "browser" ? "That browser is signed out; its open pages say so." : "That token no longer works.", "ok");
  } catch (error) {
    setMessage(error.message, "error");
  }
  $("#signins-details summary").focus();
}

/** The username and password fields take the server's limits (GET /api/account/limits), not copies of them. */
async function applyAccountLimits() {
  try {
    const limits = await api("/api/account/limits");
    for (const input of document.querySelectorAll('#save-form input[name="username"]')) {
      input.minLength = limits.usernameMinLength;
      input.maxLength = limits.usernameMaxLength;
    }
    const newPasswords = '#save-form input[name="password"], input[name="newPassword"]';
    for (const input of document.querySelectorAll(newPasswords)) input.minLength = limits.passwordMinLength;
  } catch {
    // Without them the server still checks every field and says what to change.
  }
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
applyAccountLimits();
showSystems();
showAccount().catch((error) => setMessage(error.message, "error"));
showHealth();
