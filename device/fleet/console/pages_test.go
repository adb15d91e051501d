package console

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// fillFleet: T1 (retailer 1) paid and sold a minute ago, T2 (retailer 2) was last heard
// an hour ago, T3 (retailer 1) never; T1 paid one ticket offline that no claim covers.
func fillFleet(t *testing.T, c *Console) {
	t.Helper()
	m := c.Model()
	m.SetRegistry(registry(map[string]uint32{"T1": 1, "T2": 2, "T3": 1}))
	now := testNow
	tk := func(pack uint32, pos uint8) codes.TicketID {
		return codes.TicketID{Block: 7, Pack: pack, Position: pos}
	}
	m.AddRecord(rec("T1", 1, journal.KindSale, 5000, codes.TicketID{Block: 7, Pack: 1}, ""), now.Add(-2*time.Minute))
	m.AddRecord(rec("T1", 2, journal.KindPayout, 500, tk(1, 3), ""), now.Add(-time.Minute))
	off := rec("T1", 3, journal.KindPayout, 2000, tk(1, 4), "")
	off.Reason = journal.ReasonUnconfirmed
	m.AddRecord(off, now.Add(-time.Minute))
	m.AddRecord(rec("T2", 1, journal.KindPayout, 300, tk(2, 1), ""), now.Add(-time.Hour))
	m.AddRecord(rec("T2", 1, journal.KindPayout, 900, tk(2, 1), "again"), now.Add(-time.Hour)) // a fork
	m.AddRecord(rec("T2", 2, journal.KindTamper, 0, codes.TicketID{}, ""), now.Add(-time.Hour))
	m.AddClaim(tk(1, 3), "T1")
	m.AddRefusal(fleet.Refusal{At: now.Add(-3 * time.Minute), Terminal: "T1", Ticket: tk(1, 5), Reason: "forged", Amount: 500})
	m.AddRefusal(fleet.Refusal{At: now.Add(-3 * time.Minute), Terminal: "T1", Ticket: tk(1, 5), Reason: "forged", Amount: 500}) // the same again
	m.AddRefusal(fleet.Refusal{At: now.Add(-4 * time.Minute), Terminal: "T2", Ticket: tk(2, 2), Reason: "rate-limited", Count: 3})
	m.AddConflict(fleet.Conflict{Ticket: tk(2, 1), Holder: fleet.Claim{Terminal: "T1"}, Other: fleet.Claim{Terminal: "T2"}})
}

