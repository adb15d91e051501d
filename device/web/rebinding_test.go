package web

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/validate/block"
)

// raw sends one request as a script on a rebound page (or curl) would: any Host, any headers.
func raw(t *testing.T, method, u, host string, hdr map[string]string, body string) (int, string) {
	t.Helper()
	// A bound on the whole exchange: an event stream answered to a rebound page never ends.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (e *env) hostPort(t *testing.T) (string, string) {
	t.Helper()
	u, err := url.Parse(e.url)
	if err != nil {
		t.Fatal(err)
	}
	return u.Hostname(), u.Port()
}

// untouched fails the test when the terminal scanned or paid anything.
func (e *env) untouched(t *testing.T) {
	t.Helper()
	if s := strings.Join(e.rig.Terminal.Screen(), " "); strings.Contains(s, "GAGNANT") || strings.Contains(s, "PAYÉ") {
		t.Errorf("the terminal took the request: screen %q", s)
	}
	if n := len(e.rig.Printer.Receipts()); n != 0 {
		t.Errorf("%d receipts printed", n)
	}
	if seq, _ := e.rig.Journal.Head(); seq != 0 {
		t.Errorf("journal at record %d", seq)
	}
}

func scanBody(w block.Row) string { return `{"action":"scan","code":"` + w.Validation + `"}` }

// TestRebindingHostRefused is a DNS-rebinding page in the shoes of anyone on the network: its
// name now resolves to the terminal's loopback, so its script's requests are same-origin to
// the browser and carry X-Posd, but their Host is the attacker's name. Nothing may be read,
// scanned or paid, on loopback too where no token is asked.
func TestRebindingHostRefused(t *testing.T) {
	e := startEnv(t, nil)
	w := e.winner(t, 10_00)
	_, port := e.hostPort(t)
	for _, host := range []string{"evil.example:" + port, "127.0.0.1.nip.io:" + port, "localhost.evil.example:" + port, "evil.example"} {
		page := map[string]string{"X-Posd": "1", "Content-Type": "application/json", "Origin": "http://" + host, "Sec-Fetch-Site": "same-origin"}
		if c, body := raw(t, http.MethodPost, e.url+"/emu/input", host, page, scanBody(w)); c != http.StatusMisdirectedRequest {
			t.Errorf("Host %s: scan answered %d %s", host, c, body)
		}
		if c, _ := raw(t, http.MethodPost, e.url+"/emu/input", host, page, `{"action":"ok"}`); c != http.StatusMisdirectedRequest {
			t.Errorf("Host %s: OK answered %d", host, c)
		}
		for _, path := range []string{"/emu/live.json", "/status.json", "/", "/emu/events", "/login", "/static/app.css"} {
			if c, body := raw(t, http.MethodGet, e.url+path, host, nil, ""); c != http.StatusMisdirectedRequest {
				t.Errorf("Host %s: GET %s answered %d (%.80s)", host, path, c, body)
			}
		}
	}
	e.untouched(t)
	if !strings.Contains(logText(e.logs), "request refused") {
		t.Error("the refusals are not logged")
	}
}

// TestHostNames: the names the page answers to, and those it does not.
func TestHostNames(t *testing.T) {
	e := startEnv(t, func(o *Options) { o.Hosts = []string{"pos-0042.local", "localhost:9000"} })
	_, port := e.hostPort(t)
	p, _ := strconv.Atoi(port)
	other := strconv.Itoa(p + 1)
	for host, want := range map[string]int{
		"127.0.0.1:" + port: http.StatusOK, "localhost:" + port: http.StatusOK, "LocalHost:" + port: http.StatusOK,
		"127.0.0.2:" + port: http.StatusOK, "pos-0042.local:" + port: http.StatusOK, "POS-0042.local:" + port: http.StatusOK,
		"localhost:9000":     http.StatusOK,
		"localhost:" + other: http.StatusMisdirectedRequest, "pos-0042.local:" + other: http.StatusMisdirectedRequest,
		"localhost": http.StatusMisdirectedRequest, "pos-0043.local:" + port: http.StatusMisdirectedRequest,
		"192.168.1.20:" + port: http.StatusMisdirectedRequest, "[::1]x:" + port: http.StatusMisdirectedRequest,
		"localhost.:" + port: http.StatusMisdirectedRequest, "0.0.0.0:" + port: http.StatusMisdirectedRequest,
	} {
		if c, _ := raw(t, http.MethodGet, e.url+"/status.json", host, nil, ""); c != want {
			t.Errorf("Host %q: %d, want %d", host, c, want)
		}
	}
}

// TestCrossSiteOriginRefused is another site's page in the shoes of anyone on the network:
// the right Host (the victim's browser on the terminal), but another origin. Every
// state-changing request is refused, whatever header it brings.
func TestCrossSiteOriginRefused(t *testing.T) {
	e := startEnv(t, nil)
	w := e.winner(t, 10_00)
	host, port := e.hostPort(t)
	for name, hdr := range map[string]map[string]string{
		"another origin":            {"Origin": "http://evil.example"},
		"another port":              {"Origin": "http://" + host + ":1"},
		"an opaque origin":          {"Origin": "null"},
		"opaque, cross-site":        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
		"no origin, cross-site":     {"Sec-Fetch-Site": "cross-site"},
		"no origin, same-site":      {"Sec-Fetch-Site": "same-site"},
		"no origin, other referer":  {"Referer": "http://evil.example/page"},
		"an origin with a password": {"Origin": "http://a:b@" + host + ":" + port},
	} {
		hdr["X-Posd"], hdr["Content-Type"] = "1", "application/json"
		if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", hdr, scanBody(w)); c != http.StatusForbidden {
			t.Errorf("%s: scan answered %d %s", name, c, body)
		}
	}
	// The login form too (on a board, beyond loopback: a session planted by another site).
	form := map[string]string{"Origin": "http://evil.example", "Content-Type": "application/x-www-form-urlencoded"}
	if c, _ := raw(t, http.MethodPost, e.url+"/login", "", form, "token=x"); c != http.StatusForbidden {
		t.Errorf("cross-site login: %d", c)
	}
	e.untouched(t)
}

