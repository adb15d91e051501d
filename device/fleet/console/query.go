package console

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/packterm/pos/validate/journal"
)

// Page sizes of the lists.
const (
	defaultPer = 50
	maxPer     = 500
	maxQuery   = 64 // bytes of a search text
)

// The states of a terminal (query parameter state, and the overview's counts).
const (
	StateOnline = "online"
	StateSilent = "silent"
	StateNever  = "never"
)

// listQuery is what a list page's query parameters ask for. parseQuery never fails: a
// parameter that does not read is ignored (the page shows everything it would
// otherwise), and Bad says which.
type listQuery struct {
	Q        string // search text: a substring of the terminal id
	Retailer uint32 // 0: any
	State    string // "", StateOnline, StateSilent, StateNever
	Day      string // YYYY-MM-DD; "": the default (today)
	Kind     journal.Kind
	Reason   string
	Unclaim  bool // unconfirmed payouts not yet claimed only
	Page     int  // 1-based
	Per      int
	Bad      []string
}

// parseQuery reads a list page's query parameters.
func parseQuery(v url.Values) listQuery {
	q := listQuery{Page: 1, Per: defaultPer}
	bad := func(name string) { q.Bad = append(q.Bad, name) }
	if s := v.Get("q"); s != "" {
		if len(s) > maxQuery || !utf8.ValidString(s) {
			bad("q")
		} else {
			q.Q = strings.TrimSpace(s)
		}
	}
	if s := v.Get("retailer"); s != "" {
		if n, err := strconv.ParseUint(s, 10, 32); err != nil {
			bad("retailer")
		} else {
			q.Retailer = uint32(n)
		}
	}
	switch s := v.Get("state"); s {
	case "", StateOnline, StateSilent, StateNever:
		q.State = s
	default:
		bad("state")
	}
	if s := v.Get("day"); s != "" {
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			bad("day")
		} else {
			q.Day = s
		}
	}
	if s := v.Get("kind"); s != "" {
		if k, err := journal.ParseKind(s); err != nil {
			bad("kind")
		} else {
			q.Kind = k
		}
	}
	if s := v.Get("reason"); s != "" {
		if len(s) > journal.MaxReasonLen || !utf8.ValidString(s) {
			bad("reason")
		} else {
			q.Reason = s
		}
	}
	q.Unclaim = v.Get("unclaimed") == "1"
	if s := v.Get("page"); s != "" {
		if n, err := strconv.Atoi(s); err != nil || n < 1 || n > 1_000_000 {
			bad("page")
		} else {
			q.Page = n
		}
	}
	if s := v.Get("per"); s != "" {
		if n, err := strconv.Atoi(s); err != nil || n < 1 || n > maxPer {
			bad("per")
		} else {
			q.Per = n
		}
	}
	return q
}

// window is the slice [from, to) of n rows the query's page shows.
func (q listQuery) window(n int) (from, to int) {
	from = min((q.Page-1)*q.Per, n)
	return from, min(from+q.Per, n)
}

// values is the query as URL parameters, with page p (0: none).
func (q listQuery) values(p int) url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("q", q.Q)
	if q.Retailer != 0 {
		v.Set("retailer", strconv.FormatUint(uint64(q.Retailer), 10))
	}
	set("state", q.State)
	set("day", q.Day)
	if q.Kind != 0 {
		v.Set("kind", q.Kind.String())
	}
	set("reason", q.Reason)
	if q.Unclaim {
		v.Set("unclaimed", "1")
	}
	if q.Per != defaultPer {
		v.Set("per", strconv.Itoa(q.Per))
	}
	if p > 1 {
		v.Set("page", strconv.Itoa(p))
	}
	return v
}
