package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/guesses"
)

// tokenServer is a board's status page that asks for the token (as beyond loopback), on a
// fake clock, driven with raw requests.
func tokenServer(t *testing.T) (*Server, *clockwork.FakeClock) {
	t.Helper()
	clk := clockwork.NewFakeClockAt(time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC))
	s, err := New(Options{RequireToken: true, TokenSHA256: testTokenSHA(), Addr: "192.168.1.20:8080", Clock: clk,
		Parts: &Parts{TerminalID: "POS-0042", Clock: clk}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, clk
}

// tokenRequest sends GET /status.json with the bearer token from remote (ip:port).
func tokenRequest(s *Server, remote, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodGet, "http://192.168.1.20:8080/status.json", nil)
	r.RemoteAddr = remote
	r.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// loginRequest posts the login form from remote, as the page's own form.
func loginRequest(s *Server, remote, token string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, "http://192.168.1.20:8080/login", strings.NewReader(url.Values{"token": {token}}.Encode()))
	r.RemoteAddr = remote
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Origin", "http://192.168.1.20:8080")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// A stranger on the shop's network guessing tokens from their own address must not lock
// the technician out (issue 30, hole 3): one lockout for all kept everyone out up to a
// day after 5 wrong tokens from anywhere.
func TestStrangerElsewhereDoesNotLockTechnicianOut(t *testing.T) {
	s, _ := tokenServer(t)
	for i := range 20 {
		if w := tokenRequest(s, "127.0.0.2:40000", fmt.Sprintf("guess-%d", i)); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong token %d: %d", i, w.Code)
		}
		if w := loginRequest(s, "127.0.0.2:40001", fmt.Sprintf("form-guess-%d", i)); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong login %d: %d", i, w.Code)
		}
	}
	// The stranger's own address is paused: even the right token is not checked there.
	if w := tokenRequest(s, "127.0.0.2:40002", testToken); w.Code != http.StatusUnauthorized || w.Header().Get("Retry-After") == "" {
		t.Errorf("right token from the guessing address: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	if w := loginRequest(s, "127.0.0.2:40003", testToken); !strings.Contains(w.Body.String(), "Too many wrong tokens from this address") {
		t.Errorf("login from the guessing address does not say why: %d %s", w.Code, w.Body.String())
	}
	// The technician, at another address, is let in at once, by header and by the form.
	if w := tokenRequest(s, "127.0.0.1:50000", testToken); w.Code != http.StatusOK {
		t.Fatalf("technician's right token refused after a stranger's guesses: %d %s", w.Code, w.Body.String())
	}
	w := loginRequest(s, "127.0.0.1:50001", testToken)
	if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Set-Cookie"), CookieName) {
		t.Fatalf("technician's login refused after a stranger's guesses: %d %s", w.Code, w.Body.String())
	}
	// An IPv6 host counts as its /64: hopping addresses within it is one source.
	for i := range 10 {
		tokenRequest(s, fmt.Sprintf("[2001:db8:1:2::%x]:40000", i+1), "guess")
	}
	if w := tokenRequest(s, "[2001:db8:1:2::ffff]:40000", testToken); w.Code != http.StatusUnauthorized {
		t.Errorf("right token from another address of the guessing /64: %d", w.Code)
	}
	if w := tokenRequest(s, "[2001:db8:1:3::1]:40000", testToken); w.Code != http.StatusOK {
		t.Errorf("right token from another /64: %d", w.Code)
	}
}

// The guesses checked stay bounded whatever the number of addresses: all sources draw on
// one budget (guesses.Budget at once, one more every guesses.Refill).
func TestWebGuessBudgetBounds(t *testing.T) {
	s, clk := tokenServer(t)
	const seconds, perSecond = 600, 5
	checked, addr := 0, 0
	for range seconds {
		for range perSecond {
			addr++
			w := tokenRequest(s, fmt.Sprintf("10.%d.%d.%d:1234", addr>>16&255, addr>>8&255, addr&255), "guess")
			if w.Code != http.StatusUnauthorized {
				t.Fatalf("wrong token: %d", w.Code)
			}
			if w.Header().Get("Retry-After") == "" { // checked, not refused unchecked
				checked++
			}
		}
		clk.Advance(time.Second)
	}
	bound := guesses.Budget + int(seconds*time.Second/guesses.Refill)
	if checked > bound || checked < bound-guesses.Budget {
		t.Errorf("%d guesses checked from %d addresses in %d s, want at most %d", checked, addr, seconds, bound)
	}
	// The flood over, one refill later the technician at a new address is let in.
	clk.Advance(guesses.Refill)
	if w := tokenRequest(s, "192.168.1.7:5000", testToken); w.Code != http.StatusOK {
		t.Errorf("technician after the flood: %d", w.Code)
	}
}

func TestSourceOf(t *testing.T) {
	for remote, want := range map[string]string{
		"192.0.2.1:80":              "192.0.2.1",
		"[::ffff:192.0.2.1]:80":     "192.0.2.1",
		"[2001:db8:a:b:c:d:e:f]:80": "2001:db8:a:b::/64",
		"[fe80::1%eth0]:80":         "fe80::/64",
		"[::1]:80":                  "::/64",
		"192.0.2.9":                 "192.0.2.9",
		"pipe":                      "pipe",
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = remote
		if got := sourceOf(r); got != want {
			t.Errorf("sourceOf(%q) = %q, want %q", remote, got, want)
		}
	}
}
