// The referee's entry page without a network: the last copy of each entry page and the site's
// static files are kept, so the page opens (and queues hands, see offline.js) while the venue's
// network is down. Nothing else is cached: every other page and every POST go to the network.
"use strict";

var CACHE = "mahjong-entry-v2";  // v2: static names carry their hash; the plain-named copies go
var ENTRY = /^\/games\/\d+\/entry\/$/;

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function entryPage(request, url) {
  // Network first: the page shows the hands as they are; its last good copy when there is no network.
  var key = url.origin + url.pathname;
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(key).then(function (cached) {
      return cached || new Response("<h1>Offline</h1><p>This entry page was never opened on this device.</p>",
        {status: 503, headers: {"Content-Type": "text/html; charset=utf-8"}});
    });
  });
}

function staticFile(request) {
  // The cached copy at once, refreshed from the network for next time.
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (cached) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        fresh.catch(function () { /* offline: the cached copy serves */ });
        return cached;
      }
      return fresh;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && ENTRY.test(url.pathname)) {
    event.respondWith(entryPage(request, url));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFile(request));
  }
});
