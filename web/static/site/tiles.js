// The entry page's tile picker (templates/pages/_entry_tiles.html): a tap on a tile adds it, a tap on a tile of
// the hand takes it out, and the last tile of the hand tapped is the winning tile. The picker writes the tile
// notation fields the form has always posted (concealed, win, melds, dora, ura; MCR's flowers), so the server,
// the offline queue and the API read what a referee would have typed. Typing in those fields moves the picker
// too. Without this script the picker stays hidden and the fields are typed.
(function () {
  "use strict";
  // A dora indicator and one more per kan: the picker's own bound (the engine counts whatever it is given).
  var INDICATORS = 5;
  var words = document.getElementById("tile-text");
  var text = words ? JSON.parse(words.textContent) : {};

  // A red five (0m) is a five of its kind for the counts and the order.
  function kindOf(code) { return code.charAt(0) === "0" ? "5" + code.charAt(1) : code; }
  function rank(code) { return "mpsz".indexOf(code.charAt(1)) * 10 + Number(kindOf(code).charAt(0)); }
  function parse(value) {
    var tiles = [];
    String(value || "").replace(/\s+/g, "").replace(/(\d+)([mpsz])/g, function (all, digits, suit) {
      digits.split("").forEach(function (digit) {
        if (suit !== "z" || (digit >= "1" && digit <= "7")) tiles.push(digit + suit);
      });
      return "";
    });
    return tiles;
  }
  // ["8p", "3m", "2m"] -> "23m8p": each suit's digits in order, then its letter.
  function notation(tiles) {
    var out = "";
    "mpsz".split("").forEach(function (suit) {
      var mine = tiles.filter(function (t) { return t.charAt(1) === suit; }).sort(function (a, b) { return rank(a) - rank(b); });
      if (mine.length) out += mine.map(function (t) { return t.charAt(0); }).join("") + suit;
    });
    return out;
  }

  document.querySelectorAll("[data-tile-picker]").forEach(function (picker) {
    var form = picker.closest("form");
    var box = picker.closest("details");
    if (!form) return;
    function field(name) { return form.querySelector('[name="' + name + '"]'); }
    var fields = {concealed: field("tiles_concealed"), win: field("tiles_win"), melds: field("tiles_melds"),
                  dora: field("tiles_dora"), ura: field("tiles_ura"), flowers: field("flowers")};
    if (!fields.concealed || !fields.win) return;
    var hand = picker.querySelector("[data-hand]");
    var status = picker.querySelector("[data-status]");
    var tiles = Array.prototype.slice.call(picker.querySelectorAll("[data-tile]"));
    var modes = Array.prototype.slice.call(picker.querySelectorAll("[data-mode]"));
    var buttons = {};
    tiles.forEach(function (b) { buttons[b.dataset.tile] = b; });
    var most = Number(picker.dataset.flowers || 0);  // MCR's flowers: four flowers and four seasons
    // The tiles of a winning hand and the copies of each tile, as the engine counts them (scoring/tiles/notation.py).
    var HAND = Number(picker.dataset.handTiles), COPIES = Number(picker.dataset.copies);
    var mode = "hand";
    var cleared = false;  // a value chosen before the tiles was just taken back: the status says so, once
    // The hand in the order tapped (its last tile the winning tile), the called sets, the indicators.
    var state = {hand: [], melds: [], dora: [], ura: []};

    function name(code) {
      var b = buttons[kindOf(code)];
      var label = b ? b.querySelector(".sr").textContent : code;
      return code.charAt(0) === "0" && text.red ? text.red.replace("%s", label) : label;
    }
    function modeName(kind) {
      var b = picker.querySelector('[data-mode="' + kind + '"]');
      return b ? b.textContent : kind;
    }
    function flowers() {
      var n = fields.flowers ? parseInt(fields.flowers.value, 10) : 0;
      return isNaN(n) ? 0 : n;
    }
    function size() { return state.hand.length + 3 * state.melds.length; }
    function count(code) {
      var all = state.hand.concat(state.dora, state.ura);
      state.melds.forEach(function (m) { all = all.concat(m.tiles); });
      var k = kindOf(code);
      return all.filter(function (t) { return kindOf(t) === k; }).length;
    }
    function chiOf(code) {
      var n = Math.min(Number(code.charAt(0)), 7), suit = code.charAt(1);
      return [n + suit, (n + 1) + suit, (n + 2) + suit];
    }
    // What a tap on this tile would add in the present mode, or null when the hand cannot take it.
    function adds(code) {
      if (code === "flower") return fields.flowers && flowers() < most ? [] : null;
      if (mode === "dora" || mode === "ura") {
        return state[mode].length < INDICATORS && count(code) < COPIES ? [code] : null;
      }
      if (mode === "hand") return size() < HAND && count(code) < COPIES ? [code] : null;
      if (size() + 3 > HAND) return null;
      if (mode === "chi") {
        if (code.charAt(1) === "z") return null;
        var run = chiOf(code);
        return run.every(function (t) { return count(t) < COPIES; }) ? run : null;
      }
      var set = mode === "pon" ? [code, code, code] : [code, code, code, code];
      return count(code) + set.length <= COPIES ? set : null;
    }

    function read() {
      state.hand = parse(fields.concealed.value).concat(parse(fields.win.value).slice(0, 1));
      state.melds = [];
      String(fields.melds ? fields.melds.value : "").split(/[,;\n]+/).forEach(function (part) {
        var bits = part.trim().split(/\s+/);
        if (bits.length === 2 && ["chi", "pon", "kan", "ankan"].indexOf(bits[0]) >= 0) {
          state.melds.push({kind: bits[0], tiles: parse(bits[1])});
        }
      });
      state.dora = fields.dora ? parse(fields.dora.value) : [];
      state.ura = fields.ura ? parse(fields.ura.value) : [];
    }
    function write() {
      var last = state.hand.length - 1;
      fields.concealed.value = notation(state.hand.slice(0, Math.max(last, 0)));
      fields.win.value = last >= 0 ? state.hand[last] : "";
      if (fields.melds) {
        fields.melds.value = state.melds.map(function (m) { return m.kind + " " + notation(m.tiles); }).join(", ");
      }
      if (fields.dora) fields.dora.value = notation(state.dora);
      if (fields.ura) fields.ura.value = notation(state.ura);
      fields.concealed.dispatchEvent(new Event("change", {bubbles: true}));
      clearValue();
    }
    // Tiles and a value exclude each other: the value is computed from the tiles, so the chips of the first
    // win's han, fu, yakuman (or the fan box) are emptied once the hand has tiles.
    function clearValue() {
      if (!state.hand.length) return;
      var changed = null;
      form.querySelectorAll('input[name="han"]:checked, input[name="fu"]:checked, input[name="yakuman"]:checked')
        .forEach(function (input) { input.checked = false; changed = input; });
      var fan = field("fan");
      if (fan && fan.value !== "") { fan.value = ""; changed = fan; }
      if (changed) {
        changed.dispatchEvent(new Event("change", {bubbles: true}));
        cleared = true;
      }
    }

    function face(code) {
      var b = buttons[kindOf(code)];
      var tile = document.createElement("span");
      tile.className = (b ? b.className : "tile") + (code.charAt(0) === "0" ? " red-five" : "");
      tile.setAttribute("aria-hidden", "true");
      if (b) {
        tile.append(b.querySelector(".face").cloneNode(true), b.querySelector(".mark").cloneNode(true));
      } else {
        tile.textContent = code;
      }
      return tile;
    }
    function removable(label, faces, remove, css) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "in-hand " + (css || "");
      faces.forEach(function (f) { b.append(f); });
      var sr = document.createElement("span");
      sr.className = "sr";
      sr.textContent = text.remove ? text.remove.replace("%s", label) : label;
      b.append(sr);
      b.addEventListener("click", function () {
        var at = Array.prototype.indexOf.call(hand.querySelectorAll("button"), b);
        remove();
        changed();
        var left = hand.querySelectorAll("button");
        (left[Math.min(at, left.length - 1)] || picker.querySelector("[data-tile]:not([aria-disabled=true])") ||
         status).focus();
      });
      return b;
    }
    function group(caption, items, css) {
      if (!items.length) return;
      var g = document.createElement("span");
      g.className = "hand-group " + (css || "");
      if (caption) {
        var c = document.createElement("span");
        c.className = "caption";
        c.textContent = caption;
        g.append(c);
      }
      items.forEach(function (i) { g.append(i); });
      hand.append(g);
    }
    function render() {
      hand.textContent = "";
      var last = state.hand.length - 1;
      var order = state.hand.map(function (t, i) { return i; }).filter(function (i) { return i !== last; });
      order.sort(function (a, b) { return rank(state.hand[a]) - rank(state.hand[b]); });
      group("", order.map(function (i) {
        return removable(name(state.hand[i]), [face(state.hand[i])], function () { state.hand.splice(i, 1); });
      }));
      if (last >= 0) {
        var win = state.hand[last];
        group(text.win, [removable(name(win) + " (" + text.win + ")", [face(win)],
                                   function () { state.hand.splice(last, 1); }, "winning")], "winning");
      }
      state.melds.forEach(function (m, i) {
        group(modeName(m.kind), [removable(modeName(m.kind) + " " + m.tiles.map(name).join(", "),
                                           m.tiles.map(face),
                                           function () { state.melds.splice(i, 1); }, "meld")], "meld");
      });
      ["dora", "ura"].forEach(function (which) {
        group(modeName(which), state[which].map(function (t, i) {
          return removable(text[which] + ": " + name(t), [face(t)], function () { state[which].splice(i, 1); });
        }), which);
      });
      if (flowers() > 0) {
        var f = face("flower");
        f.querySelector(".mark").textContent = "×" + flowers();
        group("", [removable(text.flower + " (" + text.flowers.replace("%s", flowers()) + ")", [f], function () {
          fields.flowers.value = String(flowers() - 1);
        }, "flowers")], "flowers");
      }
      var said = state.hand.length || state.melds.length ? text.count.replace("%s", size()) : text.empty;
      if (last >= 0) said += " · " + text.win + ": " + name(state.hand[last]);
      if (flowers() > 0) said += " · " + text.flowers.replace("%s", flowers());
      if (cleared) said += " · " + text.value;
      cleared = false;
      status.textContent = said;
      status.classList.toggle("complete", size() === HAND);
      tiles.forEach(function (b) {
        b.setAttribute("aria-disabled", adds(b.dataset.tile) ? "false" : "true");
      });
    }
    function changed() {
      write();
      render();
    }

    tiles.forEach(function (b) {
      b.addEventListener("click", function () {
        var code = b.dataset.tile, added = adds(code);
        if (!added) return;
        if (code === "flower") fields.flowers.value = String(flowers() + 1);
        else if (mode === "hand") state.hand.push(code);
        else if (mode === "dora" || mode === "ura") state[mode].push(code);
        else state.melds.push({kind: mode, tiles: added});
        changed();
      });
    });
    modes.forEach(function (b) {
      b.addEventListener("click", function () {
        mode = b.dataset.mode;
        modes.forEach(function (m) { m.setAttribute("aria-pressed", String(m === b)); });
        render();
      });
    });
    picker.querySelector("[data-clear]").addEventListener("click", function () {
      state = {hand: [], melds: [], dora: [], ura: []};
      if (fields.flowers) fields.flowers.value = "";
      changed();
    });
    // Arrow keys move between the tiles: left and right along the rows, up and down to the row above or below.
    picker.querySelector(".tile-grid").addEventListener("keydown", function (event) {
      var rows = Array.prototype.slice.call(picker.querySelectorAll(".tile-row")).map(function (r) {
        return Array.prototype.slice.call(r.querySelectorAll("[data-tile]"));
      });
      var at = tiles.indexOf(document.activeElement);
      if (at < 0) return;
      var row = 0, col = at;
      while (col >= rows[row].length) { col -= rows[row].length; row += 1; }
      var next = null;
      if (event.key === "ArrowLeft") next = tiles[at - 1];
      else if (event.key === "ArrowRight") next = tiles[at + 1];
      else if (event.key === "ArrowUp" && row > 0) next = rows[row - 1][Math.min(col, rows[row - 1].length - 1)];
      else if (event.key === "ArrowDown" && row < rows.length - 1) {
        next = rows[row + 1][Math.min(col, rows[row + 1].length - 1)];
      }
      if (next) {
        event.preventDefault();
        next.focus();
      }
    });
    // Typed notation moves the picker; a flower count typed too.
    ["concealed", "win", "melds", "dora", "ura", "flowers"].forEach(function (key) {
      if (fields[key]) fields[key].addEventListener("input", function () { read(); render(); });
    });
    // Opened by a tap: the picker is brought up whole, so that its tiles are tapped without scrolling.
    if (box) {
      box.addEventListener("toggle", function () {
        if (!box.open) return;
        var bottom = picker.getBoundingClientRect().bottom;
        if (bottom > window.innerHeight) box.scrollIntoView({block: "start"});
      });
    }
    var notationBox = box && box.querySelector("[data-notation]");
    if (notationBox && !notationBox.querySelector(".errors")) notationBox.open = false;
    picker.hidden = false;
    read();
    render();
  });
})();
