// Hand entry that survives the venue's network (progressive enhancement of the entry form).
//
// A new hand saved while the browser is offline, or while earlier hands still wait, is kept in
// IndexedDB with an Idempotency key of its own and sent in order when the network returns: the
// first on the version the page last saw, each next one on the version the server's answer gives,
// so nothing is added twice. A hand leaves the queue only when the server's answer says it is
// stored (the entry page answers the queue in JSON, see web/views/entry_queue.py); a redirect, a
// login page, a 403, a 500 or a lost answer keep it, and the page says why and offers what helps:
// sign in again, send again, edit, drop. A hand sent again after a lost answer carries the same
// key, so the server answers it as stored and adds nothing. A hand the server refuses because
// another referee changed the game stops the queue; the page then shows the game as it is and lets
// the referee re-apply or drop each waiting hand. The form being filled is kept too, so a reload
// or a closed tab loses nothing.
(function () {
  "use strict";
  var form = document.querySelector("form[data-entry][data-game]");
  var panel = document.getElementById("waiting");
  if (!form || !panel || !window.indexedDB || !window.fetch) return;
  var game = form.dataset.game;
  var draftKey = "mahjong-entry-draft:" + game;
  var text = JSON.parse(document.getElementById("offline-text").textContent);
  // The fu each han may have on a ron and on a tsumo, as the rule engine takes them (web/chips.py fu_rule).
  var accepted = document.getElementById("accepted-fu");
  var acceptedFu = accepted ? JSON.parse(accepted.textContent) : {};
  var SKIP = ["csrfmiddlewaretoken", "version", "index", "key", "action"];
  // A failing server or network is asked again less and less often, not every few seconds for ever.
  var BACKOFF_MS = [5000, 10000, 20000, 40000, 60000];
  var failures = 0, timer = null, sending = false;

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
    fill(saved);
  }
  function fill(pairs) {
    form.reset();
    pairs.filter(function (pair) { return SKIP.indexOf(pair[0]) < 0; }).forEach(function (pair) {
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
    if (value("draws")) parts.push(text.drawn.replace("%s", value("draws")));
    if (value("loser")) parts.push("← " + label("loser"));
    if (value("han")) parts.push(value("han") + " han" + (value("fu") ? " " + value("fu") + " fu" : ""));
    if (value("yakuman")) parts.push(value("yakuman") + "× yakuman");
    if (value("fan")) parts.push(value("fan") + " fan");
    // What a referee needs to write the hand down by hand if it is dropped: the sticks and the note too.
    var riichi = Array.prototype.map.call(form.querySelectorAll('input[name="riichi"]:checked'), function (box) {
      var seat = box.closest("label");
      return seat ? seat.querySelector(".wind").textContent + " " + seat.querySelector(".name").textContent : "";
    }).filter(Boolean);
    if (riichi.length) parts.push("(" + text.riichi + ": " + riichi.join(", ") + ")");
    if (value("note")) parts.push("“" + value("note") + "”");
    return parts.filter(Boolean).join(" ");
  }

  // What can be checked without the server; payments are computed when the hand reaches it.
  function problem() {
    var result = value("result") || (form.querySelector('input[name="result"]:checked') || {}).value;
    if (!result) return text.result;
    if (result === "ron" || result === "tsumo") {
      if (!label("winner")) return text.winner;
      if (!value("han") && !value("yakuman") && !value("fan") && !value("tiles_concealed")) return text.value;
      var fus = (acceptedFu[result] || {})[value("han")], fu = parseInt(value("fu"), 10);
      if (fus && !isNaN(fu) && fus.indexOf(fu) < 0) return text.fu;
    }
    if (result === "tenpai") {  // the solo game's attempt
      if (value("draws") === "") return text.draws;
      if (!value("han") && !value("yakuman") && !value("tiles_concealed")) return text.tenpai;
    }
    if (result === "ron") {
      if (!label("loser")) return text.loser;
      if (value("loser") === value("winner")) return text.same;
    }
    return "";
  }

  // --- sending ---------------------------------------------------------------------------
  function csrfToken() {
    // Read at each send, not kept with the hand: a new sign-in (in this tab or another) changes the token,
    // and the one the page was drawn with would be refused for ever.
    var cookie = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]*)/);
    return cookie ? decodeURIComponent(cookie[1]) : form.elements.csrfmiddlewaretoken.value;
  }
  // One hand to the server: the status and the JSON answer ({} when the answer is not the queue's JSON,
  // status 0 when no answer came at all).
  function post(item, version) {
    var body = new URLSearchParams(item.fields.filter(function (pair) { return pair[0] !== "csrfmiddlewaretoken"; }));
    if (version !== null) body.set("version", version);
    // form.action would be the buttons named "action": the attribute is the address.
    return fetch(form.getAttribute("action").split("#")[0], {
      method: "POST", body: body, credentials: "same-origin",
      headers: {"X-Offline-Queue": "1", "X-CSRFToken": csrfToken(), "Accept": "application/json"}
    }).then(function (response) {
      var json = (response.headers.get("Content-Type") || "").indexOf("application/json") === 0;
      return (json ? response.json() : response.text().then(function () { return {}; })).then(function (answer) {
        return {status: response.status, answer: answer || {}};
      });
    }).catch(function (error) {
      console.warn("offline.js: no answer, the hand is kept:", error);
      return {status: 0, answer: {}};
    });
  }
  // What an answer means for the hand: stored, blocked until the referee decides, or kept with a reason.
  function outcome(status, answer) {
    if (answer.stored === true) return {stored: true, version: String(answer.version)};
    if (answer.reason === "conflict") return {blocked: "conflict"};
    if (answer.reason === "refused") {
      return {blocked: "refused", trouble: {kind: "refused", message: [answer.message].concat(answer.problems || []).join(" ")}};
    }
    if (answer.reason) return {trouble: {kind: answer.reason, message: answer.message, url: answer.url}};
    if (status === 403) return {trouble: {kind: "csrf", message: text.csrf, url: panel.dataset.signin}};
    if (status === 0) return {later: true, trouble: {kind: "network", message: text.network}};
    if (status < 400) return {later: true, trouble: {kind: "unclear", message: text.unclear}};
    return {later: true, trouble: {kind: "server", message: text.server.replace("%s", status)}};
  }
  function send() {
    clearTimeout(timer);
    if (sending) return Promise.resolve();
    if (!navigator.onLine) {  // nothing to try yet; the online event does not come on every device
      timer = setTimeout(send, BACKOFF_MS[0]);
      return Promise.resolve();
    }
    sending = true;
    var version = null, sent = 0, stopped = false, later = false;
    function next(items) {
      var item = items.shift();
      if (!item || item.blocked) return Promise.resolve();
      return post(item, version).then(function (result) {
        var got = outcome(result.status, result.answer);
        if (got.stored) {  // on the server (or there already: the key says so)
          version = got.version;
          sent += 1;
          return drop(item.id).then(function () { return next(items); });
        }
        if (got.blocked === "conflict") {
          stopped = true;
          return Promise.all([item].concat(items).map(function (each) {
            each.blocked = "conflict";
            return keep(each);
          }));
        }
        later = Boolean(got.later);
        item.blocked = got.blocked || false;
        item.trouble = got.trouble;
        return keep(item);  // the later hands wait behind it: hands are played in order
      });
    }
    return waiting().then(next).then(function () {
      sending = false;
      failures = later ? failures + 1 : 0;
      if (sent || stopped) {
        location.replace(location.pathname);  // the game as it is now, with what still waits
        return null;
      }
      if (later) timer = setTimeout(send, delay());
      return waiting().then(show);
    }, function (error) {
      sending = false;
      console.warn("offline.js: the waiting hands could not be read:", error);
    });
  }
  function delay() { return BACKOFF_MS[Math.min(failures, BACKOFF_MS.length) - 1] || BACKOFF_MS[0]; }

  // --- what the referee sees -------------------------------------------------------------
  function button(kind, id, words) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = kind === "drop" ? "secondary" : "";
    element.dataset[kind] = id;
    element.textContent = words;
    return element;
  }
  function why(item) {
    var trouble = item.trouble;
    if (item.blocked === "refused" && !trouble) return text.refused;
    if (!trouble) return "";
    var retrying = ["network", "server", "unclear"].indexOf(trouble.kind) >= 0 && failures;
    return trouble.message + (retrying ? " " + text.later.replace("%s", delay() / 1000) : "");
  }
  function actions(item) {
    if (item.blocked === "conflict") return [button("apply", item.id, text.apply), button("drop", item.id, text.drop)];
    if (item.blocked === "refused") return [button("edit", item.id, text.edit), button("drop", item.id, text.drop)];
    if (!item.trouble) return [];
    var out = [];
    if (item.trouble.url) {
      var link = document.createElement("a");
      link.className = "button";
      link.href = item.trouble.url;
      link.dataset.signin = item.trouble.kind;
      link.textContent = item.trouble.kind === "code" ? text.code : text.signin;
      out.push(link);
    }
    var retry = button("retry", item.id, text.retry);
    if (out.length) retry.className = "secondary";  // signing in comes first; sending again alone fails again
    return out.concat([retry, button("drop", item.id, text.drop)]);
  }
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
      row.appendChild(document.createTextNode(item.summary + " "));
      var reason = why(item);
      if (reason) {
        var said = document.createElement("p");
        said.className = "why";
        said.setAttribute("role", "alert");
        said.textContent = reason;
        row.appendChild(said);
      }
      actions(item).forEach(function (element) { row.appendChild(element); });
      list.appendChild(row);
    });
  }
  function decide(target, item) {
    if (target.dataset.drop) {
      // The hand is gone for good once dropped: say what it was, so that it can be written down first.
      return window.confirm(text.confirm.replace("%s", item.summary)) ? drop(item.id) : null;
    }
    if (target.dataset.edit) {  // back into the form, to be corrected and saved again
      fill(item.fields);
      form.scrollIntoView();
      return drop(item.id);
    }
    if (target.dataset.apply) {  // re-applied on the game as this page shows it now
      item.blocked = false;
      item.fields = item.fields.filter(function (pair) { return pair[0] !== "version"; })
        .concat([["version", form.elements.version.value]]);
      return keep(item);
    }
    return null;  // "send again": now, whatever the back-off said (which goes on if it fails again)
  }
  panel.addEventListener("click", function (event) {
    var target = event.target;
    var id = Number(target.dataset.apply || target.dataset.drop || target.dataset.edit || target.dataset.retry);
    if (!id) return;
    waiting().then(function (items) {
      var item = items.filter(function (each) { return each.id === id; })[0];
      return item ? decide(target, item) : null;
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
    data = data.filter(function (pair) { return ["key", "action", "csrfmiddlewaretoken"].indexOf(pair[0]) < 0; })
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

  restoreDraft();
  waiting().then(function (items) {
    show(items);
    return send();
  });
})();
