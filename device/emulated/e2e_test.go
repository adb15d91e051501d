package emulated

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// e2e is a rig on a test block, with what it showed and printed.
type e2e struct {
	t     *testing.T
	tb    *testBlock
	rig   *Rig
	clock *clockwork.FakeClock

	mu       sync.Mutex
	receipts []printeremul.Receipt
}

func startE2E(t *testing.T, display string) *e2e {
	tb := newTestBlock(t)
	key, err := ledger.LoadPrivateKey(tb.key)
	if err != nil {
		t.Fatal(err)
	}
	statusPath := filepath.Join(tb.dir, ledger.StatusFileName)
	err = ledger.WriteStatus(statusPath, &ledger.StatusList{Retailer: 1, Version: 1, Ranges: []ledger.PackRange{
		{Block: testBlockNumber, First: 0, Count: 8, State: ledger.PackDelivered},
		{Block: testBlockNumber, First: 6, Count: 1, State: ledger.PackVoid},
	}}, key)
	if err != nil {
		t.Fatal(err)
	}
	status, err := ledger.LoadStatus(statusPath, tb.trust)
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{t: t, tb: tb, clock: clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))}
	e.rig, err = Start(context.Background(), Options{
		Dir: t.TempDir(), Display: display, Ledgers: []*ledger.Ledger{tb.ledger}, Status: status, PerTicket: 20_00, Clock: e.clock, LongPress: 200 * time.Millisecond,
		OnReceipt: func(_ int, r printeremul.Receipt) { e.mu.Lock(); e.receipts = append(e.receipts, r); e.mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.rig.Close(); err != nil {
			t.Error(err)
		}
		for _, err := range e.rig.Board.Emulator.LCD.Errors() {
			t.Error(err)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case <-e.rig.Terminal.Ready():
	case <-ctx.Done():
		t.Fatal("terminal not ready")
	}
	return e
}

// rigOn starts a rig on tb's ledger with o (Ledgers set here) for e2e checks; the caller
// closes it (a restart test starts several, one after the other, on one directory).
func rigOn(t *testing.T, tb *testBlock, o Options) *e2e {
	t.Helper()
	o.Ledgers = []*ledger.Ledger{tb.ledger}
	rig, err := Start(context.Background(), o)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return &e2e{t: t, tb: tb, rig: rig}
}

// do applies script lines.
func (e *e2e) do(lines ...string) {
	e.t.Helper()
	for _, l := range lines {
		if _, err := e.rig.Do(context.Background(), l); err != nil {
			e.t.Fatalf("%q: %v (screen %q)", l, err, e.rig.Terminal.Screen())
		}
	}
}

// expect checks the screen the terminal laid out and what the emulated panel shows.
func (e *e2e) expect(want ...string) {
	e.t.Helper()
	got := strings.Join(e.rig.Terminal.Screen(), " ")
	lcd := strings.Join(e.rig.Board.Emulator.LCD.Visible(), " ")
	for _, w := range want {
		if !strings.Contains(got, w) {
			e.t.Errorf("screen %q lacks %q", got, w)
		}
	}
	// The panel shows the same rows (accents and € are glyphs there: compare the ASCII words).
	for _, row := range e.rig.Terminal.Screen() {
		for _, word := range strings.Fields(row) {
			if isASCII(word) && !strings.Contains(lcd, word) {
				e.t.Errorf("panel %q lacks %q", lcd, word)
			}
		}
	}
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 0x7e {
			return false
		}
	}
	return true
}

// waitReceipts waits for n receipts in all and returns them.
func (e *e2e) waitReceipts(n int) []printeremul.Receipt {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		if len(e.receipts) >= n {
			rs := append([]printeremul.Receipt(nil), e.receipts...)
			e.mu.Unlock()
			return rs
		}
		e.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	e.t.Fatalf("waiting for %d receipts, have %d", n, len(e.receipts))
	return nil
}

func (e *e2e) count(kind journal.Kind, id codes.TicketID) int {
	n := 0
	if err := e.rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == kind && r.Ticket == id {
			n++
		}
		return nil
	}); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func TestRetailDay(t *testing.T) {
	for _, display := range []string{"16x2", "20x4"} {
		t.Run(display, func(t *testing.T) { testRetailDay(t, display) })
	}
}

