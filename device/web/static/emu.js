// The emulated terminal's page: draws the LCD from its dot patterns, follows the live
// events, and sends the buttons, scans and photos.
"use strict";
(function () {
  const DOT = 4, GAP = 1, CELLGAP = 3, PAD = 8;
  let font = null, last = null, receiptsShown = 0, photoShown = 0, ticketShown = 0;
  const $ = (id) => document.getElementById(id);

  function drawLCD(lcd) {
    const c = $("lcd");
    const cw = 5 * (DOT + GAP) + CELLGAP, ch = 8 * (DOT + GAP) + CELLGAP;
    const w = PAD * 2 + lcd.cols * cw, h = PAD * 2 + lcd.rows * ch;
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    const g = c.getContext("2d");
    const lit = lcd.lit, bl = lcd.backlight;
    g.fillStyle = bl ? "#8fbf2a" : "#3d4a22";
    g.fillRect(0, 0, w, h);
    const on = bl ? "#1d2a0a" : "#10160a", off = bl ? "#84b226" : "#39451f";
    for (let r = 0; r < lcd.rows; r++) {
      for (let col = 0; col < lcd.cols; col++) {
        const code = lcd.codes[r][col];
        const pat = !lit ? null : (code < 16 ? lcd.cgram[code & 7] : (font ? font[code] : null));
        for (let y = 0; y < 8; y++) {
          for (let x = 0; x < 5; x++) {
            const dot = pat && (pat[y] >> (4 - x)) & 1;
            g.fillStyle = dot ? on : off;
            g.fillRect(PAD + col * cw + x * (DOT + GAP), PAD + r * ch + y * (DOT + GAP), DOT, DOT);
          }
        }
      }
    }
  }

  function show(l) {
    last = l;
    drawLCD(l.lcd);
    $("lcd-text").textContent = l.lcd.text.join("\n");
    $("state").textContent = l.state;
    $("led-green").classList.toggle("on", l.green);
    $("led-red").classList.toggle("on", l.red);
    $("printer").textContent = l.printer;
    $("receipt-count").textContent = l.receipts;
    for (; receiptsShown < l.receipts; receiptsShown++) {
      const img = document.createElement("img");
      const n = receiptsShown + 1;
      img.src = "/emu/receipt/" + n + ".png";
      img.alt = "receipt " + n;
      img.id = "receipt-" + n;
      $("receipts").prepend(img);
    }
    const a = l.last;
    if (a && a.n) {
      let t = (a.from ? a.from + ": " : "") + a.input;
      if (a.decoded) t += " → decoded " + a.decoded;
      if (a.error) t += " → error: " + a.error;
      $("answer").textContent = t;
      $("answer").classList.toggle("bad", !!a.error);
    }
    if (a && a.photo && a.photo !== photoShown) {
      photoShown = a.photo;
      $("photo-shown").src = "/emu/photo.png?n=" + a.photo;
      $("photo-fig").hidden = false;
    }
    if (a && a.ticket && a.ticket !== ticketShown) {
      ticketShown = a.ticket;
      $("ticket-shown").src = "/emu/ticket.png?n=" + a.ticket;
      $("ticket-fig").hidden = false;
    }
  }

  function send(body) {
    return fetch("/emu/input", { method: "POST", headers: { "Content-Type": "application/json", "X-Posd": "1" }, body: JSON.stringify(body) });
  }

  document.querySelectorAll("button[data-action]").forEach((b) => {
    // Unlock takes the technician token, when the terminal has one, from the scan field.
    b.addEventListener("click", () => {
      const body = { action: b.dataset.action };
      if (b.dataset.action === "unlock") body.code = $("scan-code").value.trim();
      send(body).then(() => { if (body.code) $("scan-code").value = ""; });
    });
  });
  $("scan-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const code = $("scan-code").value.trim();
    if (code) send({ action: "scan", code: code }).then(() => { $("scan-code").value = ""; });
  });
  $("photo-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = $("photo").files[0];
    if (!f) return;
    const fd = new FormData();
    fd.append("photo", f);
    fetch("/emu/photo", { method: "POST", headers: { "X-Posd": "1" }, body: fd });
  });

  fetch("/font.json").then((r) => r.json()).then((f) => { font = f; if (last) drawLCD(last.lcd); });
  const es = new EventSource("/emu/events");
  es.addEventListener("live", (ev) => show(JSON.parse(ev.data)));
  es.onopen = () => { $("conn").textContent = "live"; };
  es.onerror = () => { $("conn").textContent = "reconnecting…"; };
})();
