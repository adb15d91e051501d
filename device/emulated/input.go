package emulated

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/codemap"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/validate/codes"
)

// Action is one input of the emulator's line language.
type Action int

// Actions. A line that does not start with "!" is scanned.
const (
	ActScan          Action = iota + 1 // TEXT
	ActOK                              // !ok
	ActCancel                          // !cancel
	ActPaperOut                        // !paper-out
	ActPaperIn                         // !paper-in
	ActCoverOpen                       // !cover-open
	ActCoverClose                      // !cover-close
	ActOffline                         // !offline
	ActOnline                          // !online
	ActTamper                          // !tamper: the case is opened and closed again
	ActUnlock                          // !unlock [TOKEN]
	ActReport                          // !report
	ActReprint                         // !reprint [N]: the last receipt, or those of journal record N
	ActPhoto                           // !photo FILE.png
	ActUnplug                          // !unplug: the scanner's cable is pulled
	ActReplug                          // !replug
	ActExpect                          // !expect TEXT: the display shows TEXT (a script's check)
	ActExpectReceipt                   // !expect-receipt TEXT: the last receipt cut holds TEXT
)

var commands = map[string]Action{
	"ok": ActOK, "cancel": ActCancel, "paper-out": ActPaperOut, "paper-in": ActPaperIn,
	"cover-open": ActCoverOpen, "cover-close": ActCoverClose, "offline": ActOffline, "online": ActOnline,
	"tamper": ActTamper, "unlock": ActUnlock, "report": ActReport, "reprint": ActReprint, "photo": ActPhoto,
	"unplug": ActUnplug, "replug": ActReplug, "expect": ActExpect, "expect-receipt": ActExpectReceipt,
}

// takesArg are the commands that take an argument; every other one refuses any.
var takesArg = map[Action]bool{ActUnlock: true, ActPhoto: true, ActExpect: true, ActExpectReceipt: true, ActReprint: true}

// clipArg is an argument as an error quotes it: at most 32 bytes.
func clipArg(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// Input is one parsed line.
type Input struct {
	Action Action
	Arg    string // scanned text, photo file, unlock token
}

// Parse reads one line of the language: a code to scan, or a "!" command. Blank lines and
// lines starting with "#" are no input (ok false).
func Parse(line string) (in Input, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return Input{}, false, nil
	}
	if !strings.HasPrefix(line, "!") {
		return Input{Action: ActScan, Arg: line}, true, nil
	}
	name, arg, _ := strings.Cut(line[1:], " ")
	a, known := commands[strings.ToLower(name)]
	if !known {
		return Input{}, false, fmt.Errorf("emulated: unknown command %q (ok, cancel, paper-out, paper-in, cover-open, cover-close, offline, online, tamper, unlock, report, reprint [N], photo FILE, unplug, replug, expect TEXT, expect-receipt TEXT)", "!"+name)
	}
	arg = strings.TrimSpace(arg)
	if arg != "" && !takesArg[a] {
		return Input{}, false, fmt.Errorf("emulated: !%s takes no argument (%q): nothing done", strings.ToLower(name), clipArg(arg))
	}
	if a == ActPhoto && arg == "" {
		return Input{}, false, fmt.Errorf("emulated: !photo needs an image file")
	}
	if a == ActReprint && arg != "" {
		if n, err := strconv.ParseUint(arg, 10, 64); err != nil || n == 0 {
			return Input{}, false, fmt.Errorf("emulated: !reprint takes a journal number (1, 2, …), not %.20q", arg)
		}
	}
	if (a == ActExpect || a == ActExpectReceipt) && arg == "" {
		return Input{}, false, fmt.Errorf("emulated: !%s needs the text to look for", name)
	}
	return Input{Action: a, Arg: arg}, true, nil
}

// SettleTimeout bounds the wait for the terminal to take an input.
const SettleTimeout = 15 * time.Second

