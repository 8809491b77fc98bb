/* the organizer's pages while jobs run: reload when a running job ends (or the list of running ones
   changes), never while the organizer is typing into a form. The status to poll is the script
   tag's data-status-url (tournament status: {active: [...]}; a job's: {status: ...}). */
(function () {
  var me = document.currentScript, url = me && me.getAttribute("data-status-url"), last = null;
  if (!url) { return; }
  function busyTyping() { var a = document.activeElement; return a && /INPUT|TEXTAREA|SELECT/.test(a.tagName); }
  function poll() {
    fetch(url, {credentials: "same-origin"}).then(function (r) { return r.json(); }).then(function (s) {
      var now = JSON.stringify(s.active || s.status);
      var done = s.active ? s.active.length === 0 : (s.status !== "queued" && s.status !== "running");
      if ((done || (last !== null && now !== last)) && !busyTyping()) { location.reload(); return; }
      last = now; setTimeout(poll, 2000);
    }).catch(function () { setTimeout(poll, 5000); });
  }
  poll();
})();
