package journal

import (
	"crypto/ed25519"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/validate/codes"
)

// testStart is the fake clock's start: a Wednesday morning in Paris (UTC+1 in winter).
var testStart = time.Date(2026, 12, 2, 9, 30, 0, 0, time.FixedZone("CET", 3600))

// ticketN is the n-th distinct ticket (n ≥ 0).
func ticketN(n int) codes.TicketID {
	return codes.TicketID{Block: uint16(1 + n/(codes.PacksPerBlock*8)), Pack: uint32(n/8) % codes.PacksPerBlock, Position: uint8(n%8 + 1)}
}

// payoutN is a payout entry of ticket n, with its validation code (secret from n).
func payoutN(n int) Entry {
	id := ticketN(n)
	var s [codes.SecretSize]byte
	s[0], s[1], s[2], s[9] = byte(n), byte(n>>8), byte(n>>16), 0x5a
	return Entry{Kind: KindPayout, Ticket: id, Game: int(id.Position), Amount: 3000,
		Code: codes.ValidationCodeOf(id, s), Receipts: []string{"R" + id.String()}}
}

type fixture struct {
	dir   string
	clock *clockwork.FakeClock
	key   ed25519.PrivateKey
	j     *Journal
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{dir: t.TempDir(), clock: clockwork.NewFakeClockAt(testStart)}
	f.reopen(t)
	t.Cleanup(func() { f.j.Close() })
	return f
}

func (f *fixture) opts() Options {
	return Options{Terminal: "T0042", Clock: f.clock}
}

// reopen closes the journal (if open) and opens it again.
func (f *fixture) reopen(t testing.TB) {
	t.Helper()
	if f.j != nil {
		f.j.Close()
	}
	j, err := Open(f.dir, f.opts())
	if err != nil {
		t.Fatal(err)
	}
	f.j = j
}

func (f *fixture) append(t testing.TB, e Entry) Record {
	t.Helper()
	r, err := f.j.Append(e)
	if err != nil {
		t.Fatalf("append %v: %v", e.Kind, err)
	}
	return r
}

func fileSum(t testing.TB, dir string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, DBFile))
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}
