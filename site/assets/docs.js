// docs.js: the docs site's only script (no inline script, CSP 'self').
// It filters the API index and hover-links each byte view with its object
// tree. Without it every row shows and the pages read the same.
(function () {
  "use strict";
  var q = document.getElementById("q");
  if (q) {
    var box = document.getElementById("search");
    var count = document.getElementById("count");
    var rows = document.querySelectorAll("#apis tbody tr");
    box.hidden = false;
    var filter = function () {
      var words = q.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (r) {
        var text = r.getAttribute("data-search");
        var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
        r.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = words.length ? shown + " of " + rows.length : "";
    };
    q.addEventListener("input", filter);
    filter();
  }
  document.querySelectorAll(".msg").forEach(function (sec) {
    var lit = [];
    var clear = function () {
      lit.forEach(function (e) { e.classList.remove("hl"); });
      lit = [];
    };
    var light = function (e) { e.classList.add("hl"); lit.push(e); };
    sec.addEventListener("mouseover", function (ev) {
      var el = ev.target.closest("[data-n]");
      if (!el || !sec.contains(el)) return;
      clear();
      if (el.classList.contains("tn")) {
        // A tree line lights its bytes.
        var lo = +el.getAttribute("data-o"), hi = lo + +el.getAttribute("data-s");
        light(el);
        if (el.classList.contains("rel")) return;
        sec.querySelectorAll(".hex [data-o]").forEach(function (b) {
          var o = +b.getAttribute("data-o");
          if (o >= lo && o < hi) light(b);
        });
      } else {
        // A byte lights its innermost node and that node's bytes.
        var n = el.getAttribute("data-n");
        sec.querySelectorAll('[data-n="' + n + '"]').forEach(light);
      }
    });
    sec.addEventListener("mouseleave", clear);
  });
})();
