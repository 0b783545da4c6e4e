// Progressive enhancement only: every page reads fully without this script.
(function () {
  "use strict";
  // [data-poll]: reload this block's HTML every data-every seconds (the standings while a round is played).
  document.querySelectorAll("[data-poll]").forEach(function (box) {
    var every = Math.max(5, parseInt(box.dataset.every || "15", 10)) * 1000;
    setInterval(function () {
      if (document.hidden) return;
      fetch(box.dataset.poll, { headers: { "X-Requested-With": "fetch" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null && html !== box.innerHTML) box.innerHTML = html; })
        .catch(function () {});
    }, every);
  });
  // [data-filter]: hide the cards whose names do not contain what is typed ("where do I sit?").
  document.querySelectorAll("[data-filter]").forEach(function (input) {
    var cards = document.querySelectorAll(input.dataset.filter);
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      cards.forEach(function (card) { card.classList.toggle("hidden", q !== "" && card.dataset.names.indexOf(q) < 0); });
    });
  });
})();
