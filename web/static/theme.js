// The colour theme: the system's unless the user picked one (kept in
// localStorage). Loaded before the page is drawn, so there is no flash.
(function () {
  "use strict";
  var root = document.documentElement;
  var saved = null;
  try { saved = localStorage.getItem("kwire-theme"); } catch (e) { /* storage off */ }
  if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  function current() {
    var t = root.getAttribute("data-theme");
    if (t) return t;
    return window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  document.addEventListener("DOMContentLoaded", function () {
    var b = document.getElementById("theme");
    if (!b) return;
    b.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem("kwire-theme", next); } catch (e) { /* storage off */ }
    });
  });
})();
