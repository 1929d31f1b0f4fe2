/* All Fives service worker: the app's shell and static files when the network is slow or gone.
   Served from the site root (so its scope is the whole app) by webapp/shell.py, which fills in
   the version: a hash of the static files, so a changed file brings a fresh cache, and the
   language: pages are kept in the language they were read in, so a device that switches
   language gets a new worker (base.html names it with the language) and none of the pages
   kept in the old one.

   - static files: cache first (their URLs do not change, the cache name does);
   - pages (navigations): network first, with a timeout; then the cached copy of that page;
     then the offline page;
   - everything else (posts, htmx fragments, the API): straight to the network. A failed play is
     kept and sent again by app.js, not here. */
"use strict";

var VERSION = {{ version|tojson }};
var STATIC_CACHE = "allfives-static-" + VERSION;
var LANGUAGE = {{ language|tojson }};
var PAGE_CACHE = "allfives-pages-" + VERSION + "-" + LANGUAGE;
var OFFLINE = {{ offline_url|tojson }};
var SHELL = {{ shell|tojson }};
var STATIC_PREFIX = {{ static_prefix|tojson }};
var PAGE_TIMEOUT_MS = 4000;
var PAGES_KEPT = 40; // the last pages seen (the game screens of an evening), oldest dropped

self.addEventListener("install", function (event) {
  event.waitUntil(Promise.all([
    caches.open(STATIC_CACHE).then(function (cache) { return cache.addAll(SHELL.static); }),
    caches.open(PAGE_CACHE).then(function (cache) { return cache.addAll(SHELL.pages); }),
  ]).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("allfives-") === 0 && name !== STATIC_CACHE && name !== PAGE_CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function fromStatic(request) {
  return caches.open(STATIC_CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

function keepPage(cache, request, response) {
  return cache.put(request, response).then(function () {
    return cache.keys();
  }).then(function (keys) {
    var shell = SHELL.pages.map(function (path) { return new URL(path, self.location).href; });
    var extra = keys.filter(function (key) { return shell.indexOf(key.url) < 0; });
    return Promise.all(extra.slice(0, Math.max(0, extra.length - PAGES_KEPT)).map(function (key) {
      return cache.delete(key);
    }));
  });
}

function fromNetworkFirst(request) {
  return caches.open(PAGE_CACHE).then(function (cache) {
    var fallback = function () {
      return cache.match(request).then(function (hit) {
        return hit || cache.match(OFFLINE);
      });
    };
    return new Promise(function (resolve) {
      var settled = false;
      var timer = setTimeout(function () {
        fallback().then(function (hit) {
          if (hit && !settled) { settled = true; resolve(hit); }
        });
      }, PAGE_TIMEOUT_MS);
      fetch(request).then(function (response) {
        if (response.ok && response.type === "basic") keepPage(cache, request, response.clone());
        if (!settled) { settled = true; clearTimeout(timer); resolve(response); }
      }).catch(function () {
        clearTimeout(timer);
        fallback().then(function (hit) {
          if (!settled) { settled = true; resolve(hit || Response.error()); }
        });
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(fromStatic(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fromNetworkFirst(request));
  }
});
