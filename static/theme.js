/* All Fives: the theme this phone chose (system, light or dark), set before the first paint.
   Loaded without defer in <head> so the page never flashes the wrong colours; the switch that
   changes it is in app.js. An unknown or missing choice follows the system. */
(function () {
  "use strict";
  var choice = null;
  try {
    choice = JSON.parse(window.localStorage.getItem("allfives.theme"));
  } catch (e) { /* storage off, or not ours */ }
  var root = document.documentElement;
  if (choice === "light" || choice === "dark") {
    root.setAttribute("data-theme", choice);
  } else {
    root.removeAttribute("data-theme");
  }
})();
