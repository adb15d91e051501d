package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// beforeFirstRead runs do when posd first reads its input, i.e. once the --ledger file is
// open and mapped, then reads r.
type beforeFirstRead struct {
	once sync.Once
	do   func()
	r    io.Reader
}

func (b *beforeFirstRead) Read(p []byte) (int, error) {
	b.once.Do(b.do)
	return b.r.Read(p)
}

// TestEmulateLedgerRewrittenInPlace: posd --emulate --ledger maps the file given. Once it
// is open, the retailer rewrites in place the entry of one of their own losing tickets so
// that its code opens to its game's prize. The code is refused (DONNÉES REFUSÉES) and
// nothing is paid; a real winner elsewhere in the block is paid.
func TestEmulateLedgerRewrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	def, err := game.ParseSource([]byte(testblock.Definition))
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		tickets []block.Ticket
	)
	if err := emulated.GenerateBlock(context.Background(), dir, def, 6, block.Seed{6}, func(tk *block.Ticket) {
		mu.Lock()
		tickets = append(tickets, *tk)
		mu.Unlock()
	}, nil); err != nil {
		t.Fatal(err)
	}
	var loser, winner *block.Ticket
	for i := range tickets {
		tk := &tickets[i]
		switch {
		case loser == nil && tk.Tier == 0 && tk.ID.Pack < 4:
			loser = tk
		case winner == nil && tk.Tier > 0 && tk.ID.Pack >= 4:
			winner = tk
		}
	}
	if loser == nil || winner == nil {
		t.Fatal("no loser or winner in the test block")
	}
	ledgerPath := filepath.Join(dir, ledger.FileName(6))
	pub := filepath.Join(dir, "keys", ledger.OperatorPublicFile)
	code := func(tk *block.Ticket) string { return codes.ValidationCodeOf(tk.ID, tk.Secret).String() }
	in := &beforeFirstRead{r: strings.NewReader(strings.Join([]string{code(loser), "!ok", code(winner), "!ok", ""}, "\n")), do: func() {
		if err := testblock.ForgeEntry(ledgerPath, loser.ID, loser.Secret, 1); err != nil {
			t.Error(err)
		}
	}}
	var out, errb bytes.Buffer
	if rc := run([]string{"--emulate", "--data", filepath.Join(dir, "data"), "--ledger", ledgerPath, "--pub", pub, "--display", "20x4"}, in, &out, &errb); rc != 0 {
		t.Fatalf("exit %d\n%s\n%s", rc, errb.String(), out.String())
	}
	o := out.String()
	i, j := strings.Index(o, "> "+code(loser)), strings.Index(o, "> "+code(winner))
	if i < 0 || j < i {
		t.Fatalf("inputs not echoed:\n%s", o)
	}
	if forged := o[i:j]; !strings.Contains(forged, "DONNÉES REFUSÉES") || strings.Contains(forged, "PAYÉ") || strings.Contains(forged, "receipt") {
		t.Errorf("the forged code:\n%s", forged)
	}
	if !strings.Contains(o[j:], "PAYÉ") {
		t.Errorf("the real winner was not paid:\n%s", o[j:])
	}
}
