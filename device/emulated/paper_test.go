package emulated

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/printer/spooltest"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// paperRig is a rig on dir with its receipts collected.
type paperRig struct {
	*e2e
	mu  *sync.Mutex
	got *[]printeremul.Receipt
}

func startPaper(t *testing.T, tb *testBlock, o Options) *paperRig {
	t.Helper()
	var mu sync.Mutex
	var got []printeremul.Receipt
	o.AllDelivered = true
	if o.PerTicket == 0 {
		o.PerTicket = 20_00
	}
	o.OnReceipt = func(_ int, r printeremul.Receipt) { mu.Lock(); got = append(got, r); mu.Unlock() }
	return &paperRig{e2e: rigOn(t, tb, o), mu: &mu, got: &got}
}

func (p *paperRig) printed() []printeremul.Receipt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]printeremul.Receipt(nil), (*p.got)...)
}

// waitPrinted waits for n receipts in all.
func (p *paperRig) waitPrinted(n int) []printeremul.Receipt {
	p.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if rs := p.printed(); len(rs) >= n {
			return rs
		}
	}
	p.t.Fatalf("waiting for %d receipts, have %d", n, len(p.printed()))
	return nil
}

// poll is the fault state's retry, at once (it is every 2 s otherwise).
func (p *paperRig) poll() {
	p.t.Helper()
	n := p.rig.Terminal.Received()
	ctx, cancel := context.WithTimeout(context.Background(), SettleTimeout)
	defer cancel()
	if err := p.rig.Terminal.Send(ctx, terminal.Event{Kind: terminal.EvPrinter}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.rig.Terminal.Settle(ctx, n); err != nil {
		p.t.Fatal(err)
	}
}

// payBlocked checks a payout that cannot keep its receipts: the storage fault (red LED),
// no drawer, no payout recorded, nothing printed; then the storage is back (clear) and
// the fault ends on its own: the winner is offered again, OK pays, two receipts, drawer.
func payBlocked(t *testing.T, p *paperRig, winner codes.TicketID, clear func()) {
	t.Helper()
	before := len(p.printed())
	p.rig.Board.Emulator.Drawer.ResetHistory()
	p.do("!ok")
	p.expect("MÉMOIRE")
	if !p.rig.Board.Red.IsOn() {
		t.Error("red LED off on a storage fault")
	}
	if _, paid, _ := p.rig.Journal.Paid(winner); paid {
		t.Fatal("payout recorded while its receipts cannot be kept")
	}
	if len(p.rig.Board.Emulator.Drawer.History()) != 0 {
		t.Fatal("drawer opened while the receipts cannot be kept")
	}
	p.poll() // still failing: still the fault
	p.expect("MÉMOIRE")
	if len(p.printed()) != before {
		t.Fatal("printed during the fault")
	}
	clear()
	p.poll()
	p.expect("GAGNANT")
	p.do("!ok")
	p.expect("PAYÉ", "IMPRIMÉS")
	rs := p.waitPrinted(before + 2)
	if !strings.Contains(rs[before].PlainText(), "GAGNANT - PAIEMENT") {
		t.Errorf("receipt after the fault:\n%s", rs[before].PlainText())
	}
	if _, paid, _ := p.rig.Journal.Paid(winner); !paid {
		t.Fatal("not paid once the storage is back")
	}
	for deadline := time.Now().Add(5 * time.Second); len(p.rig.Board.Emulator.Drawer.History()) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if len(p.rig.Board.Emulator.Drawer.History()) == 0 {
		t.Error("drawer not opened after the payout")
	}
}

// TestPayoutSpoolFault (issue 31, item 1): with a spool that is full or read-only (a
// filesystem failing on demand: runs everywhere), a payout is not recorded, the drawer stays
// shut and the screen says MÉMOIRE EN DÉFAUT, not PAYÉ / REÇUS IMPRIMÉS; a reprint and a
// sale are refused the same way; once the spool takes writes again the running terminal
// resumes without a restart. Before: the payout was committed, the spool's error logged,
// the drawer opened and nothing ever printed.
func TestPayoutSpoolFault(t *testing.T) {
	tb := newTestBlock(t)
	for _, tc := range []struct {
		name string
		set  func(*spooltest.FaultFS, bool)
	}{{"full", (*spooltest.FaultFS).SetFull}, {"read-only", (*spooltest.FaultFS).SetReadOnly}} {
		t.Run(tc.name, func(t *testing.T) {
			fs := &spooltest.FaultFS{}
			p := startPaper(t, tb, Options{Dir: t.TempDir(), SpoolFS: fs})
			defer p.rig.Close()
			winner := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
			p.do(tb.code(winner))
			p.expect("GAGNANT")
			tc.set(fs, true)
			payBlocked(t, p, winner, func() { tc.set(fs, false) })

			tc.set(fs, true)
			p.do("!reprint")
			p.expect("MÉMOIRE")
			tc.set(fs, false)
			p.poll()
			p.expect("SCANNEZ UN CODE")
			p.do(codes.PackCode{Block: testBlockNumber, Pack: 3}.String())
			tc.set(fs, true)
			p.do("!ok")
			p.expect("MÉMOIRE")
			if _, sold, _ := p.rig.Journal.Sold(testBlockNumber, 3); sold {
				t.Error("sale recorded while its receipt cannot be kept")
			}
			tc.set(fs, false)
			p.poll()
			p.expect("PAQUET 3", "10,00 €")
		})
	}
}

// TestPayoutCommittedNotQueued: the window between the payout's commit and its receipts'
// queuing (a rename that fails): the screen says the operation is recorded and the receipt
// waits, the drawer stays shut; a restart then (a crash) prints the payout's two receipts
// and opens the drawer.
func TestPayoutCommittedNotQueued(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	fs := &spooltest.FaultFS{}
	p := startPaper(t, tb, Options{Dir: dir, SpoolFS: fs})
	winner := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	p.do(tb.code(winner))
	fs.SetRenameFails(true)
	p.rig.Board.Emulator.Drawer.ResetHistory()
	p.do("!ok")
	p.expect("MÉMOIRE", "REÇU EN ATTENTE")
	if _, paid, _ := p.rig.Journal.Paid(winner); !paid {
		t.Fatal("payout not recorded")
	}
	if len(p.rig.Board.Emulator.Drawer.History()) != 0 || len(p.printed()) != 0 {
		t.Fatal("drawer opened or receipt printed before the receipts were queued")
	}
	if err := p.rig.Close(); err != nil {
		t.Fatal(err)
	}
	p = startPaper(t, tb, Options{Dir: dir})
	defer p.rig.Close()
	rs := p.waitPrinted(2)
	if !strings.Contains(rs[0].PlainText(), "COPIE JOUEUR") || !strings.Contains(rs[1].PlainText(), "COPIE COMMERÇANT") {
		t.Errorf("receipts after the restart:\n%s\n%s", rs[0].PlainText(), rs[1].PlainText())
	}
	if n := countKind(t, p.rig.Journal, journal.KindPayout); n != 1 {
		t.Errorf("%d payouts", n)
	}
}

func countKind(t *testing.T, j *journal.Journal, k journal.Kind) int {
	t.Helper()
	n := 0
	if err := j.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == k {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// mountTmpfs mounts a tmpfs of size at dir (root only: skipped otherwise).
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): needs root (CI runs as root); TestPayoutSpoolFault covers the same on an injected filesystem", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Error(err)
		}
	})
}

