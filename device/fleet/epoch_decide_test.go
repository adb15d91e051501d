package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
)

// TestEarlierJournal: the decision on a terminal's own claim ("yours"), on small fakes.
func TestEarlierJournal(t *testing.T) {
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	now := JournalEpoch{ID: "0123456789abcdef", Start: start, HasStart: true}
	empty := JournalEpoch{ID: "0123456789abcdef"}
	older := JournalEpoch{ID: "T7/1#ab12cd34", Start: start, HasStart: true} // a journal from before stored epochs
	unknown := JournalEpoch{}                                                // such a journal, empty
	for _, c := range []struct {
		name   string
		holder Claim
		cur    JournalEpoch
		want   bool
	}{
		{"same epoch: a retry", Claim{Epoch: now.ID, At: start.Add(-time.Hour)}, now, false},
		{"same epoch, empty journal: a retry after a crash", Claim{Epoch: empty.ID}, empty, false},
		{"another epoch: paid before a reset or a wipe", Claim{Epoch: "fedcba9876543210", At: start.Add(time.Hour)}, now, true},
		{"another epoch, this journal from before epochs", Claim{Epoch: "fedcba9876543210"}, older, true},
		{"same first-record epoch", Claim{Epoch: older.ID}, older, false},
		{"an epoch, this journal's unknown", Claim{Epoch: "fedcba9876543210"}, unknown, true},
		{"no epoch, older than this journal", Claim{At: start.Add(-time.Second)}, now, true},
		{"no epoch, as old as this journal's first record", Claim{At: start}, now, false},
		{"no epoch, newer: made under this journal", Claim{At: start.Add(time.Minute)}, older, false},
		{"no epoch, empty journal", Claim{At: start}, empty, true},
		{"no epoch either side, empty journal", Claim{At: start}, unknown, true},
	} {
		if got := EarlierJournal(c.holder, c.cur); got != c.want {
			t.Errorf("%s: EarlierJournal = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestDecidePaidBefore: the terminal's own claim from an earlier journal is refused with
// its holder, never paid, nor paid unconfirmed.
func TestDecidePaidBefore(t *testing.T) {
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	id := codes.TicketID{Block: 7, Pack: 1, Position: 2}
	err := fmt.Errorf("claim: %w", &PaidBeforeError{Ticket: id, Holder: Claim{Terminal: "T7", At: at, Epoch: "a"}, Epoch: "b"})
	d, h := decideOn(&Fake{}, err, 100, 10000, 0, nil)
	if d.Reason != decide.PaidBeforeReset || h == nil || h.Holder.Terminal != "T7" || !h.Holder.At.Equal(at) || h.Ticket != id {
		t.Fatalf("Decide = %v %+v", d, h)
	}
	if d.String() != "refuse:paid-before-reset" || !strings.Contains(err.Error(), "earlier journal") {
		t.Errorf("%q, %q", d, err)
	}
	f := &Fake{Terminal: "T7", Before: map[codes.TicketID]time.Time{id: at}}
	_, err = f.Claim(context.Background(), codes.ValidationCodeOf(id, [codes.SecretSize]byte{1}), 100)
	if d, h := decideOn(f, err, 100, 10000, 0, nil); d.Reason != decide.PaidBeforeReset || !h.Holder.At.Equal(at) || h.Holder.Terminal != "T7" {
		t.Fatalf("fake: %v %v", d, err)
	}
}

// The epoch travels in the request and the stored claim; one that is not printable or too
// long is refused by the decoders.
func TestEpochInMessages(t *testing.T) {
	id := codes.TicketID{Block: 7, Pack: 1, Position: 2}
	b, _ := json.Marshal(ClaimRequest{Ticket: id, Amount: 1, Epoch: "0123456789abcdef"})
	if r, err := DecodeClaimRequest(b); err != nil || r.Epoch != "0123456789abcdef" {
		t.Fatalf("request: %+v %v", r, err)
	}
	b, _ = json.Marshal(Claim{Terminal: "T7", Epoch: "T7/1#ab12cd34"})
	if c, err := DecodeClaim(b); err != nil || c.Epoch != "T7/1#ab12cd34" {
		t.Fatalf("claim: %+v %v", c, err)
	}
	for _, bad := range []string{"a b", "é", strings.Repeat("x", 200), "a\n"} {
		b, _ := json.Marshal(ClaimRequest{Ticket: id, Amount: 1, Epoch: bad})
		if _, err := DecodeClaimRequest(b); !errors.Is(err, ErrMessage) {
			t.Errorf("request with epoch %q: %v", bad, err)
		}
		b, _ = json.Marshal(ClaimReply{Result: ResultYours, Holder: Claim{Terminal: "T7", Epoch: bad}})
		if _, err := DecodeClaimReply(b); !errors.Is(err, ErrMessage) {
			t.Errorf("reply with epoch %q: %v", bad, err)
		}
	}
}