// Do parses and applies one line, then waits until the terminal has taken it and waits for
// the next input. ok is false for a line that is no input.
func (r *Rig) Do(ctx context.Context, line string) (ok bool, err error) {
	line, err = r.resolve(line)
	if err != nil {
		return false, err
	}
	in, ok, err := Parse(line)
	if err != nil || !ok {
		return false, err
	}
	return true, r.Apply(ctx, in)
}

// Apply performs in and waits for the terminal to settle. On a virtual clock (Options.Step)
// the clock moves first, and the receipts cut are reported once the terminal settled.
func (r *Rig) Apply(ctx context.Context, in Input) error {
	if in.Action == ActExpect || in.Action == ActExpectReceipt {
		return r.expect(in)
	}
	ctx, cancel := context.WithTimeout(ctx, SettleTimeout)
	defer cancel()
	if err := r.step(ctx); err != nil {
		return err
	}
	if err := r.input(ctx, in); err != nil {
		return err
	}
	if r.fake != nil { // a reproducible run: this input's receipts come after its screens
		return r.reportReceipts()
	}
	return nil
}

// input performs in and waits for the terminal to settle.
func (r *Rig) input(ctx context.Context, in Input) error {
	n := r.Terminal.Received()
	switch in.Action {
	case ActScan:
		if err := r.Scan(ctx, in.Arg); err != nil {
			return err
		}
	case ActOK:
		return r.Press(ctx, board.ContactOK)
	case ActCancel:
		return r.Press(ctx, board.ContactCancel)
	case ActTamper:
		r.Board.Emulator.Set(board.ContactTamper, true)
		if _, err := r.Terminal.Settle(ctx, n); err != nil {
			return err
		}
		n = r.Terminal.Received()
		r.Board.Emulator.Set(board.ContactTamper, false) // one more edge: one more input
		_, err := r.Terminal.Settle(ctx, n)
		return err
	case ActPaperOut, ActPaperIn, ActCoverOpen, ActCoverClose, ActOffline, ActOnline:
		r.printerChange(in.Action)
		if err := r.Terminal.Send(ctx, terminal.Event{Kind: terminal.EvPrinter}); err != nil {
			return err
		}
	case ActUnlock:
		if err := r.Terminal.Send(ctx, terminal.Event{Kind: terminal.EvUnlock, Text: in.Arg}); err != nil {
			return err
		}
	case ActReport, ActReprint:
		k := terminal.EvReport
		if in.Action == ActReprint {
			k = terminal.EvReprint
		}
		if err := r.Terminal.Send(ctx, terminal.Event{Kind: k, Text: in.Arg}); err != nil {
			return err
		}
	case ActPhoto:
		if err := r.Photo(ctx, in.Arg); err != nil {
			return err
		}
	case ActUnplug:
		r.Scanner.Unplug()
	case ActReplug:
		if err := r.Scanner.Replug(); err != nil {
			return err
		}
	}
	_, err := r.Terminal.Settle(ctx, n)
	return err
}

func (r *Rig) printerChange(a Action) {
	switch a {
	case ActPaperOut:
		r.Printer.PaperOut()
	case ActPaperIn:
		r.Printer.LoadPaper()
	case ActCoverOpen:
		r.Printer.SetCoverOpen(true)
	case ActCoverClose:
		r.Printer.SetCoverOpen(false)
	case ActOffline:
		r.Printer.SetOffline(true)
	case ActOnline:
		r.Printer.SetOffline(false)
	}
}

// ScanMaxLen is the longest line the rig's scanner driver takes (AIM identifier
// included); it drops longer ones, as a board's does.
const ScanMaxLen = 512

// ErrNotScannable is the error of a text no scanner sends: control bytes, invalid UTF-8,
// or longer than ScanMaxLen. The scanner driver would drop it unseen, and the input would
// wait SettleTimeout for a scan that never comes: it is refused at once instead.
var ErrNotScannable = errors.New("no scanner sends this")