func testRetailDay(t *testing.T, display string) {
	e := startE2E(t, display)
	tb := e.tb
	e.expect("SCANNEZ UN CODE")

	// Sell a pack; the same pack again is refused.
	pack := codes.PackCode{Block: testBlockNumber, Pack: 2}
	e.do(pack.String())
	if display == "20x4" {
		e.expect("PAQUET 2", "10,00 €")
	} else {
		e.expect("VENTE 10,00 €")
	}
	e.do("!ok")
	e.expect("VENDU 10,00 €")
	rs := e.waitReceipts(1)
	if txt := rs[0].PlainText(); !strings.Contains(txt, "VENTE D'UN PAQUET") || !strings.Contains(txt, "10,00 €") {
		t.Errorf("sale receipt:\n%s", txt)
	}
	if _, sold, _ := e.rig.Journal.Sold(pack.Block, pack.Pack); !sold {
		t.Error("sale not in the journal")
	}
	e.do(pack.String())
	e.expect("DÉJÀ VENDU")

	// A ticket code asks for the code under the latex.
	e.do(codes.TicketCodeOf(codes.TicketID{Block: testBlockNumber, Pack: 2, Position: 1}).String())
	e.expect("GRATTEZ ET", "LE CODE")

	// A 5 € winner is paid: two receipts, drawer, green LED; the second payment is refused.
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	e.do(tb.code(five))
	e.expect("GAGNANT", "5,00 €")
	e.rig.Board.Emulator.Drawer.ResetHistory()
	e.do("!ok")
	e.expect("PAYÉ 5,00 €")
	rs = e.waitReceipts(3)
	for i, copy := range []string{"COPIE JOUEUR", "COPIE COMMERÇANT"} {
		txt := rs[1+i].PlainText()
		for _, want := range []string{copy, "5,00 €", "EMU-0001", five.String(), tb.ledger.Header().Definition.Games[five.Position-1].Name} {
			if !strings.Contains(txt, want) {
				t.Errorf("payout receipt %d lacks %q:\n%s", i, want, txt)
			}
		}
	}
	if len(e.rig.Board.Emulator.Drawer.History()) == 0 {
		t.Error("drawer not opened")
	}
	if !e.rig.Board.Green.IsOn() {
		t.Error("green LED off after a payout")
	}
	e.do(tb.code(five))
	e.expect("DÉJÀ PAYÉ", "02/12 10:00")
	if n := e.count(journal.KindPayout, five); n != 1 {
		t.Errorf("%d payouts of the ticket", n)
	}

	// Inquiry: a 10 € winner, CANCEL: not paid.
	ten := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 10_00 && tk.ID.Pack != 6 })
	e.do(tb.code(ten), "!cancel")
	e.expect("NON PAYÉ")
	if _, paid, _ := e.rig.Journal.Paid(ten); paid {
		t.Error("cancelled payout recorded")
	}

	// Above the 20 € limit: a claim receipt, nothing paid.
	thirty := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 30_00 && tk.ID.Pack != 6 })
	e.do(tb.code(thirty))
	e.expect("30,00 €", "CENTRE")
	rs = e.waitReceipts(4)
	if txt := rs[3].PlainText(); !strings.Contains(txt, "RÉCLAMATION") || !strings.Contains(txt, "30,00 €") {
		t.Errorf("claim receipt:\n%s", txt)
	}
	if _, paid, _ := e.rig.Journal.Paid(thirty); paid || e.count(journal.KindClaim, thirty) != 1 {
		t.Error("claim: paid, or not journalled as a claim")
	}

	// A loser, a void pack's ticket, a mistyped code.
	loser := tb.find(t, func(tk block.Ticket) bool { return tk.Tier == 0 && tk.ID.Pack != 6 })
	e.do(tb.code(loser))
	e.expect("PERDANT")
	void := codes.TicketID{Block: testBlockNumber, Pack: 6, Position: 1}
	e.do(tb.code(void))
	e.expect("PAQUET ANNULÉ")
	typo := []byte(tb.code(loser))
	typo[10] ^= 1
	e.do(string(typo))
	e.expect("CODE INVALIDE")

	// Reprint and report.
	e.do("!reprint")
	e.expect("DUPLICATA")
	rs = e.waitReceipts(5)
	if txt := rs[4].PlainText(); !strings.Contains(txt, "DUPLICATA") || !strings.Contains(txt, "RÉCLAMATION") {
		t.Errorf("duplicate:\n%s", txt)
	}
	if err := e.rig.Hold(context.Background(), board.ContactOK, 300*time.Millisecond); err != nil { // long press: the report
		t.Fatal(err)
	}
	rs = e.waitReceipts(6)
	if txt := rs[5].PlainText(); !strings.Contains(txt, "RAPPORT DU JOUR") || !strings.Contains(txt, "10,00 €") || !strings.Contains(txt, "5,00 €") {
		t.Errorf("report:\n%s", txt)
	}
	// The report closes the day's books with a signed checkpoint of the journal.
	if rep, err := e.rig.Journal.Verify(); err != nil || rep.Checkpoints == 0 || rep.LastSigned != rep.Records {
		t.Errorf("journal after the report: %+v, %v (want a checkpoint at its head)", rep, err)
	}
}

