// Referee entry, progressive enhancement only: without this script every field shows and the
// server ignores the ones the chosen result does not take.
(function () {
  "use strict";
  document.querySelectorAll("form[data-entry]").forEach(function (form) {
    var parts = form.querySelectorAll("[data-results]");
    function result() {
      var checked = form.querySelector('input[name="result"]:checked');
      return checked ? checked.value : "";
    }
    function update() {
      var now = result();
      parts.forEach(function (part) {
        var wanted = part.dataset.results.split(" ").filter(Boolean);
        // A part the engine refused stays visible, so that its message can be read.
        var refused = part.querySelector(".errors") !== null || part.classList.contains("invalid");
        part.hidden = now !== "" && wanted.length > 0 && wanted.indexOf(now) < 0 && !refused;
      });
    }
    form.addEventListener("change", function (event) {
      if (event.target && event.target.name === "result") update();
    });
    update();
  });
})();
