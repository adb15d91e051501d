// The console's live updates: each record the fleet receives (and each settlement made
// anew) comes as a server-sent event; a live page reloads its main part (its own
// address, same origin) at most twice a second when the event concerns it. Nothing is
// fetched from elsewhere.
(function () {
  const main = document.querySelector('main');
  const conn = document.getElementById('conn');
  if (!main || !conn) return;
  const live = !!main.dataset.live;
  const only = main.dataset.terminal || '';
  let pending = false, again = false, last = 0;
  function done() {
    pending = false; last = Date.now();
    if (again) { again = false; refresh(); }
  }
  function refresh() {
    if (pending) { again = true; return; }
    pending = true;
    const wait = Math.max(0, 500 - (Date.now() - last));
    setTimeout(function () {
      fetch(location.href, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html) {
            const fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
            if (fresh) main.innerHTML = fresh.innerHTML;
          }
          done();
        })
        .catch(done);
    }, wait);
  }
  const es = new EventSource('/events');
  es.onopen = function () { conn.textContent = conn.dataset.live; conn.className = 'live'; };
  es.onerror = function () { conn.textContent = conn.dataset.offline; conn.className = ''; };
  es.addEventListener('record', function (ev) {
    let e;
    try { e = JSON.parse(ev.data); } catch (_) { return; }
    if (!live || only && e.terminal !== only) return;
    refresh();
  });
})();
