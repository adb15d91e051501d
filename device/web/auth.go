package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/packterm/pos/internal/guesses"
)

// ErrNoToken is returned when the page would listen beyond loopback without a technician
// token configured: it fails closed rather than serve the terminal's status to anyone.
var ErrNoToken = errors.New("web: a non-loopback address needs [technician] token_sha256")

// CookieName is the session cookie the login form sets.
const CookieName = "posd_session"

// sessionLife bounds a login.
const sessionLife = 8 * time.Hour

// IsLoopback reports whether addr (host:port) listens on loopback only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guard checks the technician token on every request when required.
type guard struct {
	required bool
	want     []byte // SHA-256 of the token
	mu       sync.Mutex
	sessions map[string]time.Time // session id -> expiry
	tries    guesses.Limiter      // wrong tokens: after 5 in a row, pauses (internal/guesses)
	now      func() time.Time
}

func newGuard(required bool, tokenSHA256 string, now func() time.Time) (*guard, error) {
	g := &guard{required: required, sessions: map[string]time.Time{}, now: now}
	if !required {
		return g, nil
	}
	want, err := hex.DecodeString(strings.TrimSpace(tokenSHA256))
	if err != nil || len(want) != sha256.Size {
		if tokenSHA256 == "" {
			return nil, ErrNoToken
		}
		return nil, fmt.Errorf("web: token_sha256 is not 64 hex digits")
	}
	g.want = want
	return g, nil
}

// tokenOK compares the SHA-256 of the presented token with the configured one in
// constant time.
func (g *guard) tokenOK(token string) bool {
	now := g.now()
	if g.tries.Pause(now) > 0 {
		return false
	}
	sum := sha256.Sum256([]byte(token))
	ok := token != "" && subtle.ConstantTimeCompare(sum[:], g.want) == 1
	g.tries.Result(now, ok)
	return ok
}

func (g *guard) newSession() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	for k, exp := range g.sessions {
		if now.After(exp) {
			delete(g.sessions, k)
		}
	}
	g.sessions[id] = now.Add(sessionLife)
	return id, nil
}

func (g *guard) sessionOK(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	exp, ok := g.sessions[id]
	return ok && g.now().Before(exp)
}

// allowed reports whether r carries the token (Authorization: Bearer) or a live session.
func (g *guard) allowed(r *http.Request) bool {
	if !g.required {
		return true
	}
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return g.tokenOK(strings.TrimSpace(tok))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return g.sessionOK(c.Value)
	}
	return false
}

// wrap refuses requests without the token: JSON and event clients get 401, a browser the
// login form.
func (g *guard) wrap(next http.Handler, login http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" || r.URL.Path == "/static/app.css" || g.allowed(r) {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") {
			w.WriteHeader(http.StatusUnauthorized)
			login(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="posd"`)
		http.Error(w, "technician token required", http.StatusUnauthorized)
	})
}

// handleLogin checks the form's token and sets the session cookie.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.render(w, "login.html", map[string]any{"Failed": false})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if !s.guard.required {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	if err := r.ParseForm(); err != nil || !s.guard.tokenOK(r.PostForm.Get("token")) {
		s.log.Warn("web: technician login refused", "remote", r.RemoteAddr)
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login.html", map[string]any{"Failed": true})
		return
	}
	id, err := s.guard.newSession()
	if err != nil {
		http.Error(w, "session", http.StatusInternalServerError)
		return
	}
	s.log.Info("web: technician logged in", "remote", r.RemoteAddr)
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife / time.Second)})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
