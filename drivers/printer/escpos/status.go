package escpos

import (
	"fmt"
	"strings"
)

// Status is the printer state gathered from DLE EOT 1, 2, 3 and 4 replies.
type Status struct {
	DrawerOpen    bool // n=1 bit 2 (drawer connector pin 3 level)
	Offline       bool // n=1 bit 3
	WaitRecovery  bool // n=1 bit 5: waiting for online recovery
	FeedButton    bool // n=1 bit 6
	CoverOpen     bool // n=2 bit 2
	FeedingButton bool // n=2 bit 3: paper being fed by the button
	PaperStop     bool // n=2 bit 5: printing stopped by paper end
	Error         bool // n=2 bit 6
	CutterError   bool // n=3 bit 3
	Unrecoverable bool // n=3 bit 5
	AutoRecover   bool // n=3 bit 6
	NearEnd       bool // n=4 bits 2-3
	PaperEnd      bool // n=4 bits 5-6
}

// Ready reports whether a receipt can print now (near end is only a warning).
func (s Status) Ready() bool {
	return !s.Offline && !s.CoverOpen && !s.PaperStop && !s.PaperEnd && !s.Error &&
		!s.CutterError && !s.Unrecoverable && !s.AutoRecover
}

func (s Status) String() string {
	var f []string
	add := func(b bool, name string) {
		if b {
			f = append(f, name)
		}
	}
	add(s.Offline, "offline")
	add(s.CoverOpen, "cover-open")
	add(s.PaperEnd || s.PaperStop, "paper-end")
	add(s.NearEnd, "paper-near-end")
	add(s.Error, "error")
	add(s.CutterError, "cutter-error")
	add(s.Unrecoverable, "unrecoverable-error")
	add(s.AutoRecover, "auto-recoverable-error")
	add(s.DrawerOpen, "drawer-pin3-high")
	if len(f) == 0 {
		return "ready"
	}
	return strings.Join(f, ",")
}

// IsStatusByte reports whether b has the fixed bits of a DLE EOT reply (0xx1xx10), as opposed
// to an automatic status back block (0xx1xx00), XON/XOFF or other replies.
func IsStatusByte(b byte) bool { return b&0x93 == 0x12 }

// ParseStatus merges the reply b to DLE EOT n into s. It fails on an unknown n or a byte
// without the fixed bit pattern, leaving s unchanged.
func ParseStatus(s Status, n, b byte) (Status, error) {
	if !IsStatusByte(b) {
		return s, fmt.Errorf("escpos: status reply %#02x to DLE EOT %d: fixed bits not 0xx1xx10", b, n)
	}
	bit := func(i uint) bool { return b&(1<<i) != 0 }
	switch n {
	case StatusPrinter:
		s.DrawerOpen, s.Offline, s.WaitRecovery, s.FeedButton = bit(2), bit(3), bit(5), bit(6)
	case StatusOffline:
		s.CoverOpen, s.FeedingButton, s.PaperStop, s.Error = bit(2), bit(3), bit(5), bit(6)
	case StatusError:
		s.CutterError, s.Unrecoverable, s.AutoRecover = bit(3), bit(5), bit(6)
	case StatusPaper:
		s.NearEnd, s.PaperEnd = bit(2) || bit(3), bit(5) || bit(6)
	default:
		return s, fmt.Errorf("escpos: status request DLE EOT %d unknown", n)
	}
	return s, nil
}

// StatusReply encodes the reply to DLE EOT n for s (what a printer sends; used by emulators).
func StatusReply(s Status, n byte) (byte, error) {
	b := byte(0x12)
	set := func(c bool, mask byte) {
		if c {
			b |= mask
		}
	}
	switch n {
	case StatusPrinter:
		set(s.DrawerOpen, 1<<2)
		set(s.Offline, 1<<3)
		set(s.WaitRecovery, 1<<5)
		set(s.FeedButton, 1<<6)
	case StatusOffline:
		set(s.CoverOpen, 1<<2)
		set(s.FeedingButton, 1<<3)
		set(s.PaperStop, 1<<5)
		set(s.Error, 1<<6)
	case StatusError:
		set(s.CutterError, 1<<3)
		set(s.Unrecoverable, 1<<5)
		set(s.AutoRecover, 1<<6)
	case StatusPaper:
		set(s.NearEnd, 0x0C)
		set(s.PaperEnd, 0x60)
	default:
		return 0, fmt.Errorf("escpos: status request DLE EOT %d unknown", n)
	}
	return b, nil
}
