package fleet

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// FuzzDecodeClaimRequest: any body decodes to a request with a valid ticket, or
// ErrMessage-wrapped error; never a panic.
func FuzzDecodeClaimRequest(f *testing.F) {
	b, _ := json.Marshal(ClaimRequest{Ticket: codes.TicketID{Block: 7, Pack: 1, Position: 2}, Amount: 100, At: time.Unix(1, 0).UTC()})
	f.Add(b)
	f.Add([]byte(`{"ticket":{"Block":7,"Pack":1,"Position":9},"amount":1}`))
	f.Add([]byte(`{"ticket":{},"x":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeClaimRequest(b)
		if err == nil && r.Ticket.Validate() != nil {
			t.Fatalf("accepted ticket %v", r.Ticket)
		}
	})
}

// FuzzDecodeClaimReply: a decoded reply names a valid terminal unless it is an error or a
// refusal, which names a known reason.
func FuzzDecodeClaimReply(f *testing.F) {
	b, _ := json.Marshal(ClaimReply{Result: ResultTaken, Holder: Claim{Terminal: "T1", At: time.Unix(1, 0).UTC(), Amount: 5}})
	f.Add(b)
	f.Add([]byte(`{"result":"error","error":"x"}`))
	f.Add([]byte(`{"result":"won","holder":{"terminal":"a.b"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeClaimReply(b)
		if err == nil && r.Result != ResultError && r.Result != ResultRefused && CheckTerminal(r.Holder.Terminal) != nil {
			t.Fatalf("accepted holder %q", r.Holder.Terminal)
		}
		if err == nil && r.Result == ResultRefused && !refusedReasons[r.Reason] {
			t.Fatalf("accepted reason %q", r.Reason)
		}
	})
}

// FuzzDecodeConflicts: never a panic; every decoded conflict has valid tickets and terminals.
func FuzzDecodeConflicts(f *testing.F) {
	c := Claim{Terminal: "T1", At: time.Unix(1, 0).UTC(), Amount: 5}
	b, _ := json.Marshal([]Conflict{{Ticket: codes.TicketID{Block: 7, Pack: 1, Position: 2}, Holder: c, Other: c}})
	f.Add(b)
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"ticket":{"Block":1}}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := DecodeConflicts(b)
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Ticket.Validate() != nil || CheckTerminal(c.Holder.Terminal) != nil || CheckTerminal(c.Other.Terminal) != nil {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}

// FuzzDecodeJournalMsg: a decoded message's record matches its subject's terminal and kind.
func FuzzDecodeJournalMsg(f *testing.F) {
	r := journal.Record{Entry: journal.Entry{Kind: journal.KindRefused, Time: time.Unix(100, 0).UTC(), Reason: "forged"}, Terminal: "T1", Seq: 1}
	enc := journal.AppendRecord(nil, &r) // hash not sealed: refused, but a useful shape
	f.Add("journal.T1.refused", enc)
	f.Add("journal.T2.refused", enc)
	f.Add("journal..", []byte{1})
	if j, err := journal.Open(f.TempDir(), journal.Options{Terminal: "T1"}); err == nil {
		if rec, err := j.Append(journal.Entry{Kind: journal.KindRefused, Reason: "forged"}); err == nil {
			f.Add("journal.T1.refused", journal.AppendRecord(nil, &rec))
			f.Add("journal.T1.payout", journal.AppendRecord(nil, &rec))
		}
		j.Close()
	}
	f.Fuzz(func(t *testing.T, subject string, b []byte) {
		rec, err := DecodeJournalMsg(subject, b)
		if err != nil {
			return
		}
		if JournalSubject(&rec) != subject {
			t.Fatalf("record %s accepted on %q", rec.ID(), subject)
		}
	})
}

// FuzzDecodeRefusal: a decoded refusal record names a valid terminal and a known reason,
// amounts in range; never a panic.
func FuzzDecodeRefusal(f *testing.F) {
	b, _ := json.Marshal(Refusal{At: time.Unix(1, 0).UTC(), Terminal: "T1", Retailer: 5, Ticket: codes.TicketID{Block: 7, Pack: 1, Position: 2},
		Reason: RefusedAmount, Detail: "asked 15000 cents", CodeGiven: true, Amount: 150_00, Lot: 2_00})
	f.Add(b)
	f.Add([]byte(`{"terminal":"T1","reason":"rate-limited","count":290,"amount":0,"ticket":{}}`))
	f.Add([]byte(`{"terminal":"T1","reason":"free-money","amount":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRefusal(b)
		if err == nil && (CheckTerminal(r.Terminal) != nil || !refusedReasons[r.Reason] || r.Amount < 0 || r.Count < 0) {
			t.Fatalf("accepted %+v", r)
		}
	})
}

// FuzzDecodeHead: a head request or reply decodes with a printable epoch and a hash of 32
// bytes (or none), or fails with an error; never a panic.
func FuzzDecodeHead(f *testing.F) {
	b, _ := json.Marshal(HeadReply{Seq: 6, Hash: "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", Epoch: "0123456789abcdef"})
	f.Add(b)
	f.Add([]byte(`{"seq":3,"epoch":"x y"}`))
	f.Add([]byte(`{"seq":1,"hash":"zz"}`))
	f.Add([]byte(`{"seq":2,"time":1796601600000}`))
	f.Add([]byte(`{"seq":2,"time":-1}`))
	f.Add([]byte(`{"seq":2,"floors":{"status":3,"had_status":true,"ledgers":{"7":2,"65535":1},"operator_keys":1,"limits":4,"firmware_keys":2}}`))
	f.Add([]byte(`{"seq":2,"floors":{"ledgers":{"70000":2}}}`))
	f.Add([]byte(`{"seq":2,"floors":{"ledgers":{"x":2}}}`))
	f.Add([]byte(`{"epoch":"0123456789abcdef","seq":2,"floors":true}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := DecodeHeadReply(b); err == nil && (checkEpoch(r.Epoch) != nil || r.Hash != "" && len(r.Hash) != 64 || r.Time < 0 ||
			r.Floors != nil && len(r.Floors.Ledgers) > MaxLedgerFloors) {
			t.Fatalf("accepted reply %+v", r)
		}
		if r, err := DecodeHeadRequest(b); err == nil && (checkEpoch(r.Epoch) != nil || r.Hash != "" && len(r.Hash) != 64) {
			t.Fatalf("accepted request %+v", r)
		}
	})
}