// Scan sends text through the emulated scanner with the symbology its kind is printed in
// (one the text is none of our codes: Code 128, as a stray label would be). A text no
// scanner sends is refused at once (ErrNotScannable).
func (r *Rig) Scan(ctx context.Context, text string) error {
	if _, _, err := scanner.ParseLine([]byte(text), false); err != nil {
		return fmt.Errorf("emulated: scan %q: %w (%w): a code is printable text", clipArg(text), ErrNotScannable, err)
	}
	if n := len(text) + len("]C0"); n > ScanMaxLen {
		return fmt.Errorf("emulated: scan of %d bytes: %w (a scanner line holds at most %d)", len(text), ErrNotScannable, ScanMaxLen)
	}
	k, _, _ := codes.Parse(text)
	if k == codes.KindUnknown {
		k = codes.KindPack
	}
	return r.Scanner.Scan(ctx, text, codemap.AIM(k))
}

// Press presses a button until the terminal has taken the press, releases it, and waits
// for the terminal to settle. The release comes as soon as the press is taken, as a
// finger's would: held until the operation ends (a payout printing two receipts), it read
// as a long press, which asks for the report.
func (r *Rig) Press(ctx context.Context, c board.Contact) error {
	n := r.Terminal.Received()
	r.Board.Emulator.Set(c, true)
	err := r.Terminal.Taken(ctx, n)
	r.Board.Emulator.Set(c, false)
	if err != nil {
		return err
	}
	// A finger takes longer than the debounce to press again: wait for the release to
	// register, or the next press would read as a bounce of this one.
	b := r.Board.OK
	if c == board.ContactCancel {
		b = r.Board.Cancel
	}
	for b.Pressed() && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	_, err = r.Terminal.Settle(ctx, n)
	return err
}

// Hold holds a button down for d, then releases it (a long press at rest asks for the
// report or a duplicate).
func (r *Rig) Hold(ctx context.Context, c board.Contact, d time.Duration) error {
	n := r.Terminal.Received()
	r.Board.Emulator.Set(c, true)
	if _, err := r.Terminal.Settle(ctx, n); err != nil {
		return err
	}
	time.Sleep(d)
	n = r.Terminal.Received()
	r.Board.Emulator.Set(c, false)
	_, err := r.Terminal.Settle(ctx, n)
	return err
}

// Photo decodes an image file as the camera would and hands its code to the terminal.
func (r *Rig) Photo(ctx context.Context, path string) error {
	fr, err := scanner.LoadFrame(path)
	if err != nil {
		return err
	}
	ev, ok := r.Images.Decode(fr)
	if !ok {
		return fmt.Errorf("emulated: %s: no code", path)
	}
	if ev.Kind == scanner.EventError {
		return ev.Err
	}
	return r.Terminal.Send(ctx, terminal.Event{Kind: terminal.EvScan, Text: ev.Scan.Text, Symbology: ev.Scan.Symbology, Source: ev.Scan.Source})
}

// Feed applies the lines of r until its end or ctx's (at once, even while r is silent: a
// terminal's stdin). echo sees each line before it is applied, fail each line's error; a
// line over MaxLine is refused (fail, ErrLineTooLong) and the lines after it are applied.
func (r *Rig) Feed(ctx context.Context, in io.Reader, echo func(string), fail func(error)) error {
	lines, readErr := readLines(in)
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, more := <-lines:
			if !more {
				return <-readErr
			}
			if line.err != nil {
				fail(line.err)
				continue
			}
			echo(line.text)
			if _, err := r.Do(ctx, line.text); err != nil && ctx.Err() == nil {
				fail(err)
			}
		}
	}
}

// readLines delivers the lines of r until its end; then the channel closes and the read
// error (nil at a clean end) is sent.
func readLines(r io.Reader) (<-chan inputLine, <-chan error) {
	lines, errc := make(chan inputLine), make(chan error, 1)
	go func() {
		lr := newLineReader(r, MaxLine)
		for {
			l, err := lr.next()
			if err != nil {
				close(lines)
				if errors.Is(err, io.EOF) {
					err = nil
				}
				errc <- err
				return
			}
			lines <- l
		}
	}()
	return lines, errc
}
