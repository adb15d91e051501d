// The console's live updates: each record the fleet receives comes as a server-sent
// event; the page reloads its main part (its own address, same origin) at most twice a
// second when the event concerns it. Nothing is fetched from elsewhere.
(function () {
  const main = document.querySelector('main');
  const conn = document.getElementById('conn');
  if (!main || !main.dataset.live) return;
  const only = main.dataset.terminal || '';
  let pending = false, last = 0;
  function refresh() {
    if (pending) return;
    pending = true;
    const wait = Math.max(0, 500 - (Date.now() - last));
    setTimeout(function () {
      fetch(location.href, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          pending = false; last = Date.now();
          if (!html) return;
          const doc = new DOMParser().parseFromString(html, 'text/html');
          const fresh = doc.querySelector('main');
          if (fresh) main.innerHTML = fresh.innerHTML;
        })
        .catch(function () { pending = false; });
    }, wait);
  }
  const es = new EventSource('/events');
  es.onopen = function () { conn.textContent = conn.dataset.live; conn.className = 'live'; };
  es.onerror = function () { conn.textContent = conn.dataset.offline; conn.className = ''; };
  es.addEventListener('record', function (ev) {
    let e;
    try { e = JSON.parse(ev.data); } catch (_) { return; }
    if (only && e.terminal !== only) return;
    refresh();
  });
})();
