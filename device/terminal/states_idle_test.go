package terminal_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

func TestStateIdleDispatchesInputs(t *testing.T) {
	r := newRig(t)
	code, _ := winner(t, 5_00)
	pack, _ := packCode(t)
	for _, c := range []struct {
		ev   terminal.Event
		want string
	}{
		{scan(code), "validation"},
		{scan(pack), "sale"},
		{press(terminal.EvReport), "report"},
		{press(terminal.EvReprint), "reprint"},
		{press(terminal.EvReprintMenu), "reprint-menu"},
		{terminal.Event{Kind: terminal.EvReprint, Text: "x"}, "result:nothing-to-reprint"},
		{scan("hello"), "result:invalid"},
	} {
		wantState(t, step(t, r, terminal.IdleState(), c.ev), c.want)
	}
	if !r.Terminal.AtRest() && r.Terminal.StateName() != "idle" {
		t.Errorf("state %s", r.Terminal.StateName())
	}
	if r.Screen.Lines() == nil || r.Green.On() || r.Red.On() {
		t.Errorf("idle: screen %q, green %v, red %v", r.Screen.Lines(), r.Green.On(), r.Red.On())
	}
}

func TestStateIdleTicketCodeIsAHint(t *testing.T) {
	r := newRig(t)
	row, err := blk(t).Find(func(block.Row) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	wantState(t, step(t, r, terminal.IdleState(), scan(row.TicketCode)), "result:ticket")
	if n := len(records(t, r, journal.KindRefused)); n != 0 {
		t.Errorf("%d refusals journalled for a ticket code", n)
	}
}

// A mistyped validation code is refused and journalled (without the code); any other
// text is refused and not journalled.
func TestStateIdleBadValidationCodeIsJournalled(t *testing.T) {
	r := newRig(t)
	code, _ := winner(t, 5_00)
	bad := []byte(code)
	bad[len(bad)-1] ^= 1
	wantState(t, step(t, r, terminal.IdleState(), scan(string(bad))), "result:invalid")
	rs := records(t, r, journal.KindRefused)
	if len(rs) != 1 || rs[0].Reason != decide.Invalid.String() || rs[0].HasCode() {
		t.Fatalf("refusals %+v", rs)
	}
}

func TestStateIdleTamperLocks(t *testing.T) {
	r := newRig(t)
	if got := step(t, r, terminal.IdleState(), press(terminal.EvTamper), press(terminal.EvReport)); got.Name() != "report" {
		t.Fatalf("a tamper event with the case shut: %s", got.Name())
	}
	r.Tamper.Open()
	wantState(t, step(t, r, terminal.IdleState(), press(terminal.EvTamper)), "tamper-locked")
}

func TestStateIdleScannerGoneIsAFault(t *testing.T) {
	r := newRig(t)
	next := step(t, r, terminal.IdleState(), press(terminal.EvScannerBack), press(terminal.EvScannerGone))
	wantState(t, next, "fault")
	if k, _ := terminal.FaultKind(next); k != retail.FaultScanner {
		t.Fatalf("fault %v", k)
	}
	if r.Terminal.ScannerPresent() {
		t.Error("scanner still present")
	}
	// The fault clears once the scanner is back, and resumes idle.
	wantState(t, step(t, r, next, press(terminal.EvScannerBack)), "idle")
}

// At rest, the printer is asked now and then: a fault shows before a sale.
func TestStateIdlePollsThePrinter(t *testing.T) {
	r := newRig(t)
	r.Printer.SetState(escpos.Status{PaperEnd: true}, nil)
	next := stepTimeout(t, r, terminal.IdleState())
	wantState(t, next, "fault")
	if k, _ := terminal.FaultKind(next); k != retail.FaultPaper {
		t.Fatalf("fault %v", k)
	}
	r.Printer.SetState(escpos.Status{}, nil)
	wantState(t, step(t, r, next, press(terminal.EvPrinter)), "idle")
	if h := r.Red.History(); len(h) == 0 || !h[len(h)-1] {
		t.Errorf("red LED %v: not lit on the fault", h)
	}
}

func TestStateIdlePrinterEventOffline(t *testing.T) {
	r := newRig(t)
	r.Printer.SetState(escpos.Status{}, errors.New("no answer"))
	next := step(t, r, terminal.IdleState(), press(terminal.EvPrinter))
	if k, _ := terminal.FaultKind(next); k != retail.FaultOffline {
		t.Fatalf("next %v, fault %v", next.Name(), k)
	}
}

// A panel that can be read back and does not answer is a fault at rest.
func TestStateIdlePollsTheDisplay(t *testing.T) {
	r := newRig(t)
	r.Screen.ReadBack = true
	r.Screen.SetErr(errors.New("busy flag stuck"))
	next := stepTimeout(t, r, terminal.IdleState())
	if k, _ := terminal.FaultKind(next); k != retail.FaultDisplay {
		t.Fatalf("next %v, fault %v", next.Name(), k)
	}
	r.Screen.SetErr(nil)
	wantState(t, stepTimeout(t, r, next), "idle")
	if r.Screen.Inits() == 0 {
		t.Error("the panel was not initialised again")
	}
	if r.Terminal.DisplayHealth() != terminal.DisplayOK {
		t.Errorf("display health %q", r.Terminal.DisplayHealth())
	}
}

func TestStateResultGoesBackToIdle(t *testing.T) {
	r := newRig(t)
	wantState(t, stepTimeout(t, r, terminal.ResultState("x")), "idle")
	wantState(t, step(t, r, terminal.ResultState("x"), press(terminal.EvOK)), "idle")
	wantState(t, step(t, r, terminal.ResultState("x"), press(terminal.EvCancel)), "idle")
	code, _ := winner(t, 5_00)
	wantState(t, step(t, r, terminal.ResultState("x"), scan(code)), "validation")
}

// A fault takes nothing but what may clear it: a scan, OK, a report asked for are
// dropped; it resumes with what it interrupted once the printer answers.
func TestStateFaultIgnoresOtherInputs(t *testing.T) {
	r := newRig(t)
	code, _ := winner(t, 5_00)
	st := terminal.FaultState(retail.FaultCover, terminal.IdleState())
	next := step(t, r, st, scan(code), press(terminal.EvOK), press(terminal.EvReport), press(terminal.EvPrinter))
	wantState(t, next, "idle")
	if got := r.Buzzer.Played(); len(got) > 0 && !samePattern(got[0], gpioio.BeepAttention()) {
		t.Errorf("beep %v", got[0])
	}
	if n := len(records(t, r, journal.KindRefused)) + len(records(t, r, journal.KindReport)); n != 0 {
		t.Errorf("%d records made during a fault", n)
	}
}

// A printer fault that changes kind shows the new one and keeps waiting.
func TestStateFaultFollowsThePrinter(t *testing.T) {
	r := newRig(t)
	r.Printer.SetFault(printer.ErrPaperEnd)
	st := terminal.FaultState(retail.FaultCover, terminal.IdleState())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan terminal.State)
	go func() { done <- r.Terminal.Step(ctx, st) }()
	if err := r.Terminal.Send(ctx, press(terminal.EvPrinter)); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Terminal.Settle(ctx, 0); err != nil {
		t.Fatal(err)
	}
	r.Printer.SetFault(nil)
	if err := r.Terminal.Send(ctx, press(terminal.EvPrinter)); err != nil {
		t.Fatal(err)
	}
	wantState(t, <-done, "idle")
}

