package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/host/v3"

	"github.com/packterm/pos/device/config"
	"github.com/packterm/pos/device/emulated"
	"github.com/packterm/pos/drivers/gpioio/gpioiotest"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// tinyDefinition is a feasible eight-pack game: one winning ticket per pack, lots of 3, 5, 10
// and 30 €.
const tinyDefinition = `{
  "source": "test", "comment": "eight packs", "pack_price_eur": 10, "block_packs": 8, "tickets_per_pack": 8,
  "pack": {"article": "3.1",
    "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}, {"count": 1, "amount_eur": 10, "total_eur": 10},
              {"count": 5, "amount_eur": 5, "total_eur": 25}, {"count": 1, "amount_eur": 3, "total_eur": 3}],
    "total_count": 8, "total_eur": 68, "cumulation_only_eur": [], "winners_per_pack": [1, 2, 3, 4, 5, 7], "min_eur": 3},
  "games": [
    {"number": 1, "article": "4.2", "name": "Le p'tit dej au caviar", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 2, "article": "4.3", "name": "Buller dans mon jacuzzi", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 3, "article": "4.4", "name": "La pause farniente", "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}], "total_count": 1, "total_eur": 10},
    {"number": 4, "article": "4.5", "name": "La virée shopping", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 5, "article": "4.6", "name": "Jouer avec les paparazzi", "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}], "total_count": 1, "total_eur": 30},
    {"number": 6, "article": "4.7", "name": "La sortie en limousine", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 7, "article": "4.8", "name": "La soirée privée", "tiers": [{"count": 1, "amount_eur": 3, "total_eur": 3}], "total_count": 1, "total_eur": 3},
    {"number": 8, "article": "4.9", "name": "Bonus, l'after sur le yacht", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5}
  ]
}`

// TestRunOnBoard runs the daemon as on a board: the profile's pins looked up in gpioreg (fake
// pins registered under the Raspberry Pi's names), the scanner and printer on ptys, the
// ledger installed in the data directory; a winner is paid with the OK button.
func TestRunOnBoard(t *testing.T) {
	if _, err := host.Init(); err != nil {
		t.Fatal(err)
	}
	if gpioreg.ByName("GPIO25") != nil {
		t.Skip("this machine has GPIOs")
	}
	pins := map[string]*gpiotest.Pin{}
	register := func(p gpio.PinIO) {
		if err := gpioreg.Register(p); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = gpioreg.Unregister(p.Name()) })
	}
	for _, n := range []string{"GPIO25", "GPIO24", "GPIO23", "GPIO22", "GPIO27", "GPIO17", "GPIO4", "GPIO5", "GPIO6", "GPIO13", "GPIO12"} {
		p := &gpiotest.Pin{N: n, Num: -1, EdgesChan: make(chan gpio.Level, 8)}
		register(p)
		pins[n] = p
	}
	// The contacts keep their level as a wired switch does: buttons to ground, the case
	// switch closed.
	ok := gpioiotest.NewInput("GPIO20", 20, false, nil)
	for _, in := range []*gpioiotest.Input{ok, gpioiotest.NewInput("GPIO21", 21, false, nil), gpioiotest.NewInput("GPIO16", 16, true, nil)} {
		register(in)
	}
	dir := t.TempDir()
	def, err := game.ParseSource([]byte(tinyDefinition))
	if err != nil {
		t.Fatal(err)
	}
	var winner string
	var mu sync.Mutex
	err = emulated.GenerateBlock(context.Background(), filepath.Join(dir, "block"), def, 5, block.Seed{5}, func(tk *block.Ticket) {
		if tk.Tier > 0 && tk.Lot == 10_00 {
			mu.Lock()
			winner = codes.ValidationCodeOf(tk.ID, tk.Secret).String()
			mu.Unlock()
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pub := filepath.Join(dir, "block", "keys", ledger.OperatorPublicFile)
	trust, err := ledger.LoadTrustStore(pub)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ledger.Install(data, filepath.Join(dir, "block", ledger.FileName(5)), trust); err != nil {
		t.Fatal(err)
	}
	pr, err := printeremul.NewEmulator(filepath.Join(dir, "printer"), printeremul.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	sc, err := scanneremul.New(filepath.Join(dir, "scanner"), scanneremul.Config{Suffix: scanner.CR})
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	cfg := config.Default()
	cfg.TerminalID, cfg.RetailerID, cfg.DataDir = "T-1", "1", data
	cfg.Keys.Operator = []string{pub}
	cfg.Scanner.Port, cfg.Printer.Port = sc.Path(), pr.Path()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	running := make(chan Running, 1)
	go func() { done <- RunWith(ctx, &cfg, nil, func(r Running) { running <- r }) }()
	r := <-running
	select { // first screen shown, ledger loaded, the emulated printer answered DLE EOT
	case <-r.Health.Healthy():
	case <-time.After(10 * time.Second):
		t.Fatal("the daemon never became healthy")
	}
	if !r.Health.OK() {
		t.Fatal("healthy but not live")
	}
	time.Sleep(time.Second) // ports connected, first screen shown
	if err := sc.Scan(ctx, winner, ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	ok.Press()
	time.Sleep(100 * time.Millisecond)
	ok.Release()
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	rs, err := pr.WaitReceipts(wctx, 2)
	if err != nil {
		t.Fatalf("%v (%d receipts)", err, len(rs))
	}
	time.Sleep(300 * time.Millisecond) // the drawer's pulse (100 ms) after the receipts
	if got := pins["GPIO12"].Read(); got != gpio.Low {
		t.Errorf("drawer solenoid left %v", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r.Health.Live() || r.Health.OK() {
		t.Error("a stopped daemon still says it is live")
	}
	j, err := journal.Open(filepath.Join(data, "journal"), journal.Options{Terminal: "T-1", ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	v, _ := codes.ParseValidation(winner)
	if _, paid, _ := j.Paid(v.ID()); !paid {
		t.Error("payout not in the journal")
	}
}

func TestLoadDataFailsClosed(t *testing.T) {
	dir := t.TempDir()
	def, err := game.ParseSource([]byte(tinyDefinition))
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
	d, err := LoadData(data, trust, 1)
	if err != nil || d.Ledger != nil || d.Status != nil {
		t.Fatalf("empty directory: %v %+v", err, d)
	}
	if _, err := ledger.Install(data, filepath.Join(dir, ledger.FileName(4)), trust); err != nil {
		t.Fatal(err)
	}
	key, _ := ledger.LoadPrivateKey(filepath.Join(dir, "keys", ledger.OperatorPrivateFile))
	if err := ledger.WriteStatus(filepath.Join(data, ledger.StatusFileName), &ledger.StatusList{Retailer: 2, Version: 1}, key); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(data, trust, 1); !errors.Is(err, ledger.ErrRetailer) {
		t.Errorf("another retailer's list: %v", err)
	}
	d, err = LoadData(data, trust, 2)
	if err != nil || d.Ledger == nil || d.Status == nil {
		t.Fatalf("installed data: %v", err)
	}
	d.Close()
	// A damaged ledger is refused, not ignored.
	if err := os.WriteFile(filepath.Join(data, ledger.FileName(4)), []byte("PTLEDGER garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadData(data, trust, 2); err == nil {
		t.Error("damaged ledger accepted")
	}
}
