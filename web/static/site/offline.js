// Hand entry that survives the venue's network (progressive enhancement of the entry form).
//
// A new hand saved while the browser is offline, or while earlier hands still wait, is kept in
// IndexedDB with an Idempotency key of its own and sent in order when the network returns: the
// first on the version the page last saw, each next one on the version the server's answer gives,
// so nothing is added twice. A hand the server refuses because another referee changed the game
// stops the queue; the page then shows the game as it is and lets the referee re-apply or drop
// each waiting hand. The form being filled is kept too, so a reload or a closed tab loses nothing.
(function () {
  "use strict";
  var form = document.querySelector("form[data-entry][data-game]");
  var panel = document.getElementById("waiting");
  if (!form || !panel || !window.indexedDB || !window.fetch) return;
  var game = form.dataset.game;
  var draftKey = "mahjong-entry-draft:" + game;
  var text = JSON.parse(document.getElementById("offline-text").textContent);
  var SKIP = ["csrfmiddlewaretoken", "version", "index", "key", "action"];
  var sending = false;
  var RETRY_MS = 3000;

  if (navigator.serviceWorker) {
    navigator.serviceWorker.register(panel.dataset.worker, {scope: "/games/"}).catch(function () {});
  }

  // --- the queue, in IndexedDB --------------------------------------------------------------
  function store(mode, work) {
    return new Promise(function (resolve, reject) {
      var opening = indexedDB.open("mahjong-entry", 1);
      opening.onupgradeneeded = function () {
        opening.result.createObjectStore("queue", {keyPath: "id", autoIncrement: true});
      };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var tx = opening.result.transaction("queue", mode);
        var result = work(tx.objectStore("queue"));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
      };
    });
  }
  function waiting() {
    return store("readonly", function (queue) { return queue.getAll(); }).then(function (items) {
      return (items || []).filter(function (item) { return item.game === game; });
    });
  }
  function keep(item) { return store("readwrite", function (queue) { return queue.put(item); }); }
  function drop(id) { return store("readwrite", function (queue) { return queue.delete(id); }); }

  // --- the form being filled --------------------------------------------------------------
  function fields() {
    var out = [];
    new FormData(form).forEach(function (value, name) {
      if (SKIP.indexOf(name) < 0 && typeof value === "string" && value !== "") out.push([name, value]);
    });
    return out;
  }
  function saveDraft() {
    if (!form.elements.index.value) localStorage.setItem(draftKey, JSON.stringify(fields()));
  }
  function restoreDraft() {
    // The page after a save says so: that hand is on the server, the draft with it.
    if (document.querySelector(".notice.success, .notice.info")) clearDraft();
    var saved = JSON.parse(localStorage.getItem(draftKey) || "[]");
    if (!saved.length || form.elements.index.value || form.querySelector(".errors")) return;
    saved.forEach(function (pair) {
      form.querySelectorAll('[name="' + pair[0] + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          if (input.value === pair[1]) input.checked = true;
        } else {
          input.value = pair[1];
        }
      });
    });
    form.dispatchEvent(new Event("change"));
    var result = form.querySelector('input[name="result"]:checked');
    if (result) result.dispatchEvent(new Event("change", {bubbles: true}));
  }
  function clearDraft() { localStorage.removeItem(draftKey); }

  function label(name) {
    var checked = form.querySelector('input[name="' + name + '"]:checked');
    var holder = checked && checked.closest("label");
    return holder ? holder.textContent.trim() : "";
  }
  function value(name) {
    var input = form.elements[name];
    return input && input.value ? input.value : "";
  }
  function summary() {
    var parts = [label("result"), label("winner")];
    if (value("loser")) parts.push("← " + label("loser"));
    if (value("han")) parts.push(value("han") + " han" + (value("fu") ? " " + value("fu") + " fu" : ""));
    if (value("yakuman")) parts.push(value("yakuman") + "× yakuman");
    return parts.filter(Boolean).join(" ");
  }

  // What can be checked without the server; payments are computed when the hand reaches it.
  function problem() {
    var result = value("result") || (form.querySelector('input[name="result"]:checked') || {}).value;
    if (!result) return text.result;
    if (result === "ron" || result === "tsumo") {
      if (!label("winner")) return text.winner;
      if (!value("han") && !value("yakuman") && !value("fan") && !value("tiles_concealed")) return text.value;
      var han = parseInt(value("han"), 10), fu = parseInt(value("fu"), 10);
      if (han === 1 && fu === 20 || fu === 25 && han < 2) return text.fu;
    }
    if (result === "ron") {
      if (!label("loser")) return text.loser;
      if (value("loser") === value("winner")) return text.same;
    }
    return "";
  }

  // --- sending ---------------------------------------------------------------------------
  function versionIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var input = page.querySelector('form[data-entry] input[name="version"]');
    return input ? input.value : null;
  }
  function send() {
    if (sending || !navigator.onLine) return Promise.resolve();
    sending = true;
    var version = null, sent = 0, stopped = false;
    function next(items) {
      var item = items.shift();
      if (!item || item.blocked) return Promise.resolve();
      var body = new URLSearchParams(item.fields);
      if (version !== null) body.set("version", version);
      // form.action would be the buttons named "action": the attribute is the address.
      return fetch(form.getAttribute("action").split("#")[0], {method: "POST", body: body, credentials: "same-origin"})
        .then(function (response) {
          return response.text().then(function (html) {
            if (response.ok && response.redirected) {  // saved (or saved before: the key says so)
              version = versionIn(html);
              sent += 1;
              return drop(item.id).then(function () { return next(items); });
            }
            if (response.status === 409 || response.status === 400) {
              var reason = response.status === 409 ? "conflict" : "refused";
              stopped = true;
              return Promise.all([item].concat(items).map(function (each) {
                each.blocked = reason;
                return keep(each);
              }));
            }
          });
        }, function (error) {
          console.warn("offline.js: not sent now, kept for later:", error);  // offline again: the rest waits
        });
    }
    return waiting().then(next).then(function () {
      sending = false;
      return waiting().then(function (items) {
        if (sent || stopped) {
          location.replace(location.pathname);  // the game as it is now, with what still waits
          return;
        }
        show(items);
      });
    }, function (error) {
      sending = false;
      console.warn("offline.js: the waiting hands could not be read:", error);
    });
  }

  // --- what the referee sees -------------------------------------------------------------
  function show(items) {
    panel.hidden = items.length === 0;
    panel.querySelector("[data-count]").textContent =
      items.length === 1 ? text.one : text.count.replace("%s", items.length);
    var blocked = items.some(function (item) { return item.blocked === "conflict"; });
    panel.querySelector("[data-conflict]").hidden = !blocked;
    var list = panel.querySelector("ol");
    list.textContent = "";
    items.forEach(function (item) {
      var row = document.createElement("li");
      row.textContent = item.summary + (item.blocked === "refused" ? " — " + text.refused : "") + " ";
      if (item.blocked) {
        [["apply", text.apply], ["drop", text.drop]].forEach(function (pair) {
          var button = document.createElement("button");
          button.type = "button";
          button.className = pair[0] === "drop" ? "secondary" : "";
          button.dataset[pair[0]] = item.id;
          button.textContent = pair[1];
          row.appendChild(button);
        });
      }
      list.appendChild(row);
    });
  }
  panel.addEventListener("click", function (event) {
    var target = event.target;
    var id = Number(target.dataset.apply || target.dataset.drop);
    if (!id) return;
    waiting().then(function (items) {
      var item = items.filter(function (each) { return each.id === id; })[0];
      if (!item) return null;
      if (target.dataset.drop) return drop(id);
      // Re-applied on the game as this page shows it now.
      item.blocked = false;
      item.fields = item.fields.filter(function (pair) { return pair[0] !== "version"; })
        .concat([["version", form.elements.version.value]]);
      return keep(item);
    }).then(function () { return waiting(); }).then(function (items) {
      show(items);
      return send();
    });
  });

  form.addEventListener("input", saveDraft);
  form.addEventListener("change", saveDraft);
  form.addEventListener("submit", function (event) {
    var action = event.submitter ? event.submitter.value : "";
    if (action !== "save" || form.elements.index.value) return;  // previews and corrections need the server
    if (navigator.onLine && panel.hidden) return;  // the ordinary post; the draft stays until it is saved
    event.preventDefault();
    var refused = problem();
    var notice = panel.querySelector("[data-problem]");
    notice.textContent = refused;
    notice.hidden = !refused;
    if (refused) return;
    var data = [];
    new FormData(form).forEach(function (v, name) { if (typeof v === "string") data.push([name, v]); });
    data = data.filter(function (pair) { return pair[0] !== "key" && pair[0] !== "action"; })
      .concat([["action", "save"], ["key", crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()]]);
    keep({game: game, fields: data, summary: summary(), blocked: false}).then(function () {
      clearDraft();
      form.reset();
      form.querySelectorAll('input[name="result"]').forEach(function (input) { input.checked = input.value === "ron"; });
      form.dispatchEvent(new Event("change"));
      return waiting();
    }).then(function (items) {
      show(items);
      return send();
    });
  });
  window.addEventListener("online", send);
  // The online event does not come on every device: while hands wait, try again every few seconds.
  setInterval(function () { if (!panel.hidden) send(); }, RETRY_MS);

  restoreDraft();
  waiting().then(function (items) {
    show(items);
    return send();
  });
})();
