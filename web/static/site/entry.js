// Referee entry, progressive enhancement only: without this script every field shows and the
// server ignores the ones the chosen result does not take.
(function () {
  "use strict";
  var text = {};
  var words = document.getElementById("offline-text");
  if (words) text = JSON.parse(words.textContent);

  document.querySelectorAll("form[data-entry]").forEach(function (form) {
    var parts = form.querySelectorAll("[data-results]");
    // The han that take fu, and from which fu each is a mangan under this event's rules (web/chips.py).
    var fuHan = (form.dataset.fuHan || "").split(" ").filter(Boolean);
    var mangan = JSON.parse(form.dataset.mangan || "{}");

    function checked(name) {
      var input = form.querySelector('input[name="' + name + '"]:checked');
      return input ? input.value : "";
    }
    function refused(part) {
      // A part the engine refused stays visible, so that its message can be read.
      return part.querySelector(".errors") !== null || part.classList.contains("invalid");
    }
    function showResults() {
      var now = checked("result");
      parts.forEach(function (part) {
        var wanted = part.dataset.results.split(" ").filter(Boolean);
        part.hidden = now !== "" && wanted.length > 0 && wanted.indexOf(now) < 0 && !refused(part);
      });
    }
    // Each win's fu row (fu, win2_fu, …): shown only for a han whose value the fu can change.
    function showFu() {
      if (!fuHan.length) return;
      form.querySelectorAll('input[type=radio][value="30"]').forEach(function (input) {
        if (!/(^|_)fu$/.test(input.name)) return;
        var part = input.closest(".field");
        var han = checked(input.name.replace(/fu$/, "han"));
        var needs = han !== "" && fuHan.indexOf(han) >= 0;
        part.classList.toggle("no-fu", !needs && !refused(part));
        var from = needs ? mangan[han] : undefined;
        part.querySelectorAll('input[type=radio]').forEach(function (chip) {
          chip.closest("label").classList.toggle("mangan", from !== undefined && Number(chip.value) >= from);
        });
        var hint = part.querySelector("legend [data-hint]");
        if (!hint) {
          hint = document.createElement("small");
          hint.dataset.hint = "";
          hint.className = "muted";
          part.querySelector("legend").append(" ", hint);
        }
        hint.textContent = from !== undefined && text.mangan ? text.mangan.replace("%s", from) : "";
      });
    }
    function update() {
      showResults();
      showFu();
    }
    function clear(name) {
      form.querySelectorAll('input[name="' + name + '"]').forEach(function (input) { input.checked = false; });
    }
    form.addEventListener("change", function (event) {
      var target = event.target;
      if (!target || !target.name) return update();
      var han = /(^|_)han$/.test(target.name), yakuman = /(^|_)yakuman$/.test(target.name);
      // Han and yakuman of one win exclude each other: a tap on one clears the other.
      if (han && target.checked) clear(target.name.replace(/han$/, "yakuman"));
      if (yakuman && target.checked) clear(target.name.replace(/yakuman$/, "han"));
      // A fu the page no longer shows is not sent either: the value cannot depend on it.
      var now = han ? checked(target.name) : "";
      if (yakuman || han && fuHan.length && fuHan.indexOf(now) < 0) clear(target.name.replace(/(han|yakuman)$/, "fu"));
      if (target.name === "result" || han || yakuman) update();
    });
    // A second tap on a chosen han, fu or yakuman takes it back (a radio button alone cannot be emptied), so
    // that the value can be left to the tiles instead. Players and the result stay chosen.
    var wasChecked = null;
    form.addEventListener("pointerdown", function (event) {
      var label = event.target.closest && event.target.closest("label");
      var input = label && label.querySelector("input[type=radio]");
      wasChecked = input && input.checked && /(^|_)(han|fu|yakuman)$/.test(input.name) ? input : null;
    });
    form.addEventListener("click", function (event) {
      var input = event.target;
      if (input !== wasChecked || input.type !== "radio") return;
      wasChecked = null;
      input.checked = false;
      input.dispatchEvent(new Event("change", {bubbles: true}));
    });
    // The same by keyboard: Space on the chosen han, fu or yakuman takes it back.
    form.addEventListener("keydown", function (event) {
      var input = event.target;
      if (event.key !== " " || input.type !== "radio" || !input.checked || !/(^|_)(han|fu|yakuman)$/.test(input.name)) return;
      event.preventDefault();
      input.checked = false;
      input.dispatchEvent(new Event("change", {bubbles: true}));
    });
    // The draw counter (the solo game): − and + move the number a thumb would otherwise type, within its bounds.
    form.querySelectorAll("[data-counter]").forEach(function (box) {
      var input = box.querySelector("input");
      box.querySelectorAll("button[data-step]").forEach(function (button) {
        button.hidden = false;
        button.addEventListener("click", function () {
          var now = parseInt(input.value, 10);
          var next = (isNaN(now) ? 0 : now) + Number(button.dataset.step);
          var least = input.min === "" ? -Infinity : Number(input.min);
          var most = input.max === "" ? Infinity : Number(input.max);
          input.value = String(Math.min(most, Math.max(least, next)));
          input.dispatchEvent(new Event("change", {bubbles: true}));
        });
      });
    });
    update();
  });
})();
