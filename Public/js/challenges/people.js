// Challenges: the People section: the person's profile, followers, following, and following someone new.
import { announce } from "../lib/announce.js";
import { api } from "../lib/api.js";
import { $, h, setBusy } from "../lib/dom.js";
import { renderStats } from "./cards.js";
import { loadFeed } from "./feed.js";
import { enc, state } from "./state.js";

// MARK: People

export async function loadPeopleSection() {
  state.people.loaded = true;
  await Promise.all([loadProfile(), loadPeople("followers"), loadPeople("following")]);
}

export async function loadProfile() {
  try {
    const profile = await api("/api/social/me");
    state.people.profile = profile;
    renderProfile(profile);
  } catch (error) {
    $("#follow-message").textContent = error.message;
  }
}

function renderProfile(profile) {
  const person = profile.person;
  $("#profile-avatar").textContent = person.initial;
  $("#profile-name").textContent = person.displayName;
  $("#profile-handle").textContent = person.username ? `@${person.username}` : "Guest";
  $("#guest-note").hidden = Boolean(person.username);
  $("#followers-count").textContent = String(profile.followers);
  $("#following-count").textContent = String(profile.following);
  renderStats(profile.stats);
}

export async function loadPeople(kind, { more = false } = {}) {
  const box = state.people[kind];
  const button = $(`#${kind}-more`);
  if (more && (!box.next || button.getAttribute("aria-busy") === "true")) return;
  const token = more ? box.token : ++box.token;
  setBusy(button, true);
  try {
    const page = await api(`/api/social/${kind}${more ? `?cursor=${enc(box.next)}` : ""}`);
    if (token !== box.token) return;
    box.people = more ? [...box.people, ...page.people] : page.people;
    box.next = page.next || null;
    box.total = page.total;
    if (kind === "following") for (const person of page.people) if (person.username) state.people.followed.add(person.username);
    const list = $(`#${kind}-list`);
    const rows = page.people.map((person) => personRow(person, kind));
    // Drawing the list again (a follow from elsewhere, someone new following you) keeps the keyboard on the same person's button.
    const focused = !more && list.contains(document.activeElement) && document.activeElement.closest(".ch-person");
    if (more) list.append(...rows);
    else list.replaceChildren(...rows);
    if (focused) {
      const again = rows.find((row) => row.dataset.username && row.dataset.username === focused.dataset.username);
      (again || rows[0])?.querySelector("button")?.focus({ preventScroll: true });
    }
    if (more && rows.length && !box.next) rows[0].querySelector("button, [tabindex]")?.focus();
    $(`#${kind}-count`).textContent = String(page.total);
    $(`#${kind}-empty`).hidden = box.people.length > 0;
    if (kind === "following") refreshFollowerButtons();
  } catch (error) {
    $("#follow-message").textContent = error.message;
    $("#follow-message").className = "message error";
  } finally {
    setBusy(button, false);
    button.hidden = !box.next;
  }
}

function personRow(person, kind) {
  const row = h("li", { class: "ch-person", "data-testid": "person", "data-username": person.username || "" },
    h("span", { class: "ch-avatar ch-avatar-sm", "aria-hidden": "true", text: person.initial }),
    h("div", { class: "ch-person-who" },
      h("span", { class: "ch-person-name", text: person.displayName }),
      h("span", { class: "ch-person-handle muted small", text: person.username ? `@${person.username}` : "Guest" })));
  if (person.username) {
    row.append(h("button", { class: "button ch-small ch-follow-toggle", type: "button", "data-testid": "follow-toggle",
      onclick: (event) => toggleFollow(person, event.currentTarget) }));
    renderFollowButton(row.lastChild, person, kind === "following" || state.people.followed.has(person.username));
  }
  return row;
}

function renderFollowButton(button, person, following) {
  button.dataset.following = String(following);
  button.textContent = following ? "Unfollow" : "Follow";
  button.classList.toggle("ch-primary", !following);
  button.setAttribute("aria-label", `${following ? "Unfollow" : "Follow"} ${person.displayName}`);
}

/** A follower's row says "Follow" or "Unfollow" by what this page knows of the people you follow. */
function refreshFollowerButtons() {
  for (const row of document.querySelectorAll("#followers-list .ch-person")) {
    const button = row.querySelector(".ch-follow-toggle");
    const person = state.people.followers.people.find((p) => p.username === row.dataset.username);
    if (button && person) renderFollowButton(button, person, state.people.followed.has(person.username));
  }
}

async function toggleFollow(person, button) {
  if (button.getAttribute("aria-busy") === "true") return;
  const following = button.dataset.following === "true";
  // The button stays focusable while it works, and says its new state in place ("Follow" ↔ "Unfollow").
  setBusy(button, true);
  try {
    const profile = following
      ? await api(`/api/social/follow/${enc(person.username)}`, { method: "DELETE" })
      : await api("/api/social/follow", { method: "POST", body: { username: person.username } });
    if (profile.isFollowing) state.people.followed.add(person.username);
    else state.people.followed.delete(person.username);
    // Every row of this person (they may be in both lists) says the same.
    for (const other of document.querySelectorAll(`.ch-person[data-username="${CSS.escape(person.username)}"] .ch-follow-toggle`)) {
      renderFollowButton(other, person, profile.isFollowing);
    }
    announce(profile.isFollowing ? `You now follow ${person.displayName}.` : `You no longer follow ${person.displayName}.`);
    await loadProfile();
    // Followed back from "Followers": they join "Following" too. (From "Following" itself the row stays, to undo.)
    if (!button.closest("#following-list")) loadPeople("following");
    loadFeed();
  } catch (error) {
    $("#follow-message").className = "message error";
    $("#follow-message").textContent = error.message;
  } finally {
    setBusy(button, false);
  }
}

async function submitFollow(event) {
  event.preventDefault();
  const input = $("#follow-username");
  const message = $("#follow-message");
  const button = $("#follow-submit");
  const username = input.value.trim().replace(/^@+/, "");
  message.className = "message";
  if (!username) {
    message.className = "message error";
    message.textContent = "Type the username of the person you want to follow.";
    input.focus();
    return;
  }
  if (button.getAttribute("aria-busy") === "true") return;
  setBusy(button, true);
  message.textContent = "";
  try {
    const profile = await api("/api/social/follow", { method: "POST", body: { username } });
    if (profile.person.username) state.people.followed.add(profile.person.username);
    message.className = "message ok";
    message.textContent = `You now follow ${profile.person.displayName}${profile.person.username ? ` (@${profile.person.username})` : ""}.`;
    input.value = "";
    await Promise.all([loadProfile(), loadPeople("following")]);
    refreshFollowerButtons();
    loadFeed();
  } catch (error) {
    message.className = "message error";
    message.textContent = error.message;
    input.focus();
  } finally {
    setBusy(button, false);
  }
}

/** Following someone by username, and the people lists' "Show more". */
export function wirePeople() {
  $("#follow-form").addEventListener("submit", submitFollow);
  $("#followers-more").addEventListener("click", () => loadPeople("followers", { more: true }));
  $("#following-more").addEventListener("click", () => loadPeople("following", { more: true }));
}
