package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/validate/codes"
)

// pay scans a winner of lot cents through the page and pays it: two receipts, the
// player's and the retailer's copies.
func (e *env) pay(t *testing.T, lot int64) (game int) {
	t.Helper()
	w := e.winner(t, lot)
	page := map[string]string{"X-Posd": "1"}
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", page, scanBody(w)); c != http.StatusOK {
		t.Fatalf("scan: %d %s", c, body)
	}
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", page, `{"action":"ok"}`); c != http.StatusOK {
		t.Fatalf("ok: %d %s", c, body)
	}
	if n := len(e.rig.Printer.Receipts()); n != 2 {
		t.Fatalf("%d receipts after a payout, want 2", n)
	}
	return int(w.Game)
}

// rawHeader is raw's GET with the answer's headers.
func rawHeader(t *testing.T, u string) (int, http.Header, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// Receipt N is served as its image (N.png) and its text (N.txt, always 404 before), never
// cached (it was cached an hour, though a fresh emulator's receipt N is another receipt).
func TestReceiptTextAndImage(t *testing.T) {
	e := startEnv(t, nil)
	e.pay(t, 5_00)
	rs := e.rig.Printer.Receipts()
	for n := 1; n <= 2; n++ {
		u := e.url + "/emu/receipt/" + string(rune('0'+n))
		code, h, body := rawHeader(t, u+".txt")
		if code != http.StatusOK || !strings.HasPrefix(h.Get("Content-Type"), "text/plain") || body != rs[n-1].PlainText() || body == "" {
			t.Errorf("receipt %d.txt: %d %s %q", n, code, h.Get("Content-Type"), body)
		}
		if cc := h.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("receipt %d.txt: Cache-Control %q", n, cc)
		}
		code, h, body = rawHeader(t, u+".png")
		if code != http.StatusOK || h.Get("Content-Type") != "image/png" || !strings.HasPrefix(body, "\x89PNG") {
			t.Errorf("receipt %d.png: %d %s", n, code, h.Get("Content-Type"))
		}
		if cc := h.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("receipt %d.png: Cache-Control %q, want no-store", n, cc)
		}
	}
	for _, p := range []string{"0.png", "3.png", "3.txt", "1", "1.gif", "01.png", "1.txt.png", "+1.txt", "-1.png", ".png"} {
		if code, _, _ := rawHeader(t, e.url+"/emu/receipt/"+p); code != http.StatusNotFound {
			t.Errorf("receipt %s: %d, want 404", p, code)
		}
	}
}

var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// snakeKeys lists the keys of v (decoded JSON) at any depth that are not snake_case.
func snakeKeys(v any, path string, bad *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if !snakeKey.MatchString(k) {
				*bad = append(*bad, path+"."+k)
			}
			snakeKeys(x, path+"."+k, bad)
		}
	case []any:
		for _, x := range v {
			snakeKeys(x, path+"[]", bad)
		}
	}
}

// status.json and the live state use one key style, snake_case (today's totals came as Go
// field names: "SalesAmount", "PerGame"), and today's payouts per game have one entry per
// game, 8 (index 0 of the journal's table, no game, came as a ninth).
func TestStatusJSONKeysAndGames(t *testing.T) {
	e := startEnv(t, nil)
	g := e.pay(t, 5_00)
	for _, p := range []string{"/status.json", "/emu/live.json"} {
		code, _, body := rawHeader(t, e.url+p)
		var v any
		if err := json.Unmarshal([]byte(body), &v); code != http.StatusOK || err != nil {
			t.Fatalf("%s: %d %v", p, code, err)
		}
		var bad []string
		snakeKeys(v, "", &bad)
		if len(bad) > 0 {
			t.Errorf("%s: keys not snake_case: %v", p, bad)
		}
	}
	_, _, body := rawHeader(t, e.url+"/status.json")
	var st struct {
		Journal struct {
			Today struct {
				Payouts      int   `json:"payouts"`
				PayoutsCents int64 `json:"payouts_cents"`
				PerGame      []struct {
					Game         int   `json:"game"`
					Payouts      int   `json:"payouts"`
					PayoutsCents int64 `json:"payouts_cents"`
				} `json:"per_game"`
			} `json:"today"`
		} `json:"journal"`
	}
	if err := json.Unmarshal([]byte(body), &st); err != nil {
		t.Fatal(err)
	}
	d := st.Journal.Today
	if d.Payouts != 1 || d.PayoutsCents != 5_00 || len(d.PerGame) != 8 {
		t.Fatalf("today: %+v (%d games)", d, len(d.PerGame))
	}
	for i, pg := range d.PerGame {
		want := 0
		if pg.Game == g {
			want = 1
		}
		if pg.Game != i+1 || pg.Payouts != want || pg.PayoutsCents != int64(want*5_00) {
			t.Errorf("game entry %d: %+v (the payout was of game %d)", i, pg, g)
		}
	}
}

