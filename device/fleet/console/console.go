package console

import (
	"embed"
	"errors"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/httporigin"
	"github.com/packterm/pos/validate/ledger"
)

//go:embed templates/*.html static/*
var files embed.FS

// DefaultSilentAfter is how long after its last record a terminal counts as silent.
const DefaultSilentAfter = 15 * time.Minute

// Options configure a Console.
type Options struct {
	// Addr is the address the console listens on (HOST:PORT): requests must name it,
	// a loopback name on its port, or one of Hosts.
	Addr  string
	Hosts []string
	// Token is the login token (EnsureToken).
	Token       string
	Logger      *slog.Logger
	Clock       clockwork.Clock // default the real clock
	Location    *time.Location  // the days' zone (default UTC)
	SilentAfter time.Duration   // default DefaultSilentAfter
	// Settling is what the settlement page needs (nil: the page says it has no manifests).
	Settling *Settling
	// Trust is the operator's keys: the retailers page says whether each status list
	// verifies with them (nil: not checked).
	Trust *ledger.TrustStore
}

// Console is the operator's console: an http.Handler over its Model.
type Console struct {
	o       Options
	log     *slog.Logger
	clk     clockwork.Clock
	model   *Model
	hub     *hub
	guard   *guard
	settler *settler
	tmpl    *template.Template
	hosts   []httporigin.Entry
	mux     *http.ServeMux
}

// ErrNoToken is a console made without a login token.
var ErrNoToken = errors.New("console: no login token")

// New makes a console with an empty model (Feed fills it).
func New(o Options) (*Console, error) {
	if len(o.Token) < 32 {
		return nil, ErrNoToken
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.SilentAfter <= 0 {
		o.SilentAfter = DefaultSilentAfter
	}
	c := &Console{o: o, log: o.Logger, clk: o.Clock, model: NewModel(o.Location), hub: newHub(),
		guard: newGuard(o.Token, o.Clock.Now), hosts: httporigin.Entries(o.Hosts)}
	c.settler = &settler{m: c.model, src: o.Settling, days: map[string]*cachedDay{},
		done: func() { c.hub.publish(Event{Kind: "settlement"}) }}
	c.o.Token = "" // kept as its hash only
	t, err := template.New("").Funcs(funcs).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	c.tmpl = t
	c.routes()
	return c, nil
}

// Model is the console's model (tests and the benchmark fill it directly).
func (c *Console) Model() *Model { return c.model }

// ServeHTTP refuses a Host the console does not answer to (421) and a cross-origin
// post (403) before anything else, then asks for a login.
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !httporigin.HostOK(r, c.o.Addr, c.hosts) {
		c.log.Warn("console: request refused: host", "host", httporigin.Clip(r.Host), "remote", r.RemoteAddr)
		http.Error(w, "misdirected request: the console does not answer to that host name", http.StatusMisdirectedRequest)
		return
	}
	if !httporigin.OriginOK(r) {
		c.log.Warn("console: request refused: origin", "origin", httporigin.Clip(r.Header.Get("Origin")), "remote", r.RemoteAddr)
		http.Error(w, "cross-origin request refused", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	if r.URL.Path != "/login" && !strings.HasPrefix(r.URL.Path, "/static/") && !c.guard.allowed(r) {
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") {
			w.WriteHeader(http.StatusUnauthorized)
			c.render(w, r, "login", loginData{})
			return
		}
		http.Error(w, "login required", http.StatusUnauthorized)
		return
	}
	c.mux.ServeHTTP(w, r)
}

func (c *Console) routes() {
	m := http.NewServeMux()
	m.Handle("GET /static/", http.FileServerFS(files))
	m.HandleFunc("/login", c.handleLogin)
	m.HandleFunc("POST /logout", c.handleLogout)
	m.HandleFunc("GET /{$}", c.handleOverview)
	m.HandleFunc("GET /terminals", c.handleTerminals)
	m.HandleFunc("GET /terminals/{id}", c.handleTerminal)
	m.HandleFunc("GET /records", c.handleRecords)
	m.HandleFunc("GET /refusals", c.handleRefusals)
	m.HandleFunc("GET /conflicts", c.handleConflicts)
	m.HandleFunc("GET /settle", c.handleSettle)
	m.HandleFunc("GET /settle.json", c.handleSettleJSON)
	m.HandleFunc("GET /settle.csv", c.handleSettleCSV)
	m.HandleFunc("GET /retailers", c.handleRetailers)
	m.HandleFunc("GET /events", c.handleEvents)
	c.mux = m
}
