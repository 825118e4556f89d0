// The static site's service worker (export-web writes it to the site's root as sw.js, after a line naming this
// export's VERSION and SHELL, the files every visit needs). It keeps the page, the solver and site.json in a cache
// of this export (dropped when a newer export takes over), and answers from it first, so after one visit the game
// starts, plays and scores with the network off. Lexicons the player opened are kept by the page itself
// (local_api.js, cache "boggle-i18n-lexicons"; their file names carry their sha256, so a cached one is never stale).
/* global VERSION, SHELL */
"use strict";
const SHELL_CACHE = `boggle-i18n-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name.startsWith("boggle-i18n-shell-") && name !== SHELL_CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    // A page address carries the game in its query (a challenge link): any of them is the one cached page.
    const hit = await caches.match(request, { ignoreSearch: request.mode === "navigate" });
    return hit || fetch(request);
  })());
});