func TestForgedCodesLockValidation(t *testing.T) {
	e := startE2E(t, "20x4")
	tb := e.tb
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	for i := range 5 {
		forged := codes.ValidationCodeOf(five, [codes.SecretSize]byte{byte(i), 0xEE})
		e.do(forged.String())
		if i < 4 {
			e.expect("CODE REFUSÉ")
		}
	}
	e.expect("VALIDATION BLOQUÉE", "REPRISE DANS 1 MIN")
	e.do(tb.code(five))
	e.expect("VALIDATION BLOQUÉE")
	locks := 0
	e.rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindLock {
			locks++
		}
		return nil
	})
	if locks != 1 {
		t.Errorf("%d lock records", locks)
	}
	e.clock.Advance(61 * time.Second)
	e.do(tb.code(five))
	e.expect("GAGNANT")
	e.do("!cancel")
	// The next lock lasts twice as long.
	for i := range 5 {
		e.do(codes.ValidationCodeOf(five, [codes.SecretSize]byte{byte(i), 0xEF}).String())
	}
	e.expect("REPRISE DANS 2 MIN")
}

func TestTamperLocksUntilUnlock(t *testing.T) {
	e := startE2E(t, "16x2")
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	e.do("!tamper")
	e.expect("TERMINAL BLOQUÉ")
	e.do(e.tb.code(five))
	e.expect("VERROUILLÉ", "CARTE TECHNICIEN") // not judged, no guess
	e.do("!unlock")
	e.expect("TERMINAL DÉBLOQUÉ")
	e.do(e.tb.code(five))
	e.expect("GAGNANT")
	if e.count(journal.KindTamper, codes.TicketID{}) != 1 || e.count(journal.KindUnlock, codes.TicketID{}) != 1 {
		t.Error("tamper and unlock not journalled once each")
	}
}

func TestPaperOutDuringPayout(t *testing.T) {
	e := startE2E(t, "20x4")
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	e.do(e.tb.code(five), "!paper-out", "!ok")
	e.expect("PLUS DE PAPIER", "OPÉRATION ENREGISTRÉE")
	if e.count(journal.KindPayout, five) != 1 {
		t.Fatal("payout not recorded before the receipt")
	}
	e.mu.Lock()
	printed := len(e.receipts)
	e.mu.Unlock()
	if printed != 0 {
		t.Errorf("%d receipts printed without paper", printed)
	}
	e.do("!paper-in")
	e.expect("PAYÉ 5,00 €")
	rs := e.waitReceipts(2)
	if !strings.Contains(rs[0].PlainText(), "COPIE JOUEUR") || !strings.Contains(rs[1].PlainText(), "COPIE COMMERÇANT") {
		t.Errorf("receipts after paper came back:\n%s\n%s", rs[0].PlainText(), rs[1].PlainText())
	}
	if e.count(journal.KindPayout, five) != 1 {
		t.Error("payout recorded more than once")
	}
}

func TestFaultsResume(t *testing.T) {
	e := startE2E(t, "16x2")
	e.do("!unplug")
	e.expect("LECTEUR ABSENT")
	e.do("!replug")
	e.expect("SCANNEZ UN CODE")
	e.do("!cover-open")
	e.expect("CAPOT OUVERT")
	e.do("!cover-close")
	e.expect("SCANNEZ UN CODE")
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	e.do(e.tb.code(five), "!offline", "!ok")
	e.expect("IMPRIMANTE OFF", "REÇU EN ATTENTE")
	e.do("!online")
	e.expect("PAYÉ 5,00 €")
	if rs := e.waitReceipts(2); len(rs) != 2 {
		t.Errorf("%d receipts", len(rs))
	}
}

func TestPhotoThroughTheCameraDecoder(t *testing.T) {
	e := startE2E(t, "20x4")
	five := e.tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 && tk.ID.Pack != 6 })
	f, _ := codemap.Format(codes.KindValidation)
	img, err := barcode.Render(f, e.tb.code(five), barcode.RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ticket.png")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := barcode.WritePNG(fh, img); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	e.do("!photo " + path)
	e.expect("GAGNANT", "5,00 €")
	if _, err := e.rig.Do(context.Background(), "!photo "+filepath.Join(t.TempDir(), "none.png")); err == nil {
		t.Error("a missing photo is no error")
	}
}

