package console

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"time"

	"github.com/packterm/pos/internal/guesses"
	"github.com/packterm/pos/validate/journal"
)

var funcs = template.FuncMap{
	"list":  func(s ...string) []string { return s },
	"deref": func(n *int) int { return *n },
	"kindName": func(k journal.Kind) string {
		if k == 0 {
			return ""
		}
		return k.String()
	},
	"sub":    func(p page, data any) page { p.Data = data; return p },
	"sub64":  func(a, b int) int { return a - b },
	"subAmt": func(a, b int64) int64 { return a - b },
	"unix":   func(s int64) time.Time { return time.Unix(s, 0) },
}

// page is what every template gets: the request's language and path, and its data.
type page struct {
	Lang string
	def  string // the language without a lang parameter (Accept-Language's)
	Path string
	raw  url.Values
	loc  *time.Location
	Data any
}

// T is key's text in the page's language.
func (p page) T(key string) string { return word(p.Lang, key) }

// Money writes cents in the page's language.
func (p page) Money(cents int64) string { return money(p.Lang, cents) }

// Time writes t in the console's zone ("" for the zero time).
func (p page) Time(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(p.loc).Format("2006-01-02 15:04:05")
}

// Link is path with the query pairs kv (name, value, …; empty values left out) and the
// page's language when it is not the default.
func (p page) Link(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			v.Set(kv[i], kv[i+1])
		}
	}
	if p.Lang != p.def {
		v.Set("lang", p.Lang)
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// Other is the other language's tag, and SwitchLang this page in it.
func (p page) Other() string {
	if p.Lang == "en" {
		return "fr"
	}
	return "en"
}

func (p page) SwitchLang() string {
	v := url.Values{}
	for k, vs := range p.raw {
		v[k] = vs
	}
	v.Set("lang", p.Other())
	return p.Path + "?" + v.Encode()
}

// Pager is a list's page links.
type Pager struct {
	Page, Pages, Total int
	Prev, Next         string
}

func (p page) pager(q listQuery, total int) Pager {
	pg := Pager{Page: q.Page, Pages: max((total+q.Per-1)/q.Per, 1), Total: total}
	link := func(n int) string {
		v := q.values(n)
		if p.Lang != p.def {
			v.Set("lang", p.Lang)
		}
		if len(v) == 0 {
			return p.Path
		}
		return p.Path + "?" + v.Encode()
	}
	if q.Page > 1 {
		pg.Prev = link(q.Page - 1)
	}
	if q.Page < pg.Pages {
		pg.Next = link(q.Page + 1)
	}
	return pg
}

func (c *Console) page(r *http.Request, data any) page {
	return page{Lang: lang(r), def: acceptLang(r), Path: r.URL.Path, raw: r.URL.Query(), loc: c.model.loc, Data: data}
}

// render executes template name into a buffer first: a failing template writes no
// half page.
func (c *Console) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	var b bytes.Buffer
	if err := c.tmpl.ExecuteTemplate(&b, name, c.page(r, data)); err != nil {
		c.log.Error("console: rendering a page", "page", name, "err", err)
		http.Error(w, "page error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// today is the current day in the console's zone.
func (c *Console) today() string { return c.model.dayKey(c.clk.Now()) }

// dayOr is q's day, or today.
func (c *Console) dayOr(q listQuery) listQuery {
	if q.Day == "" {
		q.Day = c.today()
	}
	return q
}

type loginData struct {
	Failed bool
	Why    string
}

func (c *Console) handleLogin(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		c.render(w, r, "login", loginData{})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	ok, err := false, r.ParseForm()
	if err == nil {
		ok, err = c.guard.tokenOK(r.PostForm.Get("token"), r)
	}
	if !ok {
		why := "wrong-token"
		if pe := (*guesses.PauseError)(nil); errors.As(err, &pe) {
			why = "too-many"
		}
		c.log.Warn("console: login refused", "remote", r.RemoteAddr, "why", why)
		retryAfter(w, err)
		w.WriteHeader(http.StatusUnauthorized)
		c.render(w, r, "login", loginData{Failed: true, Why: why})
		return
	}
	id, err := c.guard.newSession()
	if err != nil {
		http.Error(w, "session", http.StatusInternalServerError)
		return
	}
	c.log.Info("console: operator logged in", "remote", r.RemoteAddr)
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: id, Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife / time.Second)})
	http.Redirect(w, r, "/"+langQuery(r), http.StatusSeeOther)
}

