// The explorer's service worker: network first, so a deploy is seen at
// once, falling back to the last copy when offline. It caches only the
// explorer's own files, on first load and on every successful fetch.
"use strict";
var CACHE = "kwire-explorer-v1";
var CORE = ["index.html", "kwire.css", "theme.js", "app.js", "wasm_exec.js", "kwire.wasm", "icon.svg"];

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(CORE); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (e) {
  e.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (e) {
  var req = e.request;
  var url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  var scope = new URL(self.registration.scope);
  var name = url.pathname.slice(scope.pathname.length);
  var isCore = name === "" || CORE.indexOf(name) >= 0;
  if (!isCore) return;
  var key = name === "" ? "index.html" : name;
  e.respondWith(fetch(req).then(function (resp) {
    if (!resp.ok) return resp;
    return caches.open(CACHE).then(function (c) {
      return c.match(key).then(function (hit) {
        // The network has the copy already cached (same ETag): answer with
        // the cached one. It is stored decoded, so the page reads
        // kwire.wasm's 6.4 MB without inflating the HTTP cache's gzip
        // again (in Chromium 156 on a busy machine its body arrived in
        // about 50 ms rather than 115). Chromium keeps no compiled code
        // for it either way: no wasm code cache was written for
        // kwire.wasm, compiled lazily, even after seconds on the page.
        if (hit && same(hit, resp)) {
          if (resp.body) resp.body.cancel();
          return hit;
        }
        c.put(key, resp.clone());
        return resp;
      });
    });
  }).catch(function () {
    return caches.match(name === "" ? "index.html" : name).then(function (hit) {
      return hit || new Response("offline, and this file was never loaded", { status: 503 });
    });
  }));
});

// same reports whether two responses are the same file by their ETags.
function same(a, b) {
  var ea = a.headers.get("ETag"), eb = b.headers.get("ETag");
  return !!ea && ea === eb && ea.indexOf("W/") !== 0;
}