func TestRefusals(t *testing.T) {
	e := startE2E(t, "16x2")
	other := codes.ValidationCodeOf(codes.TicketID{Block: testBlockNumber + 1, Pack: 0, Position: 1}, [codes.SecretSize]byte{1})
	e.do(other.String())
	e.expect("BLOC INCONNU")
	e.do(codes.PackCode{Block: testBlockNumber + 1, Pack: 0}.String())
	e.expect("BLOC INCONNU", "VENTE REFUSÉE")
	e.do(codes.PackCode{Block: testBlockNumber, Pack: 6}.String())
	e.expect("PAQUET ANNULÉ", "VENTE REFUSÉE")
	e.do("HELLO")
	e.expect("CODE INVALIDE", "LONGUEUR FAUSSE")
	e.do("!reprint")
	e.expect("AUCUN REÇU")
	refused := 0
	e.rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindRefused && r.Reason == "unknown-block" {
			refused++
		}
		return nil
	})
	if refused != 1 {
		t.Errorf("%d unknown-block refusals journalled", refused)
	}
}

func TestDayLimitAndNoLedger(t *testing.T) {
	tb := newTestBlock(t)
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	rig, err := Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true, PerDay: 8_00, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	e := &e2e{t: t, tb: tb, rig: rig, clock: clock}
	var fives []codes.TicketID
	for id, tk := range tb.tickets {
		if tk.Lot == 5_00 && len(fives) < 2 {
			fives = append(fives, id)
		}
	}
	e.do(tb.code(fives[0]), "!ok")
	e.expect("PAYÉ 5,00 €")
	e.do(tb.code(fives[1])) // 5 + 5 > 8 €: a claim, nothing paid
	e.expect("5,00 €", "CENTRE")
	if _, paid, _ := rig.Journal.Paid(fives[1]); paid {
		t.Error("paid above the day's limit")
	}
	// The next day the limit starts again, but a ticket claimed here is paid by the centre
	// only: its claim receipt again, never a payout.
	clock.Advance(24 * time.Hour)
	e.do(tb.code(fives[1]))
	e.expect("CENTRE")
	if _, paid, _ := rig.Journal.Paid(fives[1]); paid {
		t.Error("a claimed ticket paid here")
	}

	bare, err := Start(context.Background(), Options{Dir: t.TempDir(), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	e = &e2e{t: t, tb: tb, rig: bare, clock: clock}
	e.do(tb.code(fives[0]))
	e.expect("PAS DE REGISTRE")
	e.do(codes.PackCode{Block: testBlockNumber, Pack: 1}.String())
	e.expect("PAS DE REGISTRE", "VENTE REFUSÉE")
}

// TestRestartFinishesAnInterruptedPayout: a payout recorded just before a crash (no receipt
// yet, drawer shut) is finished at the next start: both receipts print, the drawer opens,
// and nothing is recorded again.
func TestRestartFinishesAnInterruptedPayout(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	if err := os.MkdirAll(filepath.Join(dir, "journal"), 0o700); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(filepath.Join(dir, "journal"), journal.Options{Terminal: "EMU-0001"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Append(journal.Entry{Kind: journal.KindPayout, Ticket: five, Game: int(five.Position), Amount: 5_00,
		Code: codes.ValidationCodeOf(five, tb.tickets[five].Secret), Receipts: []string{"EMU-0001-000001-J", "EMU-0001-000001-C"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []printeremul.Receipt
	rig, err := Start(context.Background(), Options{Dir: dir, Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true,
		OnReceipt: func(_ int, r printeremul.Receipt) { mu.Lock(); got = append(got, r); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	e := &e2e{t: t, tb: tb, rig: rig}
	e.receipts = nil
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !strings.Contains(got[0].PlainText(), "COPIE JOUEUR") || !strings.Contains(got[1].PlainText(), "5,00 €") {
		t.Fatalf("%d receipts after the restart", len(got))
	}
	for len(rig.Board.Emulator.Drawer.History()) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if len(rig.Board.Emulator.Drawer.History()) < 3 {
		t.Error("drawer not opened for the interrupted payout")
	}
	if n := e.count(journal.KindPayout, five); n != 1 {
		t.Errorf("%d payout records", n)
	}
}
