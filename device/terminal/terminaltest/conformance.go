package terminaltest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/display"
	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
)

// The conformance suites: one function per part interface of the terminal, run against
// the fake of this package and against the real driver over its emulator (in
// conformance_test.go). A fake that passes behaves, as far as the state machine can
// tell, as the driver does; a driver change that breaks the contract fails beside it.

// Panel is a display under test and what a person reads on it.
type Panel struct {
	Screen display.Screen
	// Lines is what the panel shows, one string per row (trailing spaces do not count).
	Lines func() []string
	// Backlight is the backlight's state.
	Backlight func() bool
}

// ScreenConformance checks display.Screen's contract on a panel of geometry geo: whole
// rows shown, missing rows blank, long rows cut at the last column, the terminal's
// French characters shown as given, the backlight switched.
func ScreenConformance(t *testing.T, geo display.Geometry, open func(t *testing.T) Panel) {
	t.Helper()
	p := open(t)
	if p.Screen.Cols() != geo.Cols || p.Screen.Rows() != geo.Rows {
		t.Fatalf("geometry %dx%d, want %dx%d", p.Screen.Cols(), p.Screen.Rows(), geo.Cols, geo.Rows)
	}
	want := func(what string, rows ...string) {
		t.Helper()
		got := p.Lines()
		if len(got) != geo.Rows {
			t.Fatalf("%s: %d rows shown, want %d", what, len(got), geo.Rows)
		}
		for i := range geo.Rows {
			w := ""
			if i < len(rows) {
				w = rows[i]
			}
			if g := strings.TrimRight(got[i], " "); g != w {
				t.Errorf("%s: row %d = %q, want %q", what, i, g, w)
			}
		}
	}
	show := func(lines ...string) {
		t.Helper()
		if err := p.Screen.Show(lines...); err != nil {
			t.Fatalf("Show(%q): %v", lines, err)
		}
	}
	show("SCANNEZ UN CODE")
	want("one row", "SCANNEZ UN CODE")
	rows := make([]string, geo.Rows)
	for i := range rows {
		rows[i] = strings.Repeat(string(rune('A'+i)), geo.Cols)
	}
	show(rows...)
	want("full screen", rows...)
	show("GAGNANT", "5,00 €")
	want("a shorter screen blanks the rest", "GAGNANT", "5,00 €")
	long := strings.Repeat("0123456789", 3)
	show(long)
	want("a long row is cut", long[:geo.Cols])
	show("PAYÉ 1 250,00 €", "RÉCLAMATION À FAIRE")
	want("French text", "PAYÉ 1 250,00 €", string([]rune("RÉCLAMATION À FAIRE")[:min(geo.Cols, 19)]))
	show()
	want("nothing")
	for _, on := range []bool{true, false, true} {
		if err := p.Screen.SetBacklight(on); err != nil {
			t.Fatal(err)
		}
		if p.Backlight() != on {
			t.Errorf("backlight %v after SetBacklight(%v)", p.Backlight(), on)
		}
	}
}

// PrinterUnderTest is a printer under test and what comes out of it.
type PrinterUnderTest struct {
	Printer terminal.Printer
	// Printed is the text of each receipt printed so far, in order.
	Printed func() []string
	// PaperOut takes the paper away (true) or loads a new roll (false).
	PaperOut func(bool)
}

// PrinterConformance checks terminal.Printer's contract: staged receipts print only once
// committed, in order, once; discarded ones never; a fault keeps them in the spool
// (a *printer.FaultError of the fault's kind) until it clears; Status says the fault.
func PrinterConformance(t *testing.T, open func(t *testing.T) PrinterUnderTest) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := open(t)
	receipt := func(id string) printer.Receipt {
		return printer.Receipt{ID: id, Items: []printer.Item{printer.Text{Text: "RECU " + id}, printer.Pair{Left: "Montant", Right: "5,00 €"}}}
	}
	printedIDs := func() []string {
		var ids []string
		for _, txt := range p.Printed() {
			for _, id := range []string{"T-1", "T-2", "T-3", "T-4"} {
				if strings.Contains(txt, "RECU "+id) {
					ids = append(ids, id)
				}
			}
		}
		return ids
	}
	wantPrinted := func(what string, ids ...string) {
		t.Helper()
		if got := printedIDs(); strings.Join(got, " ") != strings.Join(ids, " ") {
			t.Errorf("%s: printed %q, want %q", what, got, ids)
		}
	}
	if st, err := p.Printer.Status(ctx); err != nil || !st.Ready() {
		t.Fatalf("status at start %v, %v", st, err)
	}
	if err := p.Printer.CheckSpool(); err != nil {
		t.Fatalf("CheckSpool: %v", err)
	}
	st, err := p.Printer.Stage(receipt("T-1"), receipt("T-2"))
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := p.Printer.Pending(); len(q) != 0 {
		t.Errorf("%d receipts queued before the commit", len(q))
	}
	if _, err := p.Printer.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	wantPrinted("staged, not committed")
	if _, err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	if q, _ := p.Printer.Pending(); len(q) != 2 || q[0].ID != "T-1" || q[1].ID != "T-2" {
		t.Errorf("queued %+v", q)
	}
	if n, err := p.Printer.Flush(ctx); err != nil || n != 2 {
		t.Fatalf("Flush = %d, %v", n, err)
	}
	wantPrinted("committed", "T-1", "T-2")
	if n, err := p.Printer.Flush(ctx); err != nil || n != 0 {
		t.Errorf("Flush again = %d, %v", n, err)
	}
	st, err = p.Printer.Stage(receipt("T-3"))
	if err != nil {
		t.Fatal(err)
	}
	st.Discard()
	p.PaperOut(true)
	if s, err := p.Printer.Status(ctx); err != nil || !(s.PaperEnd || s.PaperStop) {
		t.Errorf("status without paper %v, %v", s, err)
	}
	st, err = p.Printer.Stage(receipt("T-4"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	_, err = p.Printer.Flush(ctx)
	var fe *printer.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, printer.ErrPaperEnd) || fe.Pending != 1 {
		t.Fatalf("Flush without paper = %v", err)
	}
	wantPrinted("paper out", "T-1", "T-2")
	p.PaperOut(false)
	if _, err := p.Printer.Flush(ctx); err != nil {
		t.Fatalf("Flush after new paper: %v", err)
	}
	wantPrinted("paper back", "T-1", "T-2", "T-4")
	if q, _ := p.Printer.Pending(); len(q) != 0 {
		t.Errorf("%d receipts left", len(q))
	}
}

