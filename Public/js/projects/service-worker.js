// Registers the Projects page's service worker (Public/projects-sw.js), which keeps the page and the answers it
// draws from so a reload without a connection opens it. The first time, this page was loaded before the worker
// existed: once the worker serves it, `refresh` loads the person and the lists again through it, so they are
// kept too. `document.body.dataset.offlineReady` says when a reload would open offline.
export function keepForOffline(refresh) {
  if (!("serviceWorker" in navigator)) return;
  const workers = navigator.serviceWorker;
  const ready = () => {
    document.body.dataset.offlineReady = "true";
  };
  if (workers.controller) ready();
  else {
    workers.addEventListener("controllerchange", () => {
      Promise.resolve(refresh()).catch(() => {}).finally(ready);
    }, { once: true });
  }
  workers.register("/projects-sw.js", { scope: "/projects" }).catch(() => {
    // Not allowed here (a plain-http address other than localhost, a private window): online as before.
  });
}
