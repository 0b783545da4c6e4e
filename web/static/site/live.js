// Pages that keep up by themselves: poll the event's live endpoint (a 304 while nothing changed), and when it
// changed, read this page again and put its [data-live-region] blocks in place, without a reload. A block the
// reader types in (or with a form open) waits for the next change; focus stays on the same control. Without
// script, the page reads as rendered.
(function () {
  "use strict";
  var note = document.getElementById("live-note");
  if (!note || !window.fetch || !window.DOMParser) return;
  var EVERY = 3000;
  var url = note.dataset.live;
  var seen = note.dataset.liveVersion;  // the event's version the page shows
  var game = note.dataset.liveGame, gameSeen = note.dataset.liveGameVersion;
  var etag = null, busy = false, pending = false;

  var FOCUSABLE = "a[href], button, summary, input, select, textarea, [tabindex]";

  function busyIn(region) {  // typing in a field, or a form opened in a panel: not taken away from the reader
    var active = document.activeElement;
    return (active && region.contains(active) && /^(INPUT|SELECT|TEXTAREA)$/.test(active.tagName)) ||
      region.querySelector("details[open] form") !== null;
  }

  function swap(region, html) {
    if (html === null || region.innerHTML === html) return false;
    if (busyIn(region)) { pending = true; return false; }
    var active = document.activeElement, at = -1;
    if (active && region.contains(active)) at = Array.prototype.indexOf.call(region.querySelectorAll(FOCUSABLE), active);
    region.innerHTML = html;
    if (at >= 0) {  // the reader's place stays where it was: the same control of the new block
      var again = region.querySelectorAll(FOCUSABLE)[at];
      if (again) again.focus({ preventScroll: true });
    }
    return true;
  }

  function announce(changed) {
    if (!changed) return;
    var now = new Date();
    note.textContent = (note.dataset.said || "Updated") + " " + now.toLocaleTimeString();
    // The round page's "where do I sit?" filter applies to the new cards too.
    document.querySelectorAll("[data-filter]").forEach(function (input) {
      if (input.value) input.dispatchEvent(new Event("input"));
    });
    document.dispatchEvent(new CustomEvent("live:updated"));
  }

  function text(response) { return response.ok ? response.text() : null; }

  function refresh() {
    var regions = Array.prototype.slice.call(document.querySelectorAll("[data-live-region][id]"));
    var own = regions.filter(function (r) { return !r.dataset.poll; });
    var parts = regions.filter(function (r) { return r.dataset.poll; }).map(function (region) {
      return fetch(region.dataset.poll, { cache: "no-store", headers: { "X-Requested-With": "fetch" } })
        .then(text).then(function (html) { return swap(region, html); });
    });
    if (own.length) {
      parts.push(fetch(location.href, { cache: "no-store", credentials: "same-origin" }).then(text).then(function (html) {
        if (html === null) return false;
        var doc = new DOMParser().parseFromString(html, "text/html");
        var changed = false;
        own.forEach(function (region) {
          var fresh = doc.getElementById(region.id);
          if (fresh) changed = swap(region, fresh.innerHTML) || changed;
        });
        return changed;
      }));
    }
    return Promise.all(parts).then(function (results) { announce(results.indexOf(true) >= 0); });
  }

  function concerned(state) {
    if (game) {  // a game's page: its own game's version, when the current round holds it
      var mine = (state.tables || []).filter(function (t) { return String(t.game) === game; })[0];
      if (mine) {
        if (String(mine.version) === gameSeen) return false;
        gameSeen = String(mine.version);
        return true;
      }
    }
    return String(state.version) !== seen;
  }

  function poll() {
    if (busy || document.hidden) return;
    busy = true;
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, { cache: "no-store", headers: headers, credentials: "same-origin" }).then(function (response) {
      if (response.status === 304 || !response.ok) return pending ? refresh() : null;
      etag = response.headers.get("ETag");
      return response.json().then(function (state) {
        var go = concerned(state) || pending;
        seen = String(state.version);
        pending = false;
        return go ? refresh() : null;
      });
    }).catch(function () {}).then(function () { busy = false; });
  }

  setInterval(poll, EVERY);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
