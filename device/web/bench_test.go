package web

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// BenchmarkLive is the event stream's cost per look (every 100 ms per open page): the
// emulated terminal's state, as JSON.
func BenchmarkLive(b *testing.B) {
	e := startEnv(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e.srv.emu.live()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStatus is the cost of one /status.json.
func BenchmarkStatus(b *testing.B) {
	e := startEnv(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e.srv.o.Parts.Collect()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHostCheck is what the Host and Origin checks add to every request: a POST from
// the page (Host, Origin and Sec-Fetch-Site looked at).
func BenchmarkHostCheck(b *testing.B) {
	g := newOrigins(Options{Addr: "127.0.0.1:8080", Hosts: []string{"pos-0042.local"}, Logger: slog.New(slog.DiscardHandler), Clock: clockwork.NewRealClock()})
	h := g.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	r := httptest.NewRequest(http.MethodPost, "/emu/input", nil)
	r.Host = "pos-0042.local:8080"
	r.Header.Set("Origin", "http://pos-0042.local:8080")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
	}
	if w.Code != http.StatusOK {
		b.Fatalf("refused: %d", w.Code)
	}
}

// BenchmarkBearerToken is the token check of a request beyond loopback with the right
// bearer token: its source from the remote address, the Guard's check and result, the hash.
func BenchmarkBearerToken(b *testing.B) {
	g, err := newGuard(true, testTokenSHA(), nil, time.Now)
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodGet, "/status.json", nil)
	r.RemoteAddr = "[2001:db8:1:2::7]:50000"
	r.Header.Set("Authorization", "Bearer "+testToken)
	for b.Loop() {
		if ok, err := g.allowed(r); !ok {
			b.Fatal(err)
		}
	}
}
