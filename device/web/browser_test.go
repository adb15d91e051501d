package web

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/packterm/pos/device/ticketart"
	"github.com/packterm/pos/internal/browsertest"
	"github.com/packterm/pos/validate/codes"
)

// browser starts headless Chromium for one test (internal/browsertest).
func browser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	return browsertest.Start(t, extra...)
}

// artifacts is where screenshots go: $ARTIFACTS/web, else a temporary directory.
func artifacts(t *testing.T) string {
	t.Helper()
	return browsertest.Artifacts(t, "web")
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	browsertest.Screenshot(t, ctx, artifacts(t), name)
}

// waitJS polls a JavaScript condition until it holds.
func waitJS(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	waitJSWithin(t, ctx, 10*time.Second, what, cond)
}

// waitJSWithin is waitJS with its own limit.
func waitJSWithin(t *testing.T, ctx context.Context, limit time.Duration, what, cond string) {
	t.Helper()
	if err := browsertest.Poll(ctx, limit, cond); err != nil {
		lcd, _ := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID("lcd-text")))
		answer, _ := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID("answer")))
		t.Fatalf("%s: %v (panel %q, answer %q)", what, err, lcd, answer)
	}
}

func lcdHas(s string) string {
	return fmt.Sprintf("document.getElementById('lcd-text').textContent.includes(%q)", s)
}

// litDots counts the dark (lit) dots drawn on the LCD canvas.
const litDots = `(() => { const c = document.getElementById('lcd'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 0; i < d.length; i += 4) { if (d[i] < 0x30 && d[i+1] < 0x40) n++; } return n; })()`

func TestBrowserWinnerPaid(t *testing.T) {
	ctx := browser(t)
	e := startEnv(t, nil)
	w := e.winner(t, 5_00)
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.url+"/"),
		chromedp.WaitVisible(chromedp.ID("lcd")),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "live events", `document.getElementById('conn').textContent === 'live'`)
	waitJS(t, ctx, "panel drawn from the font", litDots+" > 100")
	before, err := chromedp.Run(ctx, chromedp.Evaluate[int](litDots))
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("scan-code"), w.Validation),
		chromedp.Click(chromedp.ID("scan")),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "winner shown", lcdHas("GAGNANT"))
	waitJS(t, ctx, "answer shown, the code masked", `document.getElementById('answer').textContent.includes('scan `+masked(w.Validation)+`')`)
	if body, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.textContent")); strings.Contains(body, w.Validation[8:]) {
		t.Error("the page shows the validation code whole")
	}
	screenshot(t, ctx, "winner-scanned.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("btn-ok"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "paid", lcdHas("PAYÉ 5,00 €"))
	waitJS(t, ctx, "two receipts", `document.querySelectorAll('#receipts img').length === 2 &&
		[...document.querySelectorAll('#receipts img')].every(i => i.complete && i.naturalWidth > 100)`)
	after, err := chromedp.Run(ctx, chromedp.Evaluate[int](litDots))
	if err != nil {
		t.Fatal(err)
	}
	if after == before {
		t.Errorf("the canvas did not change (%d lit dots)", after)
	}
	screenshot(t, ctx, "winner-paid.png")
	rs := e.rig.Printer.Receipts()
	if len(rs) != 2 || !strings.Contains(rs[0].PlainText(), "COPIE JOUEUR") || !strings.Contains(rs[1].PlainText(), "COPIE COMMERÇANT") {
		t.Errorf("receipts: %d", len(rs))
	}
	if seq, _ := e.rig.Journal.Head(); seq == 0 {
		t.Error("nothing journalled")
	}
}

func TestBrowserFaults(t *testing.T) {
	ctx := browser(t)
	e := startEnv(t, nil)
	if err := chromedp.Do(ctx, chromedp.Navigate(e.url+"/")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "live events", `document.getElementById('conn').textContent === 'live'`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("paper-out"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "paper warning", lcdHas("PAPIER"))
	waitJS(t, ctx, "printer status", `document.getElementById('printer').textContent !== 'ready'`)
	screenshot(t, ctx, "paper-out.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("paper-in"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "warning gone", "!"+lcdHas("PAPIER"))
	// The case opened: locked until a technician unlocks (the emulator's unlock is open).
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("tamper"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "locked", lcdHas("TERMINAL BLOQUÉ"))
	screenshot(t, ctx, "tamper.png")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("unlock"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "unlocked", lcdHas("TERMINAL DÉBLOQUÉ"))
}

func TestBrowserStatusToken(t *testing.T) {
	ctx := browser(t)
	e := startEnv(t, func(o *Options) { o.RequireToken = true })
	err := chromedp.Do(ctx,
		chromedp.Navigate(e.url+"/status"),
		chromedp.WaitVisible(chromedp.ID("token")),
		chromedp.SendKeys(chromedp.ID("token"), "not the token"),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.ID("login-failed")),
	)
	if err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "status-refused.png")
	err = chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.ID("token"), testToken),
		chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.ID("state")),
		chromedp.Navigate(e.url+"/status"),
		chromedp.WaitVisible(chromedp.ID("hardware")),
	)
	if err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.ID("ledger")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "7") || !strings.Contains(body, "64 tickets") {
		t.Errorf("ledger section: %q", body)
	}
	screenshot(t, ctx, "status.png")
}

