package web

import (
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// refusalLogEvery bounds how often refused hosts and origins are logged: a hostile page may
// send many requests, which must not push the useful lines out of the log ring.
const refusalLogEvery = time.Minute

// hostEntry is one name of [http] hosts: port "" stands for the listening port.
type hostEntry struct{ name, port string }

// origins refuses what a DNS-rebinding or cross-site page sends: requests whose Host is not
// a name the page answers to (421), and state-changing requests from another origin (403).
type origins struct {
	listen string // the address listened on (Options.Addr): a fallback for the local address
	extra  []hostEntry
	log    *slog.Logger
	clk    clockwork.Clock

	mu      sync.Mutex
	refused int // since the last log line
	logged  time.Time
}

func newOrigins(o Options) *origins {
	g := &origins{listen: o.Addr, log: o.Logger, clk: o.Clock}
	for _, h := range o.Hosts {
		name, port, ok := splitHost(h, "")
		if ok {
			g.extra = append(g.extra, hostEntry{name, port})
		}
	}
	return g
}

// splitHost splits a Host header (or a URL's host) into a lower-case name (brackets off an
// IPv6 address) and a port, defaultPort when there is none.
func splitHost(h, defaultPort string) (name, port string, ok bool) {
	if h == "" || strings.ContainsAny(h, " \t/\\@") {
		return "", "", false
	}
	name, port = h, defaultPort
	if n, p, err := net.SplitHostPort(h); err == nil {
		name, port = n, p
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		name = h[1 : len(h)-1]
	} else if strings.Contains(h, ":") && net.ParseIP(h) == nil {
		return "", "", false
	}
	if name == "" {
		return "", "", false
	}
	return strings.ToLower(name), port, true
}

// local is the address the request came in on: the connection's (http.Server sets it), else
// the address listened on.
func (g *origins) local(r *http.Request) (ip net.IP, port string) {
	addr := g.listen
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		addr = a.String()
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, ""
	}
	return net.ParseIP(h), p
}

// hostOK reports whether r's Host is one the page answers to: a name of [http] hosts, or on
// the listening port a loopback name (localhost, 127.0.0.0/8, ::1) or the IP address the
// request came in on. A name a page's DNS may rebind is none of these.
func (g *origins) hostOK(r *http.Request) bool {
	localIP, localPort := g.local(r)
	name, port, ok := splitHost(r.Host, "80")
	if !ok {
		return false
	}
	for _, e := range g.extra {
		if e.name == name && (e.port == port || e.port == "" && (localPort == "" || port == localPort)) {
			return true
		}
	}
	if localPort != "" && port != localPort {
		return false
	}
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && (ip.IsLoopback() || localIP != nil && !localIP.IsUnspecified() && ip.Equal(localIP))
}

// originOK reports whether a state-changing request comes from the page itself. A browser
// sends Origin with every POST (fetch and forms); the page's Referrer-Policy (same-origin)
// keeps it the real origin. Without Origin, Sec-Fetch-Site must say same-origin; without
// either, a Referer must name the same host; a request with none of the three comes from
// no browser (curl, a tool), which a rebinding page cannot drive: its Host was checked.
func originOK(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	if o := r.Header.Get("Origin"); o != "" {
		if o == "null" { // an opaque origin: a sandboxed frame, a page that hides its own
			return r.Header.Get("Sec-Fetch-Site") == "same-origin"
		}
		return sameHost(o, r.Host)
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" {
		return s == "same-origin"
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		return sameHost(ref, r.Host)
	}
	return true
}

// sameHost reports whether the URL u is on host (as the Host header writes it).
func sameHost(u, host string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.User == nil && p.Host != "" && strings.EqualFold(p.Host, host)
}

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
func clipHeader(s string) string {
	const n = 64
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
