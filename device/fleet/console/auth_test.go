package console

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoginRequired: every page but the login form and the static files asks for a
// login: a browser gets the form (401), anything else a plain 401; a forged or unknown
// session cookie is no login.
func TestLoginRequired(t *testing.T) {
	c, _ := testConsole(t, nil)
	for _, p := range []string{"/", "/terminals", "/terminals/T1", "/settle", "/settle.json", "/settle.csv", "/retailers", "/events", "/records", "/refusals", "/conflicts"} {
		w := serve(c, request("GET", p, nil, nil))
		if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `id="token"`) {
			t.Errorf("GET %s without login: %d, login form %v", p, w.Code, strings.Contains(w.Body.String(), `id="token"`))
		}
		r := request("GET", p, nil, &http.Cookie{Name: CookieName, Value: strings.Repeat("ab", 32)})
		r.Header.Set("Accept", "application/json")
		if w := serve(c, r); w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "<html") {
			t.Errorf("GET %s with an unknown session: %d", p, w.Code)
		}
	}
	if w := serve(c, request("GET", "/static/console.css", nil, nil)); w.Code != http.StatusOK {
		t.Errorf("stylesheet: %d", w.Code)
	}
}

// TestLogin: a wrong token is refused; the right one sets a session cookie HttpOnly and
// SameSite=Strict that opens the pages; logout ends it.
func TestLogin(t *testing.T) {
	c, _ := testConsole(t, nil)
	w := serve(c, request("POST", "/login", url.Values{"token": {strings.Repeat("0", 64)}}, nil))
	if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `id="login-failed"`) || len(w.Result().Cookies()) != 0 {
		t.Fatalf("wrong token: %d, cookies %v", w.Code, w.Result().Cookies())
	}
	w = serve(c, request("POST", "/login", url.Values{"token": {testToken}}, nil))
	ck := w.Result().Cookies()
	if w.Code != http.StatusSeeOther || len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode || ck[0].Name != CookieName {
		t.Fatalf("login: %d, cookies %+v", w.Code, ck)
	}
	if strings.Contains(w.Body.String(), testToken) || strings.Contains(ck[0].Value, testToken) {
		t.Error("the token is in the answer")
	}
	getPage(t, c, ck[0], "/")
	serve(c, request("POST", "/logout", nil, ck[0]))
	if w := serve(c, request("GET", "/", nil, ck[0])); w.Code != http.StatusUnauthorized {
		t.Errorf("after logout: %d", w.Code)
	}
}

// TestLoginThrottled: wrong tokens from one address soon go unchecked, the right one
// included (Retry-After says how long).
func TestLoginThrottled(t *testing.T) {
	c, _ := testConsole(t, nil)
	var last *http.Response
	for range 20 {
		last = serve(c, request("POST", "/login", url.Values{"token": {"guess"}}, nil)).Result()
	}
	if last.Header.Get("Retry-After") == "" {
		t.Fatal("20 wrong tokens: no pause")
	}
	if w := serve(c, request("POST", "/login", url.Values{"token": {testToken}}, nil)); w.Code == http.StatusSeeOther {
		t.Error("the right token was checked during the pause")
	}
}

// TestHostAndOrigin: a Host the console does not answer to (a rebinding page's) gets 421
// before any login; a post from another origin 403.
func TestHostAndOrigin(t *testing.T) {
	c, _ := testConsole(t, nil)
	ck := login(t, c)
	r := request("GET", "/", nil, ck)
	r.Host = "evil.example:8090"
	if w := serve(c, r); w.Code != http.StatusMisdirectedRequest {
		t.Errorf("wrong Host: %d", w.Code)
	}
	r = request("POST", "/login", url.Values{"token": {testToken}}, nil)
	r.Header.Set("Origin", "http://evil.example")
	if w := serve(c, r); w.Code != http.StatusForbidden {
		t.Errorf("cross-origin login: %d", w.Code)
	}
	r = request("POST", "/login", url.Values{"token": {testToken}}, nil)
	r.Header.Set("Origin", "http://"+testHost)
	if w := serve(c, r); w.Code != http.StatusSeeOther {
		t.Errorf("same-origin login: %d", w.Code)
	}
}

// TestEnsureToken: the first start writes a 0600 token; the next reads the same; a
// token others may read is refused.
func TestEnsureToken(t *testing.T) {
	dir := t.TempDir()
	p, tok, err := EnsureToken(dir)
	if err != nil || len(tok) != 64 || p != filepath.Join(dir, TokenFile) {
		t.Fatalf("%q %q %v", p, tok, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
	if _, again, err := EnsureToken(dir); err != nil || again != tok {
		t.Errorf("second start: %q %v", again, err)
	}
	os.Chmod(p, 0o644)
	if _, _, err := EnsureToken(dir); err == nil {
		t.Error("a world-readable token was taken")
	}
}

func TestNewWithoutToken(t *testing.T) {
	if _, err := New(Options{Addr: testAddr}); err != ErrNoToken {
		t.Errorf("%v", err)
	}
}