// ScannerUnderTest is a scanner under test and the code reader's side of it.
type ScannerUnderTest struct {
	Source terminal.ScanSource
	// Read makes the scanner read text (a code under its window).
	Read func(ctx context.Context, text string) error
}

// ScannerConformance checks terminal.ScanSource's contract: a connected scanner says so
// first, each code read is one EventScan with the text, and Run ends when ctx ends.
func ScannerConformance(t *testing.T, open func(t *testing.T) ScannerUnderTest) {
	t.Helper()
	s := open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	run, stop := context.WithCancel(ctx)
	out := make(chan scanner.Event, 8)
	done := make(chan error, 1)
	go func() { done <- s.Source.Run(run, out) }()
	next := func() scanner.Event {
		t.Helper()
		select {
		case ev := <-out:
			return ev
		case <-ctx.Done():
			t.Fatal("no event")
			return scanner.Event{}
		}
	}
	if ev := next(); ev.Kind != scanner.EventConnected {
		t.Fatalf("first event %+v, want connected", ev)
	}
	for _, code := range []string{"PACK-0001", "0123456789ABCDEF"} {
		if err := s.Read(ctx, code); err != nil {
			t.Fatal(err)
		}
		if ev := next(); ev.Kind != scanner.EventScan || ev.Scan.Text != code {
			t.Errorf("event %+v, want a scan of %q", ev, code)
		}
	}
	stop()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v after ctx ended", err)
		}
	case <-ctx.Done():
		t.Fatal("Run did not end with its ctx")
	}
}

// Lamp is an LED under test and whether it is lit.
type Lamp struct {
	LED terminal.LED
	Lit func() bool
}

// LEDConformance checks terminal.LED: Set lights and puts out, repeatably.
func LEDConformance(t *testing.T, open func(t *testing.T) Lamp) {
	t.Helper()
	l := open(t)
	for _, on := range []bool{true, true, false, true, false} {
		if err := l.LED.Set(on); err != nil {
			t.Fatal(err)
		}
		if l.Lit() != on {
			t.Errorf("lit %v after Set(%v)", l.Lit(), on)
		}
	}
}

// DrawerUnderTest is a drawer under test and how many times it was kicked.
type DrawerUnderTest struct {
	Drawer terminal.Drawer
	Kicks  func() int
}

// DrawerConformance checks terminal.Drawer: each Open kicks once; an Open whose ctx has
// ended fails and kicks nothing.
func DrawerConformance(t *testing.T, open func(t *testing.T) DrawerUnderTest) {
	t.Helper()
	d := open(t)
	for i := 1; i <= 2; i++ {
		if err := d.Drawer.Open(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d.Kicks() != i {
			t.Errorf("%d kicks after %d opens", d.Kicks(), i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Drawer.Open(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Open with an ended ctx = %v", err)
	}
	if d.Kicks() != 2 {
		t.Errorf("an Open with an ended ctx kicked the drawer")
	}
}

// BuzzerUnderTest is a buzzer under test and the beeps it sounded.
type BuzzerUnderTest struct {
	Buzzer terminal.Buzzer
	Beeps  func() int
}

// BuzzerConformance checks terminal.Buzzer: Play sounds every beep of the pattern and
// returns when done.
func BuzzerConformance(t *testing.T, open func(t *testing.T) BuzzerUnderTest) {
	t.Helper()
	b := open(t)
	want := 0
	for _, p := range []gpioio.Pattern{gpioio.BeepOK(), gpioio.BeepRefused(), gpioio.BeepAttention()} {
		if err := b.Buzzer.Play(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		want += len(p)
		if b.Beeps() != want {
			t.Errorf("%d beeps, want %d", b.Beeps(), want)
		}
	}
}

// CaseUnderTest is a tamper switch under test and the case it watches.
type CaseUnderTest struct {
	Switch terminal.TamperSwitch
	// Open opens (true) or closes the case; it returns once the switch has seen it.
	Open func(bool)
}

// TamperConformance checks terminal.TamperSwitch: an opening trips the latch, which
// holds once the case is shut until Reset; Reset with the case open keeps it tripped.
func TamperConformance(t *testing.T, open func(t *testing.T) CaseUnderTest) {
	t.Helper()
	c := open(t)
	if st := c.Switch.State(); st.Tripped || st.Open {
		t.Fatalf("at start %+v", st)
	}
	c.Open(true)
	if st := c.Switch.State(); !st.Tripped || !st.Open {
		t.Errorf("case open: %+v", st)
	}
	c.Switch.Reset()
	if st := c.Switch.State(); !st.Tripped {
		t.Errorf("reset with the case open: %+v", st)
	}
	c.Open(false)
	if st := c.Switch.State(); !st.Tripped || st.Open {
		t.Errorf("case shut again: %+v", st)
	}
	c.Switch.Reset()
	if st := c.Switch.State(); st.Tripped || st.Open {
		t.Errorf("reset with the case shut: %+v", st)
	}
}
