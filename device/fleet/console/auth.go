package console

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/internal/httporigin"
)

// CookieName is the console's session cookie.
const CookieName = "console_session"

// sessionLife bounds a login.
const sessionLife = 12 * time.Hour

// sessionLen is a session id's length in hex digits.
const sessionLen = 64

// guard holds the token's hash and the live sessions.
type guard struct {
	want  [sha256.Size]byte
	tries *guesses.Guard
	now   func() time.Time

	mu       sync.Mutex
	sessions map[string]time.Time // session id -> expiry
}

func newGuard(token string, now func() time.Time) *guard {
	return &guard{want: sha256.Sum256([]byte(token)), tries: &guesses.Guard{}, now: now, sessions: map[string]time.Time{}}
}

// tokenOK compares the SHA-256 of the token presented from r's source with the token's
// in constant time; a guess the throttle refuses unchecked is an error
// (*guesses.PauseError).
func (g *guard) tokenOK(token string, r *http.Request) (bool, error) {
	now, src := g.now(), httporigin.Source(r)
	if err := g.tries.Check(src, now); err != nil {
		return false, err
	}
	sum := sha256.Sum256([]byte(token))
	ok := token != "" && subtle.ConstantTimeCompare(sum[:], g.want[:]) == 1
	g.tries.Result(src, now, ok)
	return ok, nil
}

func (g *guard) newSession() (string, error) {
	var b [sessionLen / 2]byte
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

// parseSession reads a session cookie's value: sessionLen lower-case hex digits.
func parseSession(v string) (string, bool) {
	if len(v) != sessionLen {
		return "", false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	return v, true
}

// allowed reports whether r carries a live session.
func (g *guard) allowed(r *http.Request) bool {
	c, err := r.Cookie(CookieName)
	if err != nil {
		return false
	}
	id, ok := parseSession(c.Value)
	if !ok {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	exp, ok := g.sessions[id]
	return ok && g.now().Before(exp)
}

// logout ends r's session.
func (g *guard) logout(r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		g.mu.Lock()
		delete(g.sessions, c.Value)
		g.mu.Unlock()
	}
}

// retryAfter sets Retry-After when err is a guess refused unchecked.
func retryAfter(w http.ResponseWriter, err error) {
	var pe *guesses.PauseError
	if errors.As(err, &pe) {
		w.Header().Set("Retry-After", strconv.Itoa(int((pe.Wait+time.Second-1)/time.Second)))
	}
}