// langQuery is "?lang=en" when the request asks for English by its query, else "".
func langQuery(r *http.Request) string {
	if r.URL.Query().Get("lang") == "en" {
		return "?lang=en"
	}
	return ""
}

func (c *Console) handleLogout(w http.ResponseWriter, r *http.Request) {
	c.guard.logout(r)
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode, MaxAge: -1})
	http.Redirect(w, r, "/login"+langQuery(r), http.StatusSeeOther)
}

type overviewData struct {
	Overview
	Chart template.HTML
	Flags *int
}

func (c *Console) handleOverview(w http.ResponseWriter, r *http.Request) {
	q := c.dayOr(parseQuery(r.URL.Query()))
	o := c.model.Overview(q.Day, c.clk.Now(), c.o.SilentAfter)
	d := overviewData{Overview: o, Chart: chartSVG(o.PerMinute, o.ChartEnd, c.model.loc, word(lang(r), "chart"))}
	if ds, err := c.settler.dayCached(q.Day); err == nil && ds != nil {
		n := len(ds.Settlement.Flagged)
		d.Flags = &n
	}
	c.render(w, r, "overview", d)
}

type listData struct {
	Q     listQuery
	Rows  any
	Pager Pager
}

func (c *Console) handleTerminals(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.Query())
	rows, n := c.model.terminals(q, c.clk.Now(), c.o.SilentAfter)
	p := c.page(r, nil)
	c.render(w, r, "terminals", listData{Q: q, Rows: rows, Pager: p.pager(q, n)})
}

type terminalData struct {
	TermView
	Q     listQuery
	Pager Pager
	Kinds []string
}

func (c *Console) handleTerminal(w http.ResponseWriter, r *http.Request) {
	q := parseQuery(r.URL.Query())
	v, ok := c.model.terminal(r.PathValue("id"), q, c.clk.Now(), c.o.SilentAfter)
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		c.render(w, r, "notfound", nil)
		return
	}
	p := c.page(r, nil)
	c.render(w, r, "terminal", terminalData{TermView: v, Q: q, Pager: p.pager(q, v.Total),
		Kinds: []string{journal.KindPayout.String(), journal.KindSale.String(), journal.KindClaim.String(), journal.KindRefused.String(), journal.KindConflict.String()}})
}

func (c *Console) handleRecords(w http.ResponseWriter, r *http.Request) {
	q := c.dayOr(parseQuery(r.URL.Query()))
	rows, n := c.model.records(q)
	p := c.page(r, nil)
	c.render(w, r, "records", listData{Q: q, Rows: rows, Pager: p.pager(q, n)})
}

func (c *Console) handleRefusals(w http.ResponseWriter, r *http.Request) {
	q := c.dayOr(parseQuery(r.URL.Query()))
	rows, n := c.model.refusalsOf(q)
	p := c.page(r, nil)
	c.render(w, r, "refusals", listData{Q: q, Rows: rows, Pager: p.pager(q, n)})
}

func (c *Console) handleConflicts(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, "conflicts", c.model.Conflicts())
}

func (c *Console) handleRetailers(w http.ResponseWriter, r *http.Request) {
	c.render(w, r, "retailers", c.model.Retailers())
}

// handleEvents streams an event per record that arrives (server-sent events).
func (c *Console) handleEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sub := c.hub.subscribe()
	defer c.hub.unsubscribe(sub)
	fmt.Fprint(w, ": live\n\n")
	fl.Flush()
	tick := c.clk.NewTicker(25 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.Chan():
			fmt.Fprint(w, ": keep-alive\n\n")
		case e := <-sub:
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "event: record\ndata: %s\n\n", b)
		}
		fl.Flush()
	}
}