// A line typed on posd --emulate's stdin shows as the page's last input (it showed only the
// page's own inputs), masked as the page's: a code cut, an unlock's token never shown.
func TestStdinShowsAsLastInput(t *testing.T) {
	e := startEnv(t, nil)
	w := e.winner(t, 5_00)
	var echoed []string
	var failed []error
	echo, fail := e.srv.Stdin(func(l string) { echoed = append(echoed, l) }, func(err error) { failed = append(failed, err) })
	type last struct {
		N     int    `json:"n"`
		Input string `json:"input"`
		From  string `json:"from"`
		Error string `json:"error"`
	}
	feed := func(line string) (last, string) {
		t.Helper()
		if err := e.rig.Feed(context.Background(), strings.NewReader(line+"\n"), echo, fail); err != nil {
			t.Fatal(err)
		}
		code, _, body := rawHeader(t, e.url+"/emu/live.json")
		var l struct{ Last last }
		if err := json.Unmarshal([]byte(body), &l); code != http.StatusOK || err != nil {
			t.Fatalf("live: %d %v", code, err)
		}
		return l.Last, body
	}
	l, body := feed(w.Validation)
	if l.N != 1 || l.From != "stdin" || l.Input != "scan "+codes.Redact(w.Validation) || l.Error != "" || strings.Contains(body, w.Validation) {
		t.Errorf("after a code on stdin: %+v", l)
	}
	if s := strings.Join(e.rig.Terminal.Screen(), " "); !strings.Contains(s, "GAGNANT") {
		t.Errorf("the terminal did not take the code: %q", s)
	}
	if l, _ = feed("# a comment"); l.N != 1 {
		t.Errorf("a comment shows as an input: %+v", l)
	}
	if l, _ = feed("!OK"); l.N != 2 || l.Input != "ok" || l.From != "stdin" {
		t.Errorf("after !OK: %+v", l)
	}
	if l, body = feed("!unlock s3cret-t0ken-typed"); l.Input != "unlock" || strings.Contains(body, "s3cret") {
		t.Errorf("after !unlock: %+v", l)
	}
	if l, _ = feed("!format-disk now"); l.Input != "format-disk now" || !strings.Contains(l.Error, "unknown command") {
		t.Errorf("after an unknown command: %+v", l)
	}
	// A line too long to read is refused unapplied (no echo): shown as such, its error with it,
	// and it does not land on the line before.
	if l, body = feed(strings.Repeat("9", emulated.MaxLine+1)); l.N != 5 || l.Input != "line refused" || !strings.Contains(l.Error, "too long") || len(body) > 64<<10 {
		t.Errorf("after a line too long: %+v", l)
	}
	// The page's own input comes next, numbered after them, without "from".
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", map[string]string{"X-Posd": "1"}, `{"action":"report"}`); c != http.StatusOK ||
		!strings.Contains(body, `"n": 6`) || strings.Contains(body, `"from"`) {
		t.Errorf("the page's input after stdin's: %d %s", c, body)
	}
	if len(echoed) != 5 || len(failed) != 2 {
		t.Errorf("echo saw %d lines, fail %d errors: the wrapped functions must still be called", len(echoed), len(failed))
	}
}
