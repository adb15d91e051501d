package console

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/packterm/pos/internal/browsertest"
	"github.com/packterm/pos/validate/ledger"
	"github.com/packterm/pos/validate/settle"
)

// shots is where the console's screenshots go: $CONSOLE_SCREENSHOTS (docs/console's
// pictures are made so), else $ARTIFACTS/console or a temporary directory.
func shots(t *testing.T) string {
	if d := os.Getenv("CONSOLE_SCREENSHOTS"); d != "" {
		return d
	}
	return browsertest.Artifacts(t, "console")
}

func must(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func waitFor(t *testing.T, ctx context.Context, limit time.Duration, what, cond string) {
	t.Helper()
	if err := browsertest.Poll(ctx, limit, cond); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
		t.Fatalf("%s: %v\n%.2000s", what, err, text)
	}
}

// TestBrowserConsole: in Chromium, the console asks for a login; with the token the
// overview opens and goes live; a payout the terminal T1 publishes to the fleet shows on
// the overview within a second, without a reload; the terminals, terminal, settlement
// (the forged payout flagged, loser paid) and retailers pages render; after logout the
// pages ask for the login again; and a page reached under another host name (a DNS
// rebinding) is refused.
func TestBrowserConsole(t *testing.T) {
	ctx := browsertest.Start(t, chromedp.WindowSize(1280, 900), chromedp.Flag("host-resolver-rules", "MAP console.evil.example 127.0.0.1"),
		chromedp.Flag("lang", "fr-FR"), chromedp.Flag("accept-lang", "fr-FR,fr"))
	f := startFleet(t)
	loser := f.ticket(t, func(p int64) bool { return p == 0 })
	winner := f.ticket(t, func(p int64) bool { return p > 0 })
	_, lot, _ := f.plan.Prize(winner)
	f.pay(t, winner, int64(lot), true)
	c, err := New(Options{Addr: "127.0.0.1:0", Token: testToken, Settling: &Settling{Truth: f.truth}})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]uint32{"T1": 1}
	for i := range 11 {
		ids[fmt.Sprintf("T%d", 100+i)] = uint32(1 + i%3)
	}
	c.Model().SetRegistry(registry(ids))
	c.Model().SetStatus(&ledger.StatusList{Retailer: 1, Version: 3, Issued: time.Now().Unix(), Ranges: []ledger.PackRange{
		{Block: 7, First: 0, Count: 6, State: ledger.PackDelivered}, {Block: 7, First: 6, Count: 1, State: ledger.PackVoid},
		{Block: 7, First: 7, Count: 1, State: ledger.PackStolen}}}, true, true)
	f.feed(t, c)
	srv := httptest.NewServer(c)
	t.Cleanup(func() { srv.CloseClientConnections(); srv.Close() }) // the page's event stream too
	dir := shots(t)

	must(t, ctx, "open", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("token")))
	waitFor(t, ctx, 5*time.Second, "no page without login", `document.getElementById('n-payouts') === null`)
	browsertest.Screenshot(t, ctx, dir, "console-login.png")
	must(t, ctx, "log in", chromedp.SendKeys(chromedp.ID("token"), testToken), chromedp.Click(chromedp.ID("login")),
		chromedp.WaitVisible(chromedp.ID("n-payouts")))
	waitFor(t, ctx, 5*time.Second, "live", `document.getElementById('conn').className === 'live'`)
	waitFor(t, ctx, time.Second, "one payout", `document.querySelector('#n-payouts .n').textContent === '1'`)
	start := time.Now()
	forged := f.pay(t, loser, 5000, false)
	waitFor(t, ctx, time.Second, "the payout live on the overview", `document.querySelector('#n-payouts .n').textContent === '2'`)
	t.Logf("payout published to overview updated: %v", time.Since(start))
	waitFor(t, ctx, 10*time.Second, "the forged payout flagged on the overview", `document.querySelector('#n-flags .n').textContent === '1'`)
	browsertest.Screenshot(t, ctx, dir, "console-overview.png")

	must(t, ctx, "tablet", chromedp.EmulateViewport(820, 1180, chromedp.EmulateScale(1), chromedp.EmulateTouch))
	browsertest.Screenshot(t, ctx, dir, "console-overview-tablet.png")
	must(t, ctx, "laptop", chromedp.EmulateViewport(1280, 900))

	must(t, ctx, "terminals", chromedp.Navigate(srv.URL+"/terminals"), chromedp.WaitVisible(chromedp.ID("terminal-list")))
	waitFor(t, ctx, 5*time.Second, "T1 online", `document.querySelector('#terminal-list').textContent.includes('T1')`)
	browsertest.Screenshot(t, ctx, dir, "console-terminals.png")
	must(t, ctx, "terminal", chromedp.Navigate(srv.URL+"/terminals/T1"))
	waitFor(t, ctx, 5*time.Second, "T1's records", fmt.Sprintf(`document.getElementById('rec-T1-%d') !== null`, forged.Seq))
	start = time.Now()
	other := f.ticket(t, func(p int64) bool { return p > int64(lot) })
	_, otherLot, _ := f.plan.Prize(other)
	third := f.pay(t, other, int64(otherLot), true)
	waitFor(t, ctx, time.Second, "the payout live on the terminal's page", fmt.Sprintf(`document.getElementById('rec-T1-%d') !== null`, third.Seq))
	t.Logf("payout published to terminal page updated: %v", time.Since(start))
	browsertest.Screenshot(t, ctx, dir, "console-terminal.png")

	must(t, ctx, "settlement", chromedp.Navigate(srv.URL+"/settle"))
	waitFor(t, ctx, 10*time.Second, "the forged payout flagged", fmt.Sprintf(
		`[...document.querySelectorAll('#settle-flags tr.flagged')].some(r => r.textContent.includes(%q) && r.textContent.includes(%q))`,
		forged.ID(), settle.ReasonLoserPaid))
	browsertest.Screenshot(t, ctx, dir, "console-settlement.png")
	must(t, ctx, "retailers", chromedp.Navigate(srv.URL+"/retailers?lang=en"), chromedp.WaitVisible(chromedp.ID("retailer-1")))
	browsertest.Screenshot(t, ctx, dir, "console-retailers-en.png")
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(body, forged.CodeText()) || strings.Contains(body, testToken) {
		t.Error("a code or the token shown")
	}

	must(t, ctx, "log out", chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("logout")),
		chromedp.Click(chromedp.ID("logout")), chromedp.WaitVisible(chromedp.ID("token")))
	must(t, ctx, "settlement without login", chromedp.Navigate(srv.URL+"/settle"))
	waitFor(t, ctx, 5*time.Second, "login asked", `document.getElementById('token') !== null && document.getElementById('settle-flags') === null`)

	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	must(t, ctx, "another host name", chromedp.Navigate("http://console.evil.example"+port+"/login"))
	waitFor(t, ctx, 5*time.Second, "refused", `document.body.textContent.includes('misdirected') && document.getElementById('token') === null`)
}
