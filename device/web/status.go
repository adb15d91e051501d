package web

import (
	"encoding/hex"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/board"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// SlotProvider says which firmware slot runs (A or B) and what it holds.
type SlotProvider interface {
	Slot() (string, error)
}

// PrinterStatus is the part of the printer driver the page reads: the last status it
// got, without asking the printer again.
type PrinterStatus interface {
	LastStatus() escpos.Status
}

// Parts are what the status page reads; nil fields are shown as absent.
type Parts struct {
	Version      string // default: the build's module version and VCS revision
	Slot         SlotProvider
	TerminalID   string
	Terminal     *terminal.Terminal
	Journal      *journal.Journal
	Ledgers      *ledger.Set
	DataRefused  error          // why the installed ledgers and list were all refused (nil: they were not)
	Missing      retail.Missing // what was never installed (daemon.LoadData): named as the panel does at rest
	StatusList   *ledger.StatusList
	AllDelivered bool // the emulator's stand-in for a status list
	Printer      PrinterStatus
	PrinterMode  string // e.g. "default (print confirmation)" or "legacy"
	Board        *board.Board
	Logs         *LogRing
	Clock        clockwork.Clock
}

// Status is what the status page and /status.json show.
type Status struct {
	Time     time.Time    `json:"time"`
	Version  string       `json:"version"`
	Slot     string       `json:"slot"`
	Terminal string       `json:"terminal"`
	State    string       `json:"state"`
	Ledgers  []LedgerInfo `json:"ledgers"` // one per block installed, ascending
	// DataRefused says why the installed ledgers and pack status list are not used: one
	// failed its checks (then Ledgers is empty).
	DataRefused string       `json:"data_refused,omitempty"`
	Missing     []string     `json:"missing,omitempty"` // what was never installed ("operator keys", "ledger", "pack status list"), in provisioning order
	Packs       PacksInfo    `json:"packs"`
	Journal     *JournalInfo `json:"journal"`
	Hardware    Hardware     `json:"hardware"`
	Logs        []LogLine    `json:"logs"`
}

// LedgerInfo describes an installed ledger.
type LedgerInfo struct {
	Block   uint16 `json:"block"`
	Version uint64 `json:"version"`
	Packs   uint32 `json:"packs"`
	Entries int    `json:"entries"`
	KeyID   string `json:"key_id"`
	Root    string `json:"root"`
}

// PacksInfo describes the pack status list.
type PacksInfo struct {
	Installed    bool        `json:"installed"`
	AllDelivered bool        `json:"all_delivered,omitempty"`
	Version      uint64      `json:"version,omitempty"`
	Retailer     uint32      `json:"retailer,omitempty"`
	Issued       string      `json:"issued,omitempty"`
	Ranges       []PackRange `json:"ranges,omitempty"`
}

// PackRange is one range of the list.
type PackRange struct {
	State string `json:"state"`
	Block uint16 `json:"block"`
	First uint32 `json:"first"`
	Last  uint32 `json:"last"`
}

// JournalInfo is the journal's head and today's totals.
type JournalInfo struct {
	Seq    uint64   `json:"seq"`
	Head   string   `json:"head"` // hex of the last record's hash
	Boot   uint64   `json:"boot"`
	Health string   `json:"health"`
	Today  *DayInfo `json:"today"`
	Error  string   `json:"error,omitempty"`
	// Refused is set while the journal is refused (removed, emptied or replaced on a
	// terminal that had one): nothing is sold or paid until a technician starts a new one.
	Refused *JournalRefused `json:"refused,omitempty"`
}

// DayInfo is the journal's totals of one day (journal.DayTotals) as status.json shows them:
// snake_case keys as the rest, amounts in cents, one entry per game of the règlement.
type DayInfo struct {
	Day           string    `json:"day"` // 2006-01-02, the terminal's local day
	Sales         int       `json:"sales"`
	SalesAmount   int64     `json:"sales_cents"`
	Payouts       int       `json:"payouts"`
	PayoutsAmount int64     `json:"payouts_cents"`
	Claims        int       `json:"claims"`
	ClaimsAmount  int64     `json:"claims_cents"`
	PerGame       []GameDay `json:"per_game"` // games 1 to 8, in order
}

// GameDay is one game's payouts of the day.
type GameDay struct {
	Game    int   `json:"game"`
	Payouts int   `json:"payouts"`
	Amount  int64 `json:"payouts_cents"`
}

// dayInfo copies d. journal.DayTotals.PerGame is indexed by game number, 1 to 8: its index
// 0, no game, is left out (status.json showed it as a ninth entry).
func dayInfo(d journal.DayTotals) *DayInfo {
	out := &DayInfo{Day: d.Day, Sales: d.Sales, SalesAmount: d.SalesAmount, Payouts: d.Payouts, PayoutsAmount: d.PayoutsAmount,
		Claims: d.Claims, ClaimsAmount: d.ClaimsAmount, PerGame: make([]GameDay, 0, len(d.PerGame)-1)}
	for g := 1; g < len(d.PerGame); g++ {
		out.PerGame = append(out.PerGame, GameDay{Game: g, Payouts: d.PerGame[g].Payouts, Amount: d.PerGame[g].Amount})
	}
	return out
}

// JournalRefused says why the journal was refused and what showed the terminal had one.
type JournalRefused struct {
	Reason   string   `json:"reason"`
	Evidence []string `json:"evidence"`
}

// Hardware is the health of the parts.
type Hardware struct {
	Scanner string      `json:"scanner"`
	Printer PrinterInfo `json:"printer"`
	Display DisplayInfo `json:"display"`
	Inputs  []Input     `json:"inputs"`
	Outputs []Input     `json:"outputs"`
}

// PrinterInfo is the printer's last status.
type PrinterInfo struct {
	Ready  bool   `json:"ready"`
	Status string `json:"status"`
	Mode   string `json:"mode"`
}

// DisplayInfo is what the display shows, and whether the panel answered its last
// read-back (terminal.DisplayHealth: "ok (read back)", "not checked (R/W not wired)", or
// "not responding: …").
type DisplayInfo struct {
	Geometry string   `json:"geometry"`
	Lines    []string `json:"lines"`
	Health   string   `json:"health,omitempty"`
}

// Input is one GPIO line and its level as the driver reads it.
type Input struct {
	Name   string `json:"name"`
	Active bool   `json:"active"`
	What   string `json:"what"`
}

// BuildVersion is the module version and VCS revision the binary was built from.
func BuildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}

