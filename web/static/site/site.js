// Progressive enhancement only: every page reads fully without this script.
(function () {
  "use strict";
  // [data-poll]: reload this block's HTML every data-every seconds (the standings while a round is played).
  // A block that live.js keeps up (the page has a #live-note) is read again when the event changes, not by time.
  var live = document.getElementById("live-note") !== null && !!window.DOMParser;
  document.querySelectorAll("[data-poll]").forEach(function (box) {
    if (live && box.hasAttribute("data-live-region")) return;
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
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      var cards = document.querySelectorAll(input.dataset.filter);  // read now: live.js may have replaced them
      cards.forEach(function (card) { card.classList.toggle("hidden", q !== "" && card.dataset.names.indexOf(q) < 0); });
    });
  });
  // #hand-N (a hand linked from a player's statistics) names the hand's card; where the cards give way to the
  // wide table, its row is the one to show.
  var linked = /^#hand-([0-9]+)$/.exec(location.hash);
  var row = linked && document.getElementById("hand-" + linked[1] + "-row");
  if (row && row.offsetParent !== null) row.scrollIntoView();
  // [data-confirm]: an organiser's one-tap action that cannot be taken back asks first.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
  // [data-submit]: a choice that sends its form at once (the language); the form's button without script.
  document.querySelectorAll("[data-submit]").forEach(function (field) {
    field.addEventListener("change", function () { field.form.submit(); });
  });
  // [data-select]: a link to copy, selected whole at a tap.
  document.querySelectorAll("[data-select]").forEach(function (field) {
    field.addEventListener("click", function () { field.select(); });
  });
  // time.countdown[data-ends]: the round's time left, counted down each second; the server's time is the fact.
  function tick() {
    document.querySelectorAll("time.countdown[data-ends]").forEach(function (clock) {  // live.js may add one
      var left = Math.round((Date.parse(clock.dataset.ends) - Date.now()) / 1000);
      var over = left <= 0;
      left = Math.abs(left);
      var h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, s = left % 60;
      var text = (h ? h + ":" + String(m).padStart(2, "0") : m) + ":" + String(s).padStart(2, "0");
      // data-over-format: "time is up (+%s)" in the reader's language (full-width brackets in Japanese and Chinese)
      var late = clock.dataset.overFormat ? clock.dataset.overFormat.replace("%s", text)
        : (clock.dataset.over || "0:00") + " (+" + text + ")";
      clock.textContent = over ? late : text;
      clock.classList.toggle("over", over);
    });
  }
  if (document.querySelector("time.countdown[data-ends]") || live) { tick(); setInterval(tick, 1000); }
})();