func samePattern(a, b gpioio.Pattern) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A terminal that was never given what it needs (Config.Missing, decided by the daemon)
// names it at rest instead of SCANNEZ UN CODE, on both panels and in both languages, and
// again when a result screen goes back to rest; refused data and a journal fault still
// come first, and with nothing missing the idle screen is the usual one.
func TestStateIdleSaysWhatIsMissing(t *testing.T) {
	miss := retail.MissingLedger | retail.MissingStatus
	for _, c := range []struct {
		lang string
		geo  display.Geometry
		want string
	}{
		{"fr", display.Geometry{Cols: 20, Rows: 4}, "À INSTALLER :|REGISTRE,|LISTE DES PAQUETS"},
		{"fr", display.Geometry{Cols: 16, Rows: 2}, "MANQUE :|REGISTRE, LISTE"},
		{"en", display.Geometry{Cols: 20, Rows: 4}, "TO INSTALL:|LEDGER,|PACK STATUS LIST|CALL A TECHNICIAN"},
		{"en", display.Geometry{Cols: 16, Rows: 2}, "MISSING: LEDGER,|PACK LIST"},
	} {
		r := terminaltest.New(t, terminaltest.Options{Geometry: c.geo, Config: terminal.Config{Missing: miss, Language: c.lang}})
		wantState(t, step(t, r, terminal.IdleState(), press(terminal.EvReport)), "report")
		if got := strings.TrimRight(strings.Join(r.Screen.Lines(), "|"), "|"); got != c.want {
			t.Errorf("%s %dx%d at rest: %q, want %q", c.lang, c.geo.Cols, c.geo.Rows, got, c.want)
		}
	}

	r := terminaltest.New(t, terminaltest.Options{Config: terminal.Config{Missing: miss}})
	text, pack := packCode(t)
	wantState(t, step(t, r, terminal.IdleState(), scan(text)), "sale")
	wantState(t, step(t, r, terminal.SaleState(pack)), "result:sale-refused") // sales follow the data, not the screen
	wantState(t, stepTimeout(t, r, terminal.ResultState("sale-refused")), "idle")
	wantState(t, step(t, r, terminal.IdleState(), press(terminal.EvReport)), "report")
	if got := strings.Join(r.Screen.Lines(), "|"); !strings.HasPrefix(got, "À INSTALLER :") {
		t.Errorf("back at rest: %q", got)
	}

	for _, c := range []struct {
		cfg  terminal.Config
		want string
	}{
		{terminal.Config{Missing: miss, DataRefused: true}, "DONNÉES REFUSÉES"},
		{terminal.Config{}, "SCANNEZ UN CODE"},
	} {
		r := newRig(t, func(o *terminaltest.Options) { o.Config = c.cfg })
		wantState(t, step(t, r, terminal.IdleState(), press(terminal.EvReport)), "report")
		if got := strings.Join(r.Screen.Lines(), "|"); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v at rest: %q, want %q", c.cfg, got, c.want)
		}
	}
}
