// Registers the Projects page's service worker (Public/projects-sw.js), which keeps the page and the answers it
// draws from so a reload without a connection opens it. A page loaded before the worker served it (the first
// visit) has fetched its answers past the worker: the worker is asked to fetch `paths()` itself and keep them —
// the page draws nothing twice. `document.body.dataset.offlineReady` says when a reload would open offline.
import { apiHeaders } from "../lib/api.js";

export function keepForOffline(paths) {
  if (!("serviceWorker" in navigator)) return;
  const workers = navigator.serviceWorker;
  const ready = () => {
    document.body.dataset.offlineReady = "true";
  };
  if (workers.controller) ready();
  else {
    workers.ready.then((registration) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = ready;
      // The page's own API headers (the person's time zone among them), so the kept answers are the ones it asks for.
      registration.active.postMessage({ keep: paths(), headers: apiHeaders() }, [channel.port2]);
    });
  }
  workers.register("/projects-sw.js", { scope: "/projects" }).catch(() => {
    // Not allowed here (a plain-http address other than localhost, a private window): online as before.
  });
}
