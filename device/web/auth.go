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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/internal/httporigin"
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
	// tries throttles wrong tokens per source (the request's IPv4 address or IPv6 /64)
	// within one global budget (internal/guesses.Guard): a stranger guessing from another
	// address does not keep the technician out.
	tries *guesses.Guard
	now   func() time.Time
}

func newGuard(required bool, tokenSHA256 string, tries *guesses.Guard, now func() time.Time) (*guard, error) {
	if tries == nil {
		tries = &guesses.Guard{}
	}
	g := &guard{required: required, sessions: map[string]time.Time{}, tries: tries, now: now}
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

// tokenOK compares the SHA-256 of the token presented from source with the configured
// one in constant time. A guess the Guard refuses unchecked (source paused, budget spent)
// is not compared: ok is false and the error a *guesses.PauseError saying how long to wait.
func (g *guard) tokenOK(token, source string) (bool, error) {
	now := g.now()
	if err := g.tries.Check(source, now); err != nil {
		return false, err
	}
	sum := sha256.Sum256([]byte(token))
	ok := token != "" && subtle.ConstantTimeCompare(sum[:], g.want) == 1
	g.tries.Result(source, now, ok)
	return ok, nil
}

// sourceOf is the guessing source of r, as the maintenance link counts them
// (httporigin.Source).
func sourceOf(r *http.Request) string { return httporigin.Source(r) }

// retryAfter sets Retry-After when err is a guess refused unchecked.
func retryAfter(w http.ResponseWriter, err error) {
	var pe *guesses.PauseError
	if errors.As(err, &pe) {
		w.Header().Set("Retry-After", strconv.Itoa(int((pe.Wait+time.Second-1)/time.Second)))
	}
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

// allowed reports whether r carries the token (Authorization: Bearer) or a live session;
// err says why a token was refused unchecked.
func (g *guard) allowed(r *http.Request) (bool, error) {
	if !g.required {
		return true, nil
	}
	if tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return g.tokenOK(strings.TrimSpace(tok), sourceOf(r))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return g.sessionOK(c.Value), nil
	}
	return false, nil
}

// wrap refuses requests without the token: JSON and event clients get 401, a browser the
// login form.
func (g *guard) wrap(next http.Handler, login http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/login" || r.URL.Path == "/static/app.css" {
			next.ServeHTTP(w, r)
			return
		}
		ok, err := g.allowed(r)
		if ok {
			next.ServeHTTP(w, r)
			return
		}
		retryAfter(w, err)
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
	ok, err := false, r.ParseForm()
	if err == nil {
		ok, err = s.guard.tokenOK(r.PostForm.Get("token"), sourceOf(r))
	}
	if !ok {
		why := "Wrong token."
		if pe := (*guesses.PauseError)(nil); errors.As(err, &pe) {
			why = fmt.Sprintf("Too many wrong tokens from this address: none is checked for %v.", pe.Wait.Round(time.Second))
			if errors.Is(err, guesses.ErrBudget) {
				why = fmt.Sprintf("Too many wrong tokens from elsewhere: none is checked for %v.", pe.Wait.Round(time.Second))
			}
			s.log.Warn("web: technician login refused unchecked", "remote", r.RemoteAddr, "why", err)
		} else {
			s.log.Warn("web: technician login refused", "remote", r.RemoteAddr)
		}
		retryAfter(w, err)
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login.html", map[string]any{"Failed": true, "Why": why})
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
