// Loads the explorer's WebAssembly app (kwire.wasm, run by Go's
// wasm_exec.js) and registers the service worker that keeps the page
// working offline once loaded.
(function () {
  "use strict";
  function fail(msg) {
    var s = document.getElementById("status");
    if (s) { s.textContent = msg; s.className = "bad"; }
  }
  async function start() {
    if (!window.WebAssembly || !window.Go) {
      fail("This browser cannot run the explorer (no WebAssembly).");
      return;
    }
    var go = new Go();
    var result;
    try {
      result = await WebAssembly.instantiateStreaming(fetch("kwire.wasm"), go.importObject);
    } catch (e) {
      // Served without application/wasm: compile from the bytes.
      try {
        var resp = await fetch("kwire.wasm");
        if (!resp.ok) throw new Error("kwire.wasm: HTTP " + resp.status);
        result = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject);
      } catch (e2) {
        fail("Could not load kwire.wasm: " + e2.message);
        return;
      }
    }
    go.run(result.instance);
  }
  start();
  if ("serviceWorker" in navigator && location.protocol.indexOf("http") === 0) {
    navigator.serviceWorker.register("sw.js").catch(function () { /* offline use is optional */ });
  }
})();
