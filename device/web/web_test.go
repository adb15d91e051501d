package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

func get(t *testing.T, c *http.Client, u string, hdr map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestStatusJSONOnLoopback(t *testing.T) {
	e := startEnv(t, nil)
	code, body := get(t, http.DefaultClient, e.url+"/status.json", nil)
	if code != http.StatusOK {
		t.Fatalf("status.json: %d %s", code, body)
	}
	var s Status
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Ledgers) != 1 || s.Ledgers[0].Block != 7 || s.Ledgers[0].Entries != 64 || s.Journal == nil || s.Hardware.Scanner != "connected" || !s.Packs.AllDelivered {
		t.Errorf("status %+v", s)
	}
	if len(s.Hardware.Inputs) != 3 || s.Hardware.Display.Geometry == "" || s.Hardware.Printer.Mode != "default" {
		t.Errorf("hardware %+v", s.Hardware)
	}
	code, body = get(t, http.DefaultClient, e.url+"/status", map[string]string{"Accept": "text/html"})
	if code != http.StatusOK || !strings.Contains(body, "EMU-0001") || !strings.Contains(body, "record 0") {
		t.Errorf("status page: %d %s", code, body)
	}
}

func TestTokenBeyondLoopback(t *testing.T) {
	e := startEnv(t, func(o *Options) { o.RequireToken = true })
	u := e.url + "/status.json"
	if code, _ := get(t, http.DefaultClient, u, nil); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
	if code, _ := get(t, http.DefaultClient, u, map[string]string{"Authorization": "Bearer wrong"}); code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", code)
	}
	if code, _ := get(t, http.DefaultClient, u, map[string]string{"Authorization": "Bearer " + testToken}); code != http.StatusOK {
		t.Errorf("right token: %d", code)
	}
	if code, body := get(t, http.DefaultClient, e.url+"/", map[string]string{"Accept": "text/html"}); code != http.StatusUnauthorized || !strings.Contains(body, `name="token"`) {
		t.Errorf("browser without token: %d, no login form", code)
	}
	// The event stream and the controls are behind the token too.
	if code, _ := get(t, http.DefaultClient, e.url+"/emu/live.json", nil); code != http.StatusUnauthorized {
		t.Errorf("live state without token: %d", code)
	}
	// The login form sets a session cookie.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.PostForm(e.url+"/login", url.Values{"token": {"wrong"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong login: %d", resp.StatusCode)
	}
	if code, _ := get(t, c, u, nil); code != http.StatusUnauthorized {
		t.Errorf("after a wrong login: %d", code)
	}
	resp, err = c.PostForm(e.url+"/login", url.Values{"token": {testToken}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code, _ := get(t, c, u, nil); code != http.StatusOK {
		t.Errorf("after login: %d", code)
	}
	if !strings.Contains(logText(e.logs), "technician login refused") {
		t.Error("a refused login is not logged")
	}
}

func logText(r *LogRing) string {
	var sb strings.Builder
	for _, l := range r.Lines() {
		sb.WriteString(l.Message + l.Attrs + "\n")
	}
	return sb.String()
}

func TestFailClosed(t *testing.T) {
	if _, err := New(Options{RequireToken: true}); !errors.Is(err, ErrNoToken) {
		t.Errorf("token required, none configured: %v", err)
	}
	if _, _, err := Listen("0.0.0.0:0", Options{}); !errors.Is(err, ErrNoToken) {
		t.Errorf("listen beyond loopback without a token: %v", err)
	}
	if _, err := New(Options{RequireToken: true, TokenSHA256: "abc"}); err == nil {
		t.Error("a short token hash accepted")
	}
	if err := Check("127.0.0.1:8080", ""); err != nil {
		t.Error(err)
	}
	if err := Check("[::1]:8080", ""); err != nil {
		t.Error(err)
	}
	if err := Check(":8080", ""); !errors.Is(err, ErrNoToken) {
		t.Errorf("all interfaces without a token: %v", err)
	}
	if err := Check("192.168.1.2:8080", testTokenSHA()); err != nil {
		t.Error(err)
	}
}

func TestControlsNeedThePageHeader(t *testing.T) {
	e := startEnv(t, nil)
	post := func(hdr bool, body string) int {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/emu/input", bytes.NewBufferString(body))
		req.Header.Set("Content-Type", "application/json")
		if hdr {
			req.Header.Set("X-Posd", "1")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if c := post(false, `{"action":"ok"}`); c != http.StatusForbidden {
		t.Errorf("cross-site post: %d", c)
	}
	if c := post(true, `{"action":"format-disk"}`); c != http.StatusBadRequest {
		t.Errorf("unknown action: %d", c)
	}
	if c := post(true, `{"action":"scan"}`); c != http.StatusBadRequest {
		t.Errorf("scan of nothing: %d", c)
	}
	w := e.winner(t, 5_00)
	if c := post(true, `{"action":"scan","code":"`+w.Validation+`"}`); c != http.StatusOK {
		t.Errorf("scan: %d", c)
	}
	if s := strings.Join(e.rig.Terminal.Screen(), " "); !strings.Contains(s, "GAGNANT") {
		t.Errorf("screen after the scan: %q", s)
	}
}

func TestLogRing(t *testing.T) {
	r := NewLogRing(3, slog.LevelInfo)
	var out bytes.Buffer
	log := slog.New(r.Tee(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn}))).With("part", "printer").WithGroup("g")
	log.Debug("hidden")
	for _, m := range []string{"one", "two", "three", "four"} {
		log.Info(m, "n", 1)
	}
	log.Warn("five")
	lines := r.Lines()
	if len(lines) != 3 || lines[0].Message != "three" || lines[2].Message != "five" || lines[0].Attrs != "part=printer g.n=1" {
		t.Errorf("ring %+v", lines)
	}
	if strings.Contains(out.String(), "four") || !strings.Contains(out.String(), "five") {
		t.Errorf("next handler got %q", out.String())
	}
}

func TestReadable(t *testing.T) {
	got := readable([]string{"PAY{É} 5,00 {€}", "{cg3} {0x80} {", "a}b"})
	want := []string{"PAYÉ 5,00 €", "{cg3} {0x80} {", "a}b"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%q, want %q", got[i], want[i])
		}
	}
}

