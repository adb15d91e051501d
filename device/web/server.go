package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/locale"
	"github.com/packterm/pos/internal/guesses"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options configure a Server.
type Options struct {
	Parts *Parts
	// Emulator, when set, adds the emulated terminal's page and controls (posd --emulate;
	// a production build has no emulator: emulator_production.go).
	Emulator *Rig
	// PrintFile, when set, is the printer's file of the emulator's block: each ticket
	// scanned is drawn from its row, scratched, next to the terminal's answer.
	PrintFile string
	// TokenSHA256 is the hex SHA-256 of the technician token ([technician] token_sha256).
	TokenSHA256 string
	// RequireToken asks for the token on every request. Listen sets it for any address
	// that is not loopback; a test sets it to see the non-loopback behaviour on loopback.
	RequireToken bool
	// Addr is the address listened on (Listen sets it): the Host check's fallback when a
	// request does not say which local address it came in on.
	Addr string
	// Hosts are the names the page answers to beyond the loopback names and the IP address
	// a request came in on ([http] hosts): "name" on the listening port, or "name:port".
	Hosts []string
	// Guesses throttles wrong technician tokens per source within one global budget; nil:
	// the Server's own. Giving it the maintenance link's Guard makes the two share one
	// budget (docs/firmware.md, "Guessing the token").
	Guesses *guesses.Guard
	Logger  *slog.Logger
	Clock   clockwork.Clock
	// Poll is how often the event stream looks for changes (default 100 ms).
	Poll time.Duration
	// Language writes the amounts the page shows ([terminal] language; "": French).
	Language string
	// Metrics, when set, is served at /metrics (Prometheus text format), under the same
	// token rules as the status page (device/metrics).
	Metrics http.Handler
}

// Server is the web page's handler.
type Server struct {
	o     Options
	log   *slog.Logger
	clk   clockwork.Clock
	guard *guard
	tmpl  *template.Template
	mux   *http.ServeMux
	h     http.Handler
	emu   *emulator
}

var _ http.Handler = (*Server)(nil)

// New builds the server; it fails closed when the token is required but not configured.
func New(o Options) (*Server, error) {
	if o.Parts == nil {
		o.Parts = &Parts{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
	}
	g, err := newGuard(o.RequireToken, o.TokenSHA256, o.Guesses, o.Clock.Now)
	if err != nil {
		return nil, err
	}
	words, err := locale.Get(o.Language)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	tmpl, err := template.New("").Funcs(template.FuncMap{"euros": words.PlainMoney}).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("web: templates: %w", err)
	}
	s := &Server{o: o, log: o.Logger, clk: o.Clock, guard: g, tmpl: tmpl, mux: http.NewServeMux()}
	static, _ := fs.Sub(staticFS, "static")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("/login", s.handleLogin)
	s.mux.HandleFunc("GET /status", s.handleStatusPage)
	s.mux.HandleFunc("GET /status.json", s.handleStatusJSON)
	if o.Metrics != nil {
		s.mux.Handle("GET /metrics", o.Metrics)
	}
	if !s.routeEmulator() {
		s.mux.HandleFunc("GET /{$}", s.handleStatusPage)
	}
	s.h = securityHeaders(newOrigins(o).wrap(g.wrap(s.mux, func(w http.ResponseWriter, r *http.Request) {
		s.render(w, "login.html", map[string]any{"Failed": false})
	})))
	return s, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.h.ServeHTTP(w, r) }

// Close stops the server's background work (the emulator's ticket drawings) and waits for
// it. Serve calls it when it returns; a caller that only uses the handler calls it itself.
func (s *Server) Close() {
	s.emu.close()
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		// same-origin, not no-referrer: under no-referrer a browser sends "Origin: null"
		// with the page's own forms, which the origin check could not tell from another site.
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		s.log.Error("web: template", "name", name, "err", err)
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

func (s *Server) handleStatusPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, "status.html", map[string]any{"S": s.o.Parts.Collect(), "Emulated": s.emu != nil})
}

func (s *Server) handleStatusJSON(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.o.Parts.Collect())
}

// Listen opens addr for the page: loopback as given, any other address only with the
// technician token configured (RequireToken is then forced).
func Listen(addr string, o Options) (*Server, net.Listener, error) {
	if !IsLoopback(addr) {
		o.RequireToken = true
	}
	o.Addr = addr
	s, err := New(o)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("web: %w", err)
	}
	return s, ln, nil
}

// Serve serves on ln until ctx ends, then shuts down (open event streams are closed).
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	var wg sync.WaitGroup
	wg.Go(func() {
		<-ctx.Done()
		sctx, c := context.WithTimeout(context.Background(), 2*time.Second)
		defer c()
		_ = hs.Shutdown(sctx)
	})
	s.log.Info("web: serving", "addr", ln.Addr().String(), "token", s.guard.required)
	err := hs.Serve(ln)
	cancel()
	wg.Wait()
	s.Close()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Check says whether the page may listen on addr with the token tokenSHA256 configured
// (Listen's own check, for a caller that wants to refuse before opening anything else).
func Check(addr, tokenSHA256 string) error {
	if IsLoopback(addr) {
		return nil
	}
	_, err := newGuard(true, tokenSHA256, nil, time.Now)
	return err
}