func TestOverview(t *testing.T) {
	c, _ := testConsole(t, nil)
	fillFleet(t, c)
	o := c.Model().Overview("2026-12-07", testNow, DefaultSilentAfter)
	if o.Online != 1 || o.Silent != 1 || o.Never != 1 {
		t.Errorf("online/silent/never %d/%d/%d, want 1/1/1", o.Online, o.Silent, o.Never)
	}
	if o.Payouts != 4 || o.PayoutsAmt != 500+2000+300+900 || o.Sales != 1 || o.SalesAmt != 5000 {
		t.Errorf("payouts %d (%d), sales %d (%d)", o.Payouts, o.PayoutsAmt, o.Sales, o.SalesAmt)
	}
	if o.RefusalsTotal != 4 || len(o.Refusals) != 2 || o.Refusals[0] != (Counted{"rate-limited", 3}) {
		t.Errorf("refusals %d %v", o.RefusalsTotal, o.Refusals)
	}
	if o.Unclaimed != 1 || o.UnclaimedAmt != 2000 || o.Conflicts != 1 || o.Forks != 1 {
		t.Errorf("unclaimed %d (%d), conflicts %d, forks %d", o.Unclaimed, o.UnclaimedAmt, o.Conflicts, o.Forks)
	}
	if got := o.PerMinute[len(o.PerMinute)-2]; got != 2 {
		t.Errorf("payouts a minute ago: %d, want 2", got)
	}
	ck := login(t, c)
	body := getPage(t, c, ck, "/")
	for _, want := range []string{`href="/terminals?state=silent"`, `href="/records?day=2026-12-07&amp;kind=payout"`, `href="/records?unclaimed=1"`,
		`href="/refusals?day=2026-12-07&amp;reason=forged"`, "<svg", "Vue d&#39;ensemble", "37,00"} {
		if !strings.Contains(body, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	// Each number's link shows its rows.
	if b := getPage(t, c, ck, "/records?unclaimed=1"); !strings.Contains(b, "T1/3") || strings.Contains(b, "T1/2<") {
		t.Errorf("unclaimed rows: %s", b)
	}
	if b := getPage(t, c, ck, "/refusals?day=2026-12-07&reason=forged"); !strings.Contains(b, "forged") || strings.Contains(b, "rate-limited") {
		t.Error("refusal rows of one reason")
	}
	if b := getPage(t, c, ck, "/terminals?state=never"); !strings.Contains(b, "/terminals/T3") || strings.Contains(b, "/terminals/T1") {
		t.Error("terminals never seen")
	}
	if b := getPage(t, c, ck, "/conflicts"); !strings.Contains(b, "/terminals/T2") {
		t.Error("conflicts")
	}
}

// TestEnglish: lang=en, or Accept-Language, gives the English page; French otherwise.
func TestEnglish(t *testing.T) {
	c, _ := testConsole(t, nil)
	ck := login(t, c)
	if b := getPage(t, c, ck, "/?lang=en"); !strings.Contains(b, "Overview") || !strings.Contains(b, `lang="en"`) {
		t.Error("lang=en")
	}
	r := request("GET", "/terminals", nil, ck)
	r.Header.Set("Accept-Language", "en-GB,en;q=0.8,fr;q=0.5")
	if b := serve(c, r).Body.String(); !strings.Contains(b, "Terminals") || !strings.Contains(b, `lang="en"`) {
		t.Error("Accept-Language en")
	}
	if b := getPage(t, c, ck, "/terminals"); !strings.Contains(b, `lang="fr"`) {
		t.Error("default")
	}
	for k, w := range words {
		if w[0] == "" || w[1] == "" {
			t.Errorf("word %s lacks a language", k)
		}
	}
}

// TestTerminalsPages: search, filter by retailer and state, and pages of a list.
func TestTerminalsPages(t *testing.T) {
	c, _ := testConsole(t, nil)
	ids := map[string]uint32{}
	for i := range 120 {
		ids[fmt.Sprintf("S%03d", i)] = uint32(1 + i%3)
	}
	c.Model().SetRegistry(registry(ids))
	ck := login(t, c)
	b := getPage(t, c, ck, "/terminals?per=50&page=2")
	if !strings.Contains(b, "/terminals/S050") || strings.Contains(b, "/terminals/S049\"") || !strings.Contains(b, "2 / 3 (120)") {
		t.Error("page 2 of 50")
	}
	rows, n := c.Model().terminals(parseQuery(map[string][]string{"retailer": {"2"}, "q": {"S1"}}), testNow, DefaultSilentAfter)
	if n != 7 || len(rows) != 7 { // S100..S119 with i%3 == 1: 100, 103, …, 118
		t.Errorf("retailer 2 and S1: %d rows of %d", len(rows), n)
	}
	for _, r := range rows {
		if r.Retailer != 2 || !strings.HasPrefix(r.ID, "S1") {
			t.Errorf("row %+v", r)
		}
	}
	if b := getPage(t, c, ck, "/terminals?state=bogus&page=-1"); !strings.Contains(b, "state") || !strings.Contains(b, "/terminals/S000") {
		t.Error("a bad parameter is said and ignored")
	}
}

// TestTerminalPage: a terminal's records latest first, its payouts, refusals and forks;
// an unknown terminal is 404.
func TestTerminalPage(t *testing.T) {
	c, _ := testConsole(t, nil)
	fillFleet(t, c)
	ck := login(t, c)
	b := getPage(t, c, ck, "/terminals/T1")
	if i, j := strings.Index(b, `id="rec-T1-3"`), strings.Index(b, `id="rec-T1-1"`); i < 0 || j < 0 || i > j {
		t.Error("records not latest first")
	}
	if !strings.Contains(b, "forged") {
		t.Error("refusal missing")
	}
	if b := getPage(t, c, ck, "/terminals/T1?kind=sale"); strings.Contains(b, `id="rec-T1-2"`) || !strings.Contains(b, `id="rec-T1-1"`) {
		t.Error("kind filter")
	}
	if b := getPage(t, c, ck, "/terminals/T2"); !strings.Contains(b, "T2/1") || !strings.Contains(b, "tamper") {
		t.Error("fork or fault missing")
	}
	if w := serve(c, request("GET", "/terminals/NOPE", nil, ck)); w.Code != http.StatusNotFound {
		t.Errorf("unknown terminal: %d", w.Code)
	}
}

// TestNoCodeShown: a payout's validation code appears on no page, export or event.
func TestNoCodeShown(t *testing.T) {
	c, _ := testConsole(t, nil)
	c.Model().SetRegistry(registry(map[string]uint32{"T1": 1}))
	r := rec("T1", 1, journal.KindPayout, 500, codes.TicketID{Block: 7, Pack: 1, Position: 2}, "")
	r.Code = codes.ValidationCodeOf(r.Ticket, [codes.SecretSize]byte{9, 8, 7, 6, 5, 4, 3, 2, 1})
	c.Model().AddRecord(r, testNow)
	ck := login(t, c)
	text := r.CodeText()
	if text == "" {
		t.Fatal("the payout has no code")
	}
	for _, p := range []string{"/", "/terminals", "/terminals/T1", "/records?kind=payout", "/settle", "/retailers"} {
		if b := getPage(t, c, ck, p); strings.Contains(b, text) || strings.Contains(b, text[len(text)-6:]) {
			t.Errorf("%s shows the code", p)
		}
	}
}

// TestRetailers: a retailer's status list and terminals.
func TestRetailers(t *testing.T) {
	c, _ := testConsole(t, nil)
	fillFleet(t, c)
	c.Model().SetStatus(&ledger.StatusList{Retailer: 1, Version: 4, Issued: testNow.Unix(),
		Ranges: []ledger.PackRange{{Block: 7, First: 0, Count: 10, State: ledger.PackDelivered}, {Block: 7, First: 10, Count: 2, State: ledger.PackStolen}}}, true, false)
	b := getPage(t, c, login(t, c), "/retailers")
	sec := b[strings.Index(b, `id="retailer-1"`):strings.Index(b, `id="retailer-2"`)]
	for _, want := range []string{"Version 4", "/terminals/T1", "/terminals/T3", ledger.PackStolen.String(), `class="flag sig-bad"`} {
		if !strings.Contains(sec, want) {
			t.Errorf("retailer 1 lacks %q", want)
		}
	}
	if strings.Contains(sec, "/terminals/T2") {
		t.Error("T2 listed under retailer 1")
	}
}