// Collect reads the status now.
func (p *Parts) Collect() Status {
	clk := p.Clock
	if clk == nil {
		clk = clockwork.NewRealClock()
	}
	s := Status{Time: clk.Now(), Version: p.Version, Terminal: p.TerminalID, Slot: "unknown (no firmware slots on this system)"}
	if s.Version == "" {
		s.Version = BuildVersion()
	}
	if p.Slot != nil {
		if v, err := p.Slot.Slot(); err != nil {
			s.Slot = "error: " + err.Error()
		} else {
			s.Slot = v
		}
	}
	if p.Terminal != nil {
		s.State = p.Terminal.StateName()
	}
	if p.DataRefused != nil {
		s.DataRefused = p.DataRefused.Error()
	}
	s.Missing = missingNames(p.Missing)
	for _, b := range p.Ledgers.Blocks() {
		l := p.Ledgers.Get(b)
		h := l.Header()
		root := l.Root()
		s.Ledgers = append(s.Ledgers, LedgerInfo{Block: h.Block, Version: h.Version, Packs: h.Packs, Entries: h.Entries(),
			KeyID: l.KeyID().String(), Root: hex.EncodeToString(root[:8])})
	}
	s.Packs = p.packs()
	s.Journal = p.journal(s.Time)
	s.Hardware = p.hardware()
	if p.Logs != nil {
		s.Logs = p.Logs.Lines()
	}
	return s
}

// missingNames names each item of m, in retail's order (its bits, lowest first).
func missingNames(m retail.Missing) []string {
	var out []string
	for it := retail.Missing(1); it != 0 && it <= retail.AllMissing; it <<= 1 {
		if m&it != 0 {
			out = append(out, it.String())
		}
	}
	return out
}

func (p *Parts) packs() PacksInfo {
	if p.StatusList == nil {
		return PacksInfo{AllDelivered: p.AllDelivered}
	}
	l := p.StatusList
	out := PacksInfo{Installed: true, Version: l.Version, Retailer: l.Retailer, Issued: time.Unix(l.Issued, 0).UTC().Format(time.RFC3339)}
	for _, r := range l.Ranges {
		out.Ranges = append(out.Ranges, PackRange{State: r.State.String(), Block: r.Block, First: r.First, Last: r.First + r.Count - 1})
	}
	return out
}

func (p *Parts) journal(now time.Time) *JournalInfo {
	if p.Journal == nil {
		return nil
	}
	j := &JournalInfo{Boot: p.Journal.Boot(), Health: "ok"}
	var h [32]byte
	j.Seq, h = p.Journal.Head()
	j.Head = hex.EncodeToString(h[:])
	if err := p.Journal.Health(); err != nil {
		j.Health = err.Error()
	}
	if me := p.Journal.Missing(); me != nil {
		j.Refused = &JournalRefused{Reason: me.Reason}
		for _, e := range me.Evidence {
			j.Refused.Evidence = append(j.Refused.Evidence, e.What)
		}
	}
	if d, err := p.Journal.Today(now); err != nil { // the day payouts count against (the last record's when the clock is behind)
		j.Error = err.Error()
	} else {
		j.Today = dayInfo(d)
	}
	return j
}

func (p *Parts) hardware() Hardware {
	var h Hardware
	h.Scanner = "absent"
	if p.Terminal != nil && p.Terminal.ScannerPresent() {
		h.Scanner = "connected"
	}
	h.Printer.Mode = p.PrinterMode
	h.Printer.Status = "unknown"
	if p.Printer != nil {
		st := p.Printer.LastStatus()
		h.Printer.Ready, h.Printer.Status = st.Ready(), st.String()
	}
	if b := p.Board; b != nil {
		if b.Display != nil {
			h.Display.Geometry = b.Display.String()
		}
		if p.Terminal != nil {
			h.Display.Lines, h.Display.Health = p.Terminal.Screen(), p.Terminal.DisplayHealth()
		}
		if b.OK != nil {
			h.Inputs = append(h.Inputs, Input{Name: b.OK.String(), Active: b.OK.Pressed(), What: "OK button"})
		}
		if b.Cancel != nil {
			h.Inputs = append(h.Inputs, Input{Name: b.Cancel.String(), Active: b.Cancel.Pressed(), What: "CANCEL button"})
		}
		if b.Tamper != nil {
			ts := b.Tamper.State()
			h.Inputs = append(h.Inputs, Input{Name: "tamper", Active: ts.Open, What: fmt.Sprintf("case switch (tripped %v, %d edges)", ts.Tripped, ts.Edges)})
		}
		if b.Green != nil {
			h.Outputs = append(h.Outputs, Input{Name: b.Green.String(), Active: b.Green.IsOn(), What: "green LED"})
		}
		if b.Red != nil {
			h.Outputs = append(h.Outputs, Input{Name: b.Red.String(), Active: b.Red.IsOn(), What: "red LED"})
		}
	}
	return h
}
