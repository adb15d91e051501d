package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// TestRunOnBoard runs the daemon as on a board: the profile's pins looked up in gpioreg (fake
// pins registered under the Raspberry Pi's names), the scanner and printer on ptys, the
// ledger installed in the data directory; a winner is paid with the OK button. Without a
// fleet the terminal claims with fleet.OfflineOnly: the payout, within the offline limit,
// is unconfirmed.
func TestRunOnBoard(t *testing.T) {
	tb := newTestBlock(t, 5)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	id, winner := tb.winner(t, func(lot int64) bool { return lot == 10_00 })
	d := b.start(t, Options{})
	select { // first screen shown, ledger loaded, the emulated printer answered DLE EOT
	case <-d.r.Health.Healthy():
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon never became healthy")
	}
	if !d.r.Health.OK() {
		t.Fatal("healthy but not live")
	}
	d.scan(b, winner, "GAGNANT", "10,00 €")
	d.press(b, "PAYÉ")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if rs, err := b.pr.WaitReceipts(ctx, 2); err != nil {
		t.Fatalf("%v (%d receipts)", err, len(rs))
	}
	time.Sleep(300 * time.Millisecond) // the drawer's pulse (100 ms) after the receipts
	if got := b.pins["GPIO12"].Read(); got != gpio.Low {
		t.Errorf("drawer solenoid left %v", got)
	}
	if err := d.stop(); err != nil {
		t.Fatal(err)
	}
	if d.r.Health.Live() || d.r.Health.OK() {
		t.Error("a stopped daemon still says it is live")
	}
	j, err := journal.Open(filepath.Join(b.cfg.DataDir, "journal"), journal.Options{Terminal: "T-1", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if r, paid, _ := j.Paid(id); !paid || !r.Unconfirmed() {
		t.Errorf("payout in the journal %v, unconfirmed %v (no fleet: OfflineOnly)", paid, r.Unconfirmed())
	}
}

func TestLoadDataFailsClosed(t *testing.T) {
	dir := t.TempDir()
	def, err := game.ParseSource([]byte(testblock.Definition))
	if err != nil {
		t.Fatal(err)
	}
	if err := emulated.GenerateBlock(context.Background(), dir, def, 4, block.Seed{4}, nil, nil); err != nil {
		t.Fatal(err)
	}
	trust, err := ledger.LoadTrustStore(filepath.Join(dir, "keys", ledger.OperatorPublicFile))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	d, err := LoadData(data, trust, "T1", 1)
	if err != nil || d.Ledgers.Len() != 0 || d.Status != nil {
		t.Fatalf("empty directory: %v %+v", err, d)
	}
	if _, err := ledger.Install(data, filepath.Join(dir, ledger.FileName(4)), trust); err != nil {
		t.Fatal(err)
	}
	key, _ := ledger.LoadPrivateKey(filepath.Join(dir, "keys", ledger.OperatorPrivateFile))
	if err := ledger.WriteStatus(filepath.Join(data, ledger.StatusFileName), &ledger.StatusList{Retailer: 2, Version: 1}, key); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(data, trust, "T1", 1); !errors.Is(err, ledger.ErrRetailer) {
		t.Errorf("another retailer's list: %v", err)
	}
	d, err = LoadData(data, trust, "T1", 2)
	if err != nil || d.Ledgers.Len() != 1 || d.Status == nil {
		t.Fatalf("installed data: %v", err)
	}
	d.Close()
	// A damaged ledger is refused, not ignored.
	if err := os.WriteFile(filepath.Join(data, ledger.FileName(4)), []byte("PTLEDGER garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(data, trust, "T1", 2); err == nil {
		t.Error("damaged ledger accepted")
	}
}

// TestLoadDataEveryBlock: every installed block's ledger is opened (block 10 beside block
// 4: the older code opened only the last name in text order, block 4), and a file whose name
// says another block than the one inside is refused.
func TestLoadDataEveryBlock(t *testing.T) {
	def, err := game.ParseSource([]byte(testblock.Definition))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	var pubs, files []string
	for _, b := range []uint16{4, 10} {
		dir := t.TempDir()
		if err := emulated.GenerateBlock(context.Background(), dir, def, b, block.Seed{byte(b)}, nil, nil); err != nil {
			t.Fatal(err)
		}
		pubs = append(pubs, filepath.Join(dir, "keys", ledger.OperatorPublicFile))
		files = append(files, filepath.Join(dir, ledger.FileName(b)))
	}
	trust, err := ledger.LoadTrustStore(pubs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, err := ledger.Install(data, f, trust); err != nil {
			t.Fatal(err)
		}
	}
	d, err := LoadData(data, trust, "T1", 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Ledgers.Blocks(); len(got) != 2 || got[0] != 4 || got[1] != 10 {
		t.Errorf("blocks %v, want [4 10]", got)
	}
	d.Close()
	raw, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, ledger.FileName(11)), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(data, trust, "T1", 1); !errors.Is(err, ledger.ErrFormat) {
		t.Errorf("block 10 named block-11.ledger: %v", err)
	}
}
