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
    // The rows a chosen value makes moot: the yakuman row while a han that takes fu is chosen (the fu row takes its
    // place; a second tap on the han brings it back), pao until a yakuman is chosen, a further winner's value until
    // he is chosen.
    function toggle(part, hide) {
      if (part) part.classList.toggle("moot", hide && !refused(part) && !part.querySelector('input:checked:not([value=""])'));
    }
    function showMoot() {
      var before = true;  // a further winner's block shows once the winner before it is chosen
      form.querySelectorAll("[data-win]").forEach(function (win) {
        var chosen = win.querySelector('input[name$="_winner"]:checked');
        var on = Boolean(chosen && chosen.value !== "");
        win.classList.toggle("moot", !before && !on && !win.querySelector(".errors"));
        win.querySelectorAll(".field").forEach(function (part) {
          if (!part.querySelector('input[name$="_winner"]')) toggle(part, !on);
        });
        before = on;
      });
      form.querySelectorAll('input[type=radio][value="1"]').forEach(function (input) {
        var match = /^(win\d_)?yakuman$/.exec(input.name);
        if (!match) return;
        var prefix = match[1] || "";
        var off = prefix !== "" && checked(prefix + "winner") === "";
        toggle(input.closest(".field"), off || fuHan.indexOf(checked(prefix + "han")) >= 0);
        var pao = form.querySelector('[name="' + prefix + 'pao"]');
        toggle(pao && pao.closest(".field"), off || checked(prefix + "yakuman") === "");
      });
    }
    // A multiple ron: once a further winner is chosen, the value rows of the wins before it fold into one line
    // (a tap unfolds them), so that the next winner's chips come on the first screen.
    var unfolded = {};
    function legend(part) {
      var words = part.querySelector("legend");
      return words && words.firstChild ? words.firstChild.textContent.trim() : "";
    }
    function fold(prefix, later) {
      var han = form.querySelector('[name="' + prefix + 'han"]');
      var winner = form.querySelector('input[name="' + (prefix || "") + 'winner"]:checked');
      if (!han || !winner) return;
      var parts = ["han", "fu", "yakuman"].map(function (name) {
        var input = form.querySelector('[name="' + prefix + name + '"]');
        return input && input.closest(".field");
      }).filter(Boolean);
      var chosen = parts.filter(function (part) { return part.querySelector("input:checked"); });
      var done = checked(prefix + "yakuman") !== "" || checked(prefix + "han") !== "" &&
        (fuHan.indexOf(checked(prefix + "han")) < 0 || checked(prefix + "fu") !== "");
      var folded = later && done && !unfolded[prefix] && !parts.some(refused);
      var line = form.querySelector('[data-folded="' + prefix + '"]');
      if (!line) {
        line = document.createElement("button");
        line.type = "button";
        line.className = "secondary folded-win";
        line.dataset.folded = prefix;
        line.addEventListener("click", function () {
          unfolded[prefix] = true;
          update();
          var first = parts[0].querySelector("input:checked") || parts[0].querySelector("input");
          if (first) first.focus();
        });
        parts[0].before(line);
      }
      line.hidden = !folded;
      line.textContent = winner.closest("label").textContent.trim() + ": " + chosen.map(function (part) {
        return legend(part) + " " + part.querySelector("input:checked").closest("label").textContent.trim();
      }).join(", ");
      parts.forEach(function (part) { part.classList.toggle("folded", folded); });
    }
    function showFolded(ron) {
      var prefixes = [""];
      form.querySelectorAll("[data-win]").forEach(function (win) {
        var input = win.querySelector('input[name$="_winner"]');
        if (input) prefixes.push(input.name.replace(/winner$/, ""));
      });
      prefixes.forEach(function (prefix, k) {
        var later = ron && prefixes.slice(k + 1).some(function (next) { return checked(next + "winner") !== ""; });
        fold(prefix, later);
      });
    }
    function update() {
      showResults();
      showFu();
      showMoot();
      showFolded(checked("result") === "ron");
    }
    // A han that takes fu starts at 30 fu, the commonest: one tap fewer for most hands. The chip is marked as
    // chosen for the referee; a tap on it keeps it, a tap on another fu takes that one.
    function defaultFu(hanName) {
      var fuName = hanName.replace(/han$/, "fu");
      var han = checked(hanName);
      if (!fuHan.length || fuHan.indexOf(han) < 0 || checked(fuName) !== "") return;
      var thirty = form.querySelector('input[name="' + fuName + '"][value="30"]');
      if (!thirty) return;
      thirty.checked = true;
      thirty.dataset.auto = "";
    }
    // At a draw, whoever declared riichi is tenpai (a noten riichi is a chombo): their tenpai chip comes checked.
    function riichiTenpai() {
      if (checked("result") !== "draw") return;
      form.querySelectorAll('input[name="riichi"]:checked').forEach(function (box) {
        var tenpai = form.querySelector('input[name="tenpai"][value="' + box.value + '"]');
        if (tenpai) tenpai.checked = true;
      });
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
      if (han && target.checked) defaultFu(target.name);
      if (/(^|_)fu$/.test(target.name)) form.querySelectorAll('input[name="' + target.name + '"]').forEach(function (input) {
        delete input.dataset.auto;
      });
      if (target.name === "result" || target.name === "riichi") riichiTenpai();
      if (/_winner$/.test(target.name)) unfolded = {};
      if (target.name === "result" || han || yakuman || /_winner$/.test(target.name)) update();
    });
    // A second tap on a chosen han, fu or yakuman takes it back (a radio button alone cannot be emptied), so
    // that the value can be left to the tiles instead. Players and the result stay chosen.
    var wasChecked = null;
    form.addEventListener("pointerdown", function (event) {
      var label = event.target.closest && event.target.closest("label");
      var input = label && label.querySelector("input[type=radio]");
      // A fu the page chose by itself (30) is kept by a tap: the referee confirms it rather than takes it back.
      wasChecked = input && input.checked && input.dataset.auto === undefined &&
        /(^|_)(han|fu|yakuman)$|^win\d_winner$/.test(input.name) ? input : null;
    });
    form.addEventListener("click", function (event) {
      var input = event.target;
      if (input && input.dataset && input.dataset.auto !== undefined) delete input.dataset.auto;
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
    form.querySelectorAll('[data-win] input[name$="_winner"][value=""]').forEach(function (input) {
      input.closest("label").parentElement.hidden = true;
    });
    update();
  });
})();
