// Loads the explorer's WebAssembly app (kwire.wasm, run by Go's
// wasm_exec.js) and registers the service worker that keeps the page
// working offline once loaded.
(function () {
  "use strict";
  function fail(msg) {
    var s = document.getElementById("status");
    if (s) { s.textContent = msg; s.className = "bad"; }
  }
  // start compiles kwire.wasm as soon as this script runs (compiling needs
  // no imports), while wasm_exec.js loads and the page is parsed, then
  // instantiates it with Go's imports and runs it once the document is
  // parsed (wasm_exec.js, deferred, has run by then).
  async function start() {
    if (!window.WebAssembly) {
      fail("This browser cannot run the explorer (no WebAssembly).");
      return;
    }
    // The schema bundle downloads, and is read, while kwire.wasm compiles,
    // instead of after: dom.Fetch takes its bytes (an ArrayBuffer) without
    // waiting, or, if they are not read yet, this promise of what it reads
    // of a response. Go does not wait for them to start.
    var name = "kafka-schemas.txt";
    var early = fetch(name).then(function (r) {
      if (!r.ok) return r;
      return r.arrayBuffer().then(function (b) {
        if (window.kwirePrefetch[name] === early) window.kwirePrefetch[name] = b;
        return {ok: true, status: r.status, arrayBuffer: function () { return Promise.resolve(b); }};
      });
    });
    early.catch(function () { /* dom.Fetch reports it */ });
    window.kwirePrefetch = {};
    window.kwirePrefetch[name] = early;
    var compiled = WebAssembly.compileStreaming(fetch("kwire.wasm")).catch(function () {
      // Served without application/wasm: compile from the bytes.
      return fetch("kwire.wasm").then(function (resp) {
        if (!resp.ok) throw new Error("kwire.wasm: HTTP " + resp.status);
        return resp.arrayBuffer();
      }).then(function (b) { return WebAssembly.compile(b); });
    });
    var parsed = document.readyState === "loading" ? new Promise(function (res) {
      document.addEventListener("DOMContentLoaded", res, {once: true});
    }) : Promise.resolve();
    var module;
    try {
      module = await compiled;
    } catch (e) {
      await parsed;
      fail("Could not load kwire.wasm: " + e.message);
      return;
    }
    await parsed;
    if (!window.Go) {
      fail("Could not load wasm_exec.js.");
      return;
    }
    var go = new Go();
    var instance;
    try {
      instance = await WebAssembly.instantiate(module, go.importObject);
    } catch (e) {
      fail("Could not start kwire.wasm: " + e.message);
      return;
    }
    go.run(instance);
  }
  // kwireReadDrop reads what a drop event carries, folders included (the
  // app's schema folders): it must be called during the drop event, and
  // resolves to {dirs: whether a folder was dropped, files: [[path,
  // Uint8Array], ...]}. It stops at 10,000 files or 64 MB.
  window.kwireReadDrop = function (dt) {
    var maxFiles = 10000, maxBytes = 64 << 20, total = 0, out = [];
    var entries = Array.prototype.map.call(dt.items || [], function (it) {
      return it.webkitGetAsEntry ? it.webkitGetAsEntry() : null;
    }).filter(Boolean);
    var dirs = entries.some(function (e) { return e.isDirectory; });
    function readFile(entry) {
      return new Promise(function (res, rej) {
        entry.file(function (f) {
          if (out.length >= maxFiles || total + f.size > maxBytes) { rej(new Error("too many files or bytes dropped (at most 10,000 files, 64 MB)")); return; }
          total += f.size;
          f.arrayBuffer().then(function (b) { out.push([entry.fullPath.replace(/^\//, ""), new Uint8Array(b)]); res(); }, rej);
        }, rej);
      });
    }
    function readDir(entry) {
      return new Promise(function (res, rej) {
        var r = entry.createReader(), all = [];
        (function next() {
          r.readEntries(function (es) {
            if (!es.length) { Promise.all(all.map(walk)).then(res, rej); return; }
            all.push.apply(all, es);
            next();
          }, rej);
        })();
      });
    }
    function walk(e) { return e.isDirectory ? readDir(e) : readFile(e); }
    if (!entries.length) {
      return Promise.all(Array.prototype.map.call(dt.files || [], function (f) {
        return f.arrayBuffer().then(function (b) { out.push([f.name, new Uint8Array(b)]); });
      })).then(function () { return {dirs: false, files: out}; });
    }
    return Promise.all(entries.map(walk)).then(function () { return {dirs: dirs, files: out}; });
  };
  start();
  // The service worker is registered once the page is drawn (the app sets
  // data-ready), or after 10 s if it never is: installing it fetches and
  // caches the explorer's files, kwire.wasm included, which on a first
  // visit would compete with the page's own start.
  if ("serviceWorker" in navigator && location.protocol.indexOf("http") === 0) {
    var registered = false;
    var register = function () {
      if (registered) return;
      registered = true;
      navigator.serviceWorker.register("sw.js").catch(function () { /* offline use is optional */ });
    };
    new MutationObserver(function (_, obs) {
      if (document.body && document.body.hasAttribute("data-ready")) {
        obs.disconnect();
        register();
      }
    }).observe(document.documentElement, {attributes: true, subtree: true, attributeFilter: ["data-ready"]});
    setTimeout(register, 10000);
  }
})();
