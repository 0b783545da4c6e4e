// The standings page: a points-per-round panel a reader opened stays open when the polled table is replaced.
(function () {
  "use strict";
  var box = document.getElementById("standings");
  if (!box) return;
  var open = {};
  box.addEventListener("toggle", function (event) {  // toggle does not bubble: listen while it is captured
    var details = event.target;
    if (details.id) { if (details.open) open[details.id] = true; else delete open[details.id]; }
  }, true);
  new MutationObserver(function () {
    Object.keys(open).forEach(function (id) {
      var details = document.getElementById(id);
      if (details && box.contains(details)) details.open = true;
    });
  }).observe(box, { childList: true });
})();