func TestBrowserTicketPhoto(t *testing.T) {
	ctx := browser(t)
	e := startEnv(t, nil)
	w := e.winner(t, 5_00)
	dir := t.TempDir()
	if err := ticketart.WriteFiles(w, e.blk.Def, dir); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(e.url+"/")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "live events", `document.getElementById('conn').textContent === 'live'`)
	// Both faces: the camera reads the ticket code (the terminal then asks for the code
	// under the latex) or the scratched validation code beside it.
	err := chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("photo"), []string{filepath.Join(dir, "ticket.png")}),
		chromedp.Click(chromedp.ID("photo-send")),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "ticket code decoded", `['`+w.TicketCode+`', '`+masked(w.Validation)+`'].some(c => document.getElementById('answer').textContent.includes('decoded ' + c))`)
	waitJS(t, ctx, "photo and scratched ticket shown", `['photo-shown', 'ticket-shown'].every(id => {
		const i = document.getElementById(id); return !i.parentElement.hidden && i.complete && i.naturalWidth > 500; })`)
	screenshot(t, ctx, "photo-ticket.png")
	// The scratched latex area: the validation code, a winner.
	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("photo"), []string{filepath.Join(dir, "latex.png")}),
		chromedp.Click(chromedp.ID("photo-send")),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "validation code decoded, shown masked", `document.getElementById('answer').textContent.includes('decoded `+masked(w.Validation)+`')`)
	waitJS(t, ctx, "winner shown", lcdHas("GAGNANT"))
	waitJS(t, ctx, "the photo replaced", `document.getElementById('photo-shown').src.endsWith('n=2')`)
	screenshot(t, ctx, "photo-latex.png")
	// A photo with no code: the answer says so.
	err = chromedp.Do(ctx,
		chromedp.SetUploadFiles(chromedp.ID("photo"), []string{filepath.Join(dir, "front.png")}),
		chromedp.Click(chromedp.ID("photo-send")),
	)
	if err != nil {
		t.Fatal(err)
	}
	// A photo without a code is searched whole (a photo has no frame budget): 0.4 s of CPU
	// for this one, ten times that under -race, more on a loaded machine.
	waitJSWithin(t, ctx, time.Minute, "no code", `document.getElementById('answer').classList.contains('bad')`)
}

// masked is a validation code as the page shows it: the ticket it names, not its secret.
func masked(code string) string { return code[:codes.RedactKeep] + "…" }

// TestBrowserRebinding is a DNS-rebinding attack in a real browser: the attacker's name
// (evil.example) resolves to the terminal's loopback, so the browser takes the terminal's
// page and its answers as the attacker's own origin. The terminal answers none of it, and a
// script in that origin, with the page's header, scans and pays nothing.
func TestBrowserRebinding(t *testing.T) {
	ctx := browser(t, chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"))
	e := startEnv(t, nil)
	w := e.winner(t, 10_00)
	_, port := e.hostPort(t)
	evil := "http://evil.example:" + port
	if err := chromedp.Do(ctx, chromedp.Navigate(evil+"/")); err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.textContent"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "misdirected request") {
		t.Errorf("the rebound name got the page: %.200q", body)
	}
	script := `(async () => {
		const post = (b) => fetch("/emu/input", {method: "POST", headers: {"Content-Type": "application/json", "X-Posd": "1"}, body: JSON.stringify(b)});
		const a = await post({action: "scan", code: "` + w.Validation + `"});
		await post({action: "ok"});
		const l = await fetch("/emu/live.json");
		return a.status + " " + l.status;
	})()`
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if got != "421 421" {
		t.Errorf("the rebound page's scan and read: %s, want 421 421", got)
	}
	e.untouched(t)
	// The same browser on the terminal's own address still drives it.
	if err := chromedp.Do(ctx, chromedp.Navigate(e.url+"/")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "live events", `document.getElementById('conn').textContent === 'live'`)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("scan-code"), w.Validation), chromedp.Click(chromedp.ID("scan"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "winner shown", lcdHas("GAGNANT"))
}
