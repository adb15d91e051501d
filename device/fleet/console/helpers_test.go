package console

import (
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

const (
	testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	testAddr  = "127.0.0.1:8090"
	testHost  = "localhost:8090"
)

// testNow is the tests' clock at start: mid-afternoon, so that the day's records stay on it.
var testNow = time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)

func testConsole(t testing.TB, opt func(*Options)) (*Console, *clockwork.FakeClock) {
	t.Helper()
	clk := clockwork.NewFakeClockAt(testNow)
	o := Options{Addr: testAddr, Token: testToken, Clock: clk}
	if opt != nil {
		opt(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c, clk
}

// rec is a record of terminal's (its hash made of its id and salt: a fork has another salt).
func rec(terminal string, seq uint64, kind journal.Kind, amount int64, ticket codes.TicketID, salt string) journal.Record {
	r := journal.Record{Entry: journal.Entry{Kind: kind, Amount: amount, Ticket: ticket, Time: testNow}, Terminal: terminal, Seq: seq}
	r.Hash = sha256.Sum256([]byte(r.ID() + salt))
	return r
}

func registry(ids map[string]uint32) *server.Registry {
	reg := &server.Registry{}
	for id, ret := range ids {
		reg.Terminals = append(reg.Terminals, server.Terminal{ID: id, Retailer: ret})
	}
	return reg
}

// request is a request to the console with the right Host, and cookie if not nil.
func request(method, path string, body url.Values, cookie *http.Cookie) *http.Request {
	var r *http.Request
	if body != nil {
		r = httptest.NewRequest(method, path, strings.NewReader(body.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r.Host = testHost
	r.Header.Set("Accept", "text/html")
	if cookie != nil {
		r.AddCookie(cookie)
	}
	return r
}

func serve(c *Console, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	c.ServeHTTP(w, r)
	return w
}

// login logs in with the token and returns the session cookie.
func login(t testing.TB, c *Console) *http.Cookie {
	t.Helper()
	w := serve(c, request("POST", "/login", url.Values{"token": {testToken}}, nil))
	if w.Code != http.StatusSeeOther {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	for _, ck := range w.Result().Cookies() {
		if ck.Name == CookieName {
			return ck
		}
	}
	t.Fatal("login: no session cookie")
	return nil
}

// getPage gets path logged in and fails the test unless it answers 200.
func getPage(t testing.TB, c *Console, ck *http.Cookie, path string) string {
	t.Helper()
	w := serve(c, request("GET", path, nil, ck))
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
	}
	return w.Body.String()
}
