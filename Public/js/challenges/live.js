// Challenges: the feed's live stream (reconnecting through js/lib/live.js) and the status it shows.
import { $ } from "../lib/dom.js";
import { keepLive } from "../lib/live.js";
import { loadOverview } from "./cards.js";
import { catchUpFeed, receiveItem, removeItem, updateItem } from "./feed.js";
import { loadPeople, loadProfile } from "./people.js";
import { state } from "./state.js";

// MARK: Live updates

function setLiveStatus(which) {
  const status = $("#live-status");
  const text = which === "live" ? "Live" : which === "reconnecting" ? "Reconnecting…" : "";
  if (status.textContent !== text) status.textContent = text;
  status.dataset.state = which;
}

/** Opens the feed's stream: new posts, changed and removed ones, and new followers arrive while the page is open. */
export function connectLive() {
  state.live = keepLive("/api/feed/events", {
    onState: setLiveStatus,
    onOpen: () => {
      catchUpFeed();
      // The server is back: a column that could not load at first loads now, without a reload.
      if (state.overviewFailed) {
        loadOverview().then(() => { state.overviewFailed = false; }).catch(() => null);
      }
    },
    events: {
      activity: (item) => {
        if (!item || !item.id) return;
        // A post shown again after review may be on the page already (its author's): then it is brought up to date.
        if (state.feed.entries.has(item.id)) updateItem(item);
        else receiveItem(item, { live: true });
        // Someone followed you: the counts and the list of followers move.
        if (item.type === "follow" && state.people.loaded) {
          loadProfile();
          loadPeople("followers");
        }
      },
      changed: (item) => {
        if (!item || !item.id) return;
        const before = state.feed.entries.get(item.id)?.item.status;
        updateItem(item);
        // One's own completion reviewed (revoked: points paid back, the streak counted again): the figures follow.
        if (item.isMine && before && before !== item.status) loadOverview().catch(() => null);
      },
      removed: (data) => {
        if (data && data.id) removeItem(data.id);
      },
    },
  });
}
