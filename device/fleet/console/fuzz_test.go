package console

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseQuery: any query string reads without panic into a query within bounds, and
// the query's own parameters read back to the same query.
func FuzzParseQuery(f *testing.F) {
	f.Add("q=T1&retailer=2&state=silent&page=3&per=100")
	f.Add("day=2026-12-07&kind=payout&unclaimed=1")
	f.Add("reason=forged&page=-1&per=999999&state=%00")
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		q := parseQuery(v)
		if q.Page < 1 || q.Per < 1 || q.Per > maxPer || len(q.Q) > maxQuery || !utf8.ValidString(q.Q) {
			t.Fatalf("out of bounds: %+v", q)
		}
		from, to := q.window(10)
		if from < 0 || to > 10 || from > to {
			t.Fatalf("window %d..%d", from, to)
		}
		back := parseQuery(q.values(q.Page))
		back.Bad, q.Bad = nil, nil
		if back.Q != q.Q || back.Retailer != q.Retailer || back.State != q.State || back.Day != q.Day || back.Kind != q.Kind ||
			back.Reason != q.Reason || back.Unclaim != q.Unclaim || back.Page != q.Page || back.Per != q.Per {
			t.Fatalf("round trip: %+v then %+v", q, back)
		}
	})
}

// FuzzParseSession: a session cookie's value is taken only as 64 lower-case hex digits.
func FuzzParseSession(f *testing.F) {
	f.Add(strings.Repeat("ab", 32))
	f.Add(strings.Repeat("AB", 32))
	f.Add("")
	f.Fuzz(func(t *testing.T, v string) {
		id, ok := parseSession(v)
		if !ok {
			return
		}
		if id != v || len(id) != sessionLen || strings.Trim(id, "0123456789abcdef") != "" {
			t.Fatalf("took %q", v)
		}
	})
}

// FuzzAcceptLang: any Accept-Language header and lang parameter give French or English,
// and an explicit lang=en or lang=fr wins.
func FuzzAcceptLang(f *testing.F) {
	f.Add("en-GB,en;q=0.8,fr;q=0.5", "")
	f.Add("de-DE, fr-CH;q=0.9", "en")
	f.Add(";;,,q=", "fr")
	f.Fuzz(func(t *testing.T, header, param string) {
		r := httptest.NewRequest("GET", "/?lang="+url.QueryEscape(param), nil)
		r.Header.Set("Accept-Language", header)
		got := lang(r)
		if got != "fr" && got != "en" || (param == "en" || param == "fr") && got != param {
			t.Fatalf("header %q, lang %q: %q", header, param, got)
		}
	})
}