// TestBoardStatusPage is the page as a board serves it: no emulator, "/" is the status
// page, the pack status list's ranges shown, and no control answers.
func TestBoardStatusPage(t *testing.T) {
	blk, err := testblock.Make(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	trust, err := ledger.LoadTrustStore(blk.Pub)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ledger.LoadPrivateKey(blk.Key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), ledger.StatusFileName)
	if err := ledger.WriteStatus(path, &ledger.StatusList{Retailer: 42, Version: 3, Ranges: []ledger.PackRange{
		{Block: 7, First: 0, Count: 8, State: ledger.PackDelivered}, {Block: 7, First: 5, Count: 1, State: ledger.PackStolen}}}, key); err != nil {
		t.Fatal(err)
	}
	st, err := ledger.LoadStatus(path, trust)
	if err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(t.TempDir(), journal.Options{Terminal: "T-42"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	s, err := New(Options{Parts: &Parts{TerminalID: "T-42", Journal: j, StatusList: st, Version: "v1.2.3", Slot: fixedSlot("B (v1.2.3)")}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	defer hs.Close()
	code, body := get(t, http.DefaultClient, hs.URL+"/", map[string]string{"Accept": "text/html"})
	for _, want := range []string{"T-42", "v1.2.3", "B (v1.2.3)", "No ledger installed", "Version 3, retailer 42", "stolen", "5–5", "0–7"} {
		if !strings.Contains(body, want) {
			t.Errorf("status page (%d) lacks %q", code, want)
		}
	}
	if code, _ := get(t, http.DefaultClient, hs.URL+"/emu/live.json", nil); code != http.StatusNotFound {
		t.Errorf("emulator state on a board: %d", code)
	}
}

type fixedSlot string

func (s fixedSlot) Slot() (string, error) { return string(s), nil }

func TestTokenGuessingLocksOut(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	g, err := newGuard(true, testTokenSHA(), nil, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	const me, other = "192.0.2.1", "192.0.2.2"
	if ok, _ := g.tokenOK(testToken, me); !ok {
		t.Fatal("right token refused")
	}
	for range guesses.Free {
		if ok, _ := g.tokenOK("guess", me); ok {
			t.Fatal("wrong token accepted")
		}
	}
	if ok, err := g.tokenOK(testToken, me); ok || !errors.Is(err, guesses.ErrSource) {
		t.Errorf("right token from the guessing source during its pause: %v %v", ok, err)
	}
	if ok, err := g.tokenOK(testToken, other); !ok {
		t.Errorf("right token from another source refused: %v", err)
	}
	now = now.Add(guesses.First + time.Second)
	if ok, err := g.tokenOK(testToken, me); !ok {
		t.Errorf("right token refused after the pause: %v", err)
	}
}
