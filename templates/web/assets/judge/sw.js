// The judge's page's service worker (scope /j/): the page reloads with no network. The page's
// shell is taken from the network when there is one and kept; the page's files are answered
// from the cache at once and refreshed behind; the API's GET answers are the network's, or the
// last kept ones offline. Nothing is sent from here: the outbox lives in the page (outbox.js).

const FILES = "judge-files-v1";
const PAGES = "judge-pages";
const ANSWERS = "judge-api";
const KEPT = [FILES, PAGES, ANSWERS];
// the form's files; the live mode's (game.js, live.js, live.css) are kept the first time it is opened,
// so that a judge who never uses it never downloads it (the page's weight: ≤ 100 KB)
const ASSETS = ["judge.js", "judge.css", "form.js", "outbox.js", "vendor/htm-preact.js", "vendor/idb-keyval.js"]
  .map((name) => `/assets/judge/${name}`);

self.addEventListener("install", (event) => {
  // each file alone: one that fails must not stop the rest
  // (force-cache: the page has just loaded them; they come from the browser's cache, not again over the air)
  event.waitUntil(caches.open(FILES).then((cache) => Promise.all(ASSETS.map((a) => cache.add(new Request(a,
    { cache: "force-cache" })).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith("judge-") && !KEPT.includes(n))
    .map((n) => caches.delete(n)))).then(() => self.clients.claim()));
});

async function networkFirst(request, cacheName) {
  try {
    const response = await fetch(request);
    if (response.status === 200) {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy));
    }
    return response;
  } catch (error) {
    const kept = await caches.match(request, { ignoreSearch: true, ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

async function keptFirst(request) {
  const cache = await caches.open(FILES);
  const kept = await cache.match(request, { ignoreSearch: true });
  const fresh = fetch(request).then((response) => {
    if (response.status === 200) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    fresh.catch(() => null);
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/assets/judge/")) {
    event.respondWith(keptFirst(request));
  } else if (/^\/j\/[^/]+\/api\//.test(url.pathname)) {
    if (request.headers.has("If-None-Match")) return; // the page asks the server itself: 304 or news
    event.respondWith(networkFirst(request, ANSWERS));
  } else if (request.mode === "navigate" && url.pathname.startsWith("/j/")) {
    event.respondWith(networkFirst(request, PAGES));
  }
});