// TestSameOriginPostWorks: what the page itself sends, and a tool without a browser's
// headers, still drive the terminal.
func TestSameOriginPostWorks(t *testing.T) {
	e := startEnv(t, nil)
	w := e.winner(t, 10_00)
	page := map[string]string{"X-Posd": "1", "Content-Type": "application/json", "Origin": e.url, "Sec-Fetch-Site": "same-origin"}
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", page, scanBody(w)); c != http.StatusOK {
		t.Fatalf("same-origin scan: %d %s", c, body)
	}
	if s := strings.Join(e.rig.Terminal.Screen(), " "); !strings.Contains(s, "GAGNANT") {
		t.Fatalf("screen after the scan: %q", s)
	}
	// A form under a strict referrer policy: "Origin: null", but the fetch metadata says same-origin.
	form := map[string]string{"X-Posd": "1", "Content-Type": "application/json", "Origin": "null", "Sec-Fetch-Site": "same-origin"}
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", form, `{"action":"ok"}`); c != http.StatusOK {
		t.Fatalf("same-origin OK: %d %s", c, body)
	}
	if s := strings.Join(e.rig.Terminal.Screen(), " "); !strings.Contains(s, "PAYÉ") {
		t.Errorf("screen after OK: %q", s)
	}
	// A tool (curl): none of a browser's headers.
	if c, _ := raw(t, http.MethodPost, e.url+"/emu/input", "", map[string]string{"X-Posd": "1", "Referer": e.url + "/"}, `{"action":"cancel"}`); c != http.StatusOK {
		t.Errorf("a tool's post: %d", c)
	}
	if c, _ := get(t, http.DefaultClient, e.url+"/status.json", nil); c != http.StatusOK {
		t.Errorf("status.json: %d", c)
	}
	resp, err := http.Get(e.url + "/status.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if p := resp.Header.Get("Referrer-Policy"); p != "same-origin" {
		t.Errorf("Referrer-Policy %q: the page's own forms would send Origin: null", p)
	}
}

// TestNoFullCodeShown is anyone who can read the page (a shop's customer glancing at the
// technician's phone, a recording of the screen): after a validation code is scanned, no
// page, JSON or event holds it whole, only the ticket it names; a log line that quotes one
// is masked in the ring the status page shows.
func TestNoFullCodeShown(t *testing.T) {
	e := startEnv(t, nil)
	w := e.winner(t, 10_00)
	masked := w.Validation[:8] + "…"
	if c, body := raw(t, http.MethodPost, e.url+"/emu/input", "", map[string]string{"X-Posd": "1"}, scanBody(w)); c != http.StatusOK || strings.Contains(body, w.Validation) || !strings.Contains(body, masked) {
		t.Errorf("the scan's answer (%d): %s", c, body)
	}
	// A mistyped code (the last character wrong) is masked as well.
	typo := w.Validation[:24] + "0"
	if typo == w.Validation {
		typo = w.Validation[:24] + "1"
	}
	raw(t, http.MethodPost, e.url+"/emu/input", "", map[string]string{"X-Posd": "1"}, `{"action":"cancel"}`)
	raw(t, http.MethodPost, e.url+"/emu/input", "", map[string]string{"X-Posd": "1"}, `{"action":"scan","code":"`+typo+`"}`)
	slog.New(e.logs.Tee(slog.DiscardHandler)).Warn("a part quoting a code "+w.Validation, "text", w.Validation)
	for _, path := range []string{"/emu/live.json", "/status.json", "/", "/status"} {
		c, body := get(t, http.DefaultClient, e.url+path, map[string]string{"Accept": "text/html"})
		if c != http.StatusOK {
			t.Errorf("%s: %d", path, c)
		}
		for _, secret := range []string{w.Validation, w.Validation[8:], typo[8:]} {
			if strings.Contains(body, secret) {
				t.Errorf("%s holds a code's secret part %s", path, secret)
			}
		}
	}
	if _, body := get(t, http.DefaultClient, e.url+"/status.json", nil); !strings.Contains(body, "a part quoting a code "+masked) {
		t.Errorf("the log line is not in the ring, masked: %s", body)
	}
	// The event stream's first event.
	resp, err := http.Get(e.url + "/emu/events")
	if err != nil {
		t.Fatal(err)
	}
	var ev strings.Builder
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		ev.WriteString(line)
		if err != nil || line == "\n" && strings.Contains(ev.String(), "data: ") {
			break
		}
	}
	resp.Body.Close()
	if s := ev.String(); !strings.Contains(s, "event: live") || !strings.Contains(s, masked) || strings.Contains(s, typo[8:]) || strings.Contains(s, w.Validation[8:]) {
		t.Errorf("first event: %s", s)
	}
}
