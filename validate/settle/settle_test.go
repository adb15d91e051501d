package settle

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

var seed = block.Seed{7, 7, 7, 1}

func manifestJSON(b uint16, s block.Seed) string {
	return `{"block": ` + strconv.Itoa(int(b)) + `, "ledger_version": 1, "seed": "` + s.String() + `", "packs": 100}`
}

func trueSecret(t *testing.T, id codes.TicketID) [codes.SecretSize]byte {
	var out [codes.SecretSize]byte
	if err := seed.Secrets([]codes.TicketID{id}, func(_ codes.TicketID, s [codes.SecretSize]byte) { out = s }); err != nil {
		t.Fatal(err)
	}
	return out
}

// journalRecords writes entries to a real journal of terminal and returns its records.
func journalRecords(t *testing.T, terminal string, es []journal.Entry) []journal.Record {
	t.Helper()
	j, err := journal.Open(t.TempDir(), journal.Options{Terminal: terminal})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	for _, e := range es {
		if _, err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	var recs []journal.Record
	j.Each(time.Time{}, func(r journal.Record) error { recs = append(recs, r); return nil })
	return recs
}

func pay(id codes.TicketID, secret [codes.SecretSize]byte, reason string) journal.Entry {
	return journal.Entry{Kind: journal.KindPayout, Ticket: id, Game: int(id.Position), Amount: 2000,
		Code: codes.ValidationCodeOf(id, secret), Reason: reason}
}

func TestReadManifestRefusals(t *testing.T) {
	for _, in := range []string{
		``, `{}`, `{"block": 7}`, `{"block": 0, "seed": "` + seed.String() + `"}`,
		`{"block": 7, "seed": "00"}`, `{"block": 7, "seed": "` + seed.String() + `"} {}`,
		`{"block": 99999, "seed": "` + seed.String() + `"}`, `[1]`,
		`{"block": 7, "seed": "` + seed.String() + `", "x": "` + strings.Repeat("a", MaxManifestSize) + `"}`,
		`{"block": 7, "seed": "` + seed.String() + `", "packs": -1}`, `{"block": 7, "seed": "` + seed.String() + `", "design_patterns": 2000000}`,
		// Strict JSON: a second seed or block, or one in another case, decides nothing.
		`{"block": 7, "seed": "` + seed.String() + `", "seed": "` + seed.String() + `"}`,
		`{"block": 7, "seed": "` + seed.String() + `", "SEED": "` + seed.String() + `"}`,
		`{"BLOCK": 7, "seed": "` + seed.String() + `"}`,
		// A design digest that is no SHA-256.
		`{"block": 7, "seed": "` + seed.String() + `", "design_sha256": "00"}`,
		`{"block": 7, "seed": "` + seed.String() + `", "design_sha256": "` + strings.Repeat("z", 64) + `"}`,
	} {
		if _, err := ReadManifest(strings.NewReader(in)); !errors.Is(err, ErrManifest) {
			t.Errorf("%.40q: %v", in, err)
		}
	}
}

// TestReport: sums per retailer and block, unconfirmed payouts, claims, conflicts, gaps.
func TestReport(t *testing.T) {
	id := codes.TicketID{Block: 7, Pack: 5, Position: 2}
	a := journalRecords(t, "TA", []journal.Entry{
		{Kind: journal.KindSale, Ticket: codes.TicketID{Block: 7, Pack: 5}, Amount: 2000},
		pay(id, trueSecret(t, id), ""),
		{Kind: journal.KindClaim, Ticket: codes.TicketID{Block: 7, Pack: 5, Position: 8}, Game: 8, Amount: 500000},
		{Kind: journal.KindConflict, Ticket: id, Game: 2, Amount: 2000, Reason: journal.ReasonPaidOfflineElsewhere, Detail: "also paid at terminal TB"},
	})
	b := journalRecords(t, "TB", []journal.Entry{
		pay(id, trueSecret(t, id), journal.ReasonUnconfirmed),
		{Kind: journal.KindRefused, Reason: "forged"},
		{Kind: journal.KindConflict, Ticket: id, Game: 2, Amount: 2000, Reason: journal.ReasonPaidElsewhere, Detail: "also paid at terminal TA"},
	})
	recs := append(append(a, b[0], b[2]), a[0]) // TB/2 missing: a gap; TA/1 twice
	rep := Build(recs, func(term string) (uint32, bool) {
		return map[string]uint32{"TA": 1, "TB": 2}[term], true
	})
	if len(rep.Rows) != 2 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	ra, rb := rep.Rows[0], rep.Rows[1]
	if ra.Retailer != 1 || ra.Sales != 1 || ra.Payouts != 1 || ra.Claims != 1 || ra.ClaimsAmount != 500000 || ra.Conflicts != 1 || ra.Unconfirmed != 0 {
		t.Fatalf("retailer 1: %+v", ra)
	}
	if rb.Retailer != 2 || rb.Payouts != 1 || rb.Unconfirmed != 1 || rb.UnconfirmedAmount != 2000 || rb.Conflicts != 1 {
		t.Fatalf("retailer 2: %+v", rb)
	}
	if len(rep.Conflicts) != 2 || len(rep.Gaps) != 1 || rep.Gaps[0] != (Gap{"TB", 2, 2}) || rep.Records != 6 {
		t.Fatalf("conflicts %v gaps %v records %d", rep.Conflicts, rep.Gaps, rep.Records)
	}
	var out bytes.Buffer
	rep.WriteText(&out)
	if !strings.Contains(out.String(), "conflict: ticket") || strings.Count(out.String(), "conflict: ticket") != 1 || !strings.Contains(out.String(), "gap: terminal TB records 2..2") {
		t.Fatalf("report text:\n%s", out.String())
	}
}

func TestCheckClaims(t *testing.T) {
	a, b, c := codes.TicketID{Block: 7, Pack: 1, Position: 1}, codes.TicketID{Block: 7, Pack: 1, Position: 2}, codes.TicketID{Block: 7, Pack: 1, Position: 3}
	recs := journalRecords(t, "TA", []journal.Entry{pay(a, trueSecret(t, a), ""), pay(b, trueSecret(t, b), journal.ReasonUnconfirmed)})
	recs = append(recs, recs[0])
	cc := CheckClaims(map[codes.TicketID]string{a: "TA", c: "TB"}, recs)
	if len(cc.ClaimedNotPaid) != 1 || cc.ClaimedNotPaid[0].Ticket != c || cc.ClaimedNotPaid[0].Claimant != "TB" {
		t.Fatalf("claimed, not paid: %+v", cc.ClaimedNotPaid)
	}
	if len(cc.PaidNotClaimed) != 1 || cc.PaidNotClaimed[0].Record != "TA/2" || cc.PaidNotClaimed[0].Claimant != "" {
		t.Fatalf("paid, not claimed: %+v", cc.PaidNotClaimed)
	}
}

// TestReportFork: two different records under one id (a journal reset) both count and
// are shown as a fork; the same record twice counts once.
func TestReportFork(t *testing.T) {
	a := journalRecords(t, "TA", []journal.Entry{{Kind: journal.KindRefused, Reason: "forged"}})
	b := journalRecords(t, "TA", []journal.Entry{{Kind: journal.KindRefused, Reason: "void-pack"}})
	rep := Build(append(append(a, b...), a...), func(string) (uint32, bool) { return 1, true })
	if rep.Records != 2 || len(rep.Forks) != 1 || rep.Forks[0] != "TA/1" || len(rep.Gaps) != 0 {
		t.Fatalf("records %d forks %v gaps %v", rep.Records, rep.Forks, rep.Gaps)
	}
}

// TestDistinctConflicts: the conflicts bucket holds each conflict under both terminals'
// keys; the report shows it once (issue 33: it printed each conflict line twice).
func TestDistinctConflicts(t *testing.T) {
	at := time.Date(2026, 6, 1, 10, 0, 0, 0, time.FixedZone("CEST", 7200))
	one := BucketConflict{Ticket: codes.TicketID{Block: 7, Pack: 2, Position: 3}, Holder: "TA", HolderAt: at, Other: "TB", OtherRecord: "TB/4"}
	two := one
	two.Ticket.Pack = 1
	utc := one
	utc.HolderAt = at.UTC()
	got := DistinctConflicts([]BucketConflict{one, two, utc, two})
	if len(got) != 2 || got[0].Ticket != two.Ticket || got[1].Ticket != one.Ticket {
		t.Fatalf("%+v", got)
	}
	b, _ := json.Marshal(got[0])
	if !strings.Contains(string(b), `"ticket":"0007/0000001/3"`) || !strings.Contains(string(b), `"other_record":"TB/4"`) {
		t.Fatalf("JSON %s", b)
	}
}

// TestTerminals: every registered terminal once, a silent one said so, the last record
// and when it was received, payouts, and the unconfirmed payouts its own claims do not
// cover; a terminal not registered is listed too.
func TestTerminals(t *testing.T) {
	a, b := codes.TicketID{Block: 7, Pack: 5, Position: 2}, codes.TicketID{Block: 7, Pack: 6, Position: 2}
	recs := journalRecords(t, "TA", []journal.Entry{
		pay(a, trueSecret(t, a), journal.ReasonUnconfirmed), // claimed at reconciliation
		pay(b, trueSecret(t, b), journal.ReasonUnconfirmed), // not yet
	})
	recs = append(recs, recs[0]) // published twice: counted once
	recs = append(recs, journalRecords(t, "TX", []journal.Entry{{Kind: journal.KindRefused, Reason: "forged"}})...)
	at := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	ts := Terminals([]Registered{{"TA", 1}, {"TS", 2}}, recs, func(i int) time.Time { return at.Add(time.Duration(i) * time.Minute) },
		map[codes.TicketID]string{a: "TA"})
	if len(ts) != 3 || ts[0].Terminal != "TA" || ts[1].Terminal != "TS" || ts[2].Terminal != "TX" {
		t.Fatalf("%+v", ts)
	}
	ta := ts[0]
	if ta.Records != 2 || ta.LastSeq != 2 || ta.Payouts != 2 || ta.Unconfirmed != 1 || ta.UnconfirmedAmt != recs[1].Amount ||
		!ta.Seen.Equal(at.Add(time.Minute)) || ta.Silent || !ta.Registered {
		t.Fatalf("TA %+v", ta)
	}
	if !ts[1].Silent || ts[1].Retailer != 2 || ts[2].Registered || ts[2].Silent {
		t.Fatalf("TS %+v TX %+v", ts[1], ts[2])
	}
	var out bytes.Buffer
	WriteTerminals(&out, ts)
	if !strings.Contains(out.String(), "terminals: 3 (1 silent") || !strings.Contains(out.String(), "TS           retailer 2       SILENT") ||
		!strings.Contains(out.String(), "NOT REGISTERED") || strings.Count(out.String(), "\n") != 4 {
		t.Fatalf("text:\n%s", out.String())
	}
}
