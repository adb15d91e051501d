package web

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/httporigin"
)

// refusalLogEvery bounds how often refused hosts and origins are logged: a hostile page may
// send many requests, which must not push the useful lines out of the log ring.
const refusalLogEvery = time.Minute

// origins refuses what a DNS-rebinding or cross-site page sends: requests whose Host is not
// a name the page answers to (421), and state-changing requests from another origin (403);
// the checks are internal/httporigin's.
type origins struct {
	listen string // the address listened on (Options.Addr): a fallback for the local address
	extra  []httporigin.Entry
	log    *slog.Logger
	clk    clockwork.Clock

	mu      sync.Mutex
	refused int // since the last log line
	logged  time.Time
}

func newOrigins(o Options) *origins {
	return &origins{listen: o.Addr, extra: httporigin.Entries(o.Hosts), log: o.Logger, clk: o.Clock}
}

// hostOK reports whether r's Host is one the page answers to (httporigin.HostOK).
func (g *origins) hostOK(r *http.Request) bool { return httporigin.HostOK(r, g.listen, g.extra) }

// originOK reports whether a state-changing request comes from the page itself.
func originOK(r *http.Request) bool { return httporigin.OriginOK(r) }

// wrap refuses a misdirected Host (421) and a cross-origin state-changing request (403),
// before anything else looks at the request (the token included: a rebinding page must not
// spend the technician's guesses).
func (g *origins) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.hostOK(r) {
			g.refuse(r, "host")
			http.Error(w, "misdirected request: this terminal does not answer to that host name", http.StatusMisdirectedRequest)
			return
		}
		if !originOK(r) {
			g.refuse(r, "origin")
			http.Error(w, "cross-origin request refused", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse logs a refusal, at most one line a minute with the count since the last one.
func (g *origins) refuse(r *http.Request, what string) {
	g.mu.Lock()
	g.refused++
	now := g.clk.Now()
	if !g.logged.IsZero() && now.Sub(g.logged) < refusalLogEvery {
		g.mu.Unlock()
		return
	}
	n := g.refused
	g.refused, g.logged = 0, now
	g.mu.Unlock()
	g.log.Warn("web: request refused: not from this terminal's page (DNS rebinding or another site?)",
		"refused", what, "host", clipHeader(r.Host), "origin", clipHeader(r.Header.Get("Origin")),
		"remote", r.RemoteAddr, "count", n)
}

// clipHeader shortens a header value quoted in a log line.
func clipHeader(s string) string { return httporigin.Clip(s) }