// fill writes a ballast file on dir's filesystem until it is full; it returns its path.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "ballast")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for { // the last blocks, a byte at a time
		if _, err := f.Write(buf[:512]); err != nil {
			break
		}
	}
	return path
}

// TestPayoutOnFullTmpfs (issue 31, item 1, on a real full filesystem): the terminal's data
// on a small tmpfs filled to the last byte; a payout is refused with the storage fault,
// nothing recorded or paid; the ballast removed, the same running terminal pays.
func TestPayoutOnFullTmpfs(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	mountTmpfs(t, dir, "16m")
	p := startPaper(t, tb, Options{Dir: dir})
	defer p.rig.Close()
	winner := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	p.do(tb.code(winner))
	p.expect("GAGNANT")
	ballast := fill(t, dir)
	payBlocked(t, p, winner, func() {
		if err := os.Remove(ballast); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPayoutOnReadOnlySpool (issue 31, item 1): the spool directory bind-mounted read-only
// (chmod stops no root): a payout is refused with the storage fault; remounted writable, the
// running terminal pays.
func TestPayoutOnReadOnlySpool(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	spool := filepath.Join(dir, "spool")
	if err := os.MkdirAll(spool, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount(spool, spool, "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount (%v): needs root (CI runs as root); TestPayoutSpoolFault covers the same on an injected filesystem", err)
	}
	defer syscall.Unmount(spool, syscall.MNT_DETACH)
	p := startPaper(t, tb, Options{Dir: dir})
	defer p.rig.Close()
	winner := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	p.do(tb.code(winner))
	p.expect("GAGNANT")
	remount := func(flags uintptr) {
		if err := syscall.Mount("", spool, "", syscall.MS_REMOUNT|syscall.MS_BIND|flags, ""); err != nil {
			t.Skipf("cannot remount read-only: %v", err)
		}
	}
	remount(syscall.MS_RDONLY)
	payBlocked(t, p, winner, func() { remount(0) })
}

// TestClaimOnce (issue 31, item 3): a ticket above the limit scanned three times is claimed
// once: one claim record, its claim receipt, then the same receipt twice as DUPLICATA
// (journalled as reprints); the day's report counts one claim, its amount once. Before:
// three claims, three claim receipts, the report said 3 claims for one ticket.
func TestClaimOnce(t *testing.T) {
	tb := newTestBlock(t)
	p := startPaper(t, tb, Options{Dir: t.TempDir()})
	defer p.rig.Close()
	big := tb.find(t, func(tk block.Ticket) bool { return tk.Lot > 20_00 })
	amount := tb.tickets[big].Lot
	p.do(tb.code(big))
	p.expect("CENTRE")
	p.do(tb.code(big))
	p.expect("DÉJÀ RÉCLAMÉ")
	p.do(tb.code(big))
	p.expect("DÉJÀ RÉCLAMÉ")
	rs := p.waitPrinted(3)
	if strings.Contains(rs[0].PlainText(), "DUPLICATA") || !strings.Contains(rs[0].PlainText(), "RÉCLAMATION") {
		t.Errorf("first claim receipt:\n%s", rs[0].PlainText())
	}
	for _, r := range rs[1:3] {
		if !strings.Contains(r.PlainText(), "DUPLICATA") || !strings.Contains(r.PlainText(), "RÉCLAMATION") {
			t.Errorf("rescan's receipt:\n%s", r.PlainText())
		}
	}
	if n := countKind(t, p.rig.Journal, journal.KindClaim); n != 1 {
		t.Errorf("%d claim records for one ticket", n)
	}
	if n := countKind(t, p.rig.Journal, journal.KindReprint); n != 2 {
		t.Errorf("%d reprint records, want 2", n)
	}
	p.do("!report")
	rep := p.waitPrinted(4)[3].PlainText()
	want := "Réclamations : 1"
	if !strings.Contains(rep, want) || strings.Count(rep, moneyText(int64(amount))) != 1 {
		t.Errorf("report lacks %q, or counts %s other than once:\n%s", want, moneyText(int64(amount)), rep)
	}
}

// TestReprintAnyReceipt (issue 31, item 2): any receipt of the journal is printed again
// by its journal number, marked DUPLICATA, and the reprint is journalled: "!reprint N" in
// the emulator's language (both copies of a payout), after a restart too; on the board's
// buttons, CANCEL held at rest shows the last receipt's number, CANCEL goes back one, OK
// prints it. Before: only the last receipt could be reprinted.
func TestReprintAnyReceipt(t *testing.T) {
	tb := newTestBlock(t)
	dir := t.TempDir()
	p := startPaper(t, tb, Options{Dir: dir, LongPress: 200 * time.Millisecond})
	five := tb.find(t, func(tk block.Ticket) bool { return tk.Lot == 5_00 })
	p.do(tb.code(five), "!ok")
	p.expect("PAYÉ 5,00 €")
	first, _ := p.rig.Journal.Head()
	p.do(codes.PackCode{Block: testBlockNumber, Pack: 2}.String(), "!ok")
	p.expect("VENDU")
	p.waitPrinted(3)

	p.do("!reprint " + itoa(first))
	p.expect("DUPLICATA")
	rs := p.waitPrinted(5)
	for i, copy := range []string{"COPIE JOUEUR", "COPIE COMMERÇANT"} {
		txt := rs[3+i].PlainText()
		if !strings.Contains(txt, "DUPLICATA") || !strings.Contains(txt, copy) || !strings.Contains(txt, "5,00 €") {
			t.Errorf("duplicate %d of record %d:\n%s", i, first, txt)
		}
	}
	last, ok := p.rig.Journal.Last()
	if !ok || last.Kind != journal.KindReprint || !strings.Contains(last.Detail, "-J") || len(last.Receipts) != 2 {
		t.Errorf("reprint not journalled: %+v", last)
	}
	p.do("!reprint 999")
	p.expect("AUCUN REÇU")
	if err := p.rig.Close(); err != nil {
		t.Fatal(err)
	}

	p = startPaper(t, tb, Options{Dir: dir, LongPress: 200 * time.Millisecond})
	defer p.rig.Close()
	p.do("!reprint " + itoa(first))
	rs = p.waitPrinted(2)
	if !strings.Contains(rs[0].PlainText(), "DUPLICATA") || !strings.Contains(rs[0].PlainText(), "COPIE JOUEUR") {
		t.Errorf("duplicate after a restart:\n%s", rs[0].PlainText())
	}

	// The board: CANCEL held shows the last receipt (the sale), CANCEL the payout, OK.
	ctx, cancel := context.WithTimeout(context.Background(), SettleTimeout)
	defer cancel()
	if err := p.rig.Hold(ctx, board.ContactCancel, 400*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	p.expect("REÇU N° " + itoa(first+1))
	p.do("!cancel")
	p.expect("REÇU N° " + itoa(first))
	p.do("!ok")
	p.expect("DUPLICATA")
	rs = p.waitPrinted(4)
	if !strings.Contains(rs[2].PlainText(), "DUPLICATA") || !strings.Contains(rs[2].PlainText(), "5,00 €") {
		t.Errorf("duplicate from the buttons:\n%s", rs[2].PlainText())
	}
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func moneyText(c int64) string { return retail.Plain(retail.Money(c)) }
