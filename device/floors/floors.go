// Package floors reads the install records of the journal (docs/terminal.md, "A pack
// status list never goes back"): the newest version of each kind of installed data the
// terminal took in, which an older file put back is refused against. The terminal reads
// them from its own journal at start; the fleet service reads the same records from what
// the terminal published (docs/fleet.md, "Floors from the fleet"), so that a journal put
// back with its files from an earlier copy is still held to them online.
package floors

import (
	"maps"
	"regexp"
	"strconv"

	"github.com/packterm/pos/validate/journal"
)

// Floors are the newest versions installed (0: none).
type Floors struct {
	// Status is the newest pack status list installed; HadStatus: one was (of any
	// version: a terminal that had a list may not run without one).
	Status    uint64 `json:"status,omitempty"`
	HadStatus bool   `json:"had_status,omitempty"`
	// Ledgers is each block's newest ledger installed.
	Ledgers map[uint16]uint64 `json:"ledgers,omitempty"`
	// OperatorKeys, Limits and FirmwareKeys are the newest operator key statement,
	// operator limits statement and firmware key statement installed.
	OperatorKeys uint64 `json:"operator_keys,omitempty"`
	Limits       uint64 `json:"limits,omitempty"`
	FirmwareKeys uint64 `json:"firmware_keys,omitempty"`
}

// Kinds are the record kinds Add reads.
var Kinds = []journal.Kind{journal.KindStatusInstall, journal.KindLedgerInstall, journal.KindConfigChange}

var (
	// "version 2, was 1 (fleet)", "status installed: version 2 (maintenance link)"
	statusVersion = regexp.MustCompile(`\bversion (\d{1,20})\b`)
	// "ledger installed: block 7, version 2 (was 1)"
	ledgerVersion = regexp.MustCompile(`\bblock (\d{1,5}), version (\d{1,20})\b`)
	// config-change records of the statements installed over the maintenance link:
	// "keys: operator keys installed: statement version 2 (was 1), …",
	// "keys: operator limits installed: statement version 3 (was 2), for …",
	// "keys: firmware keys installed: statement version 2 (was 1); in force at the next start"
	operatorKeys = regexp.MustCompile(`\boperator keys installed: statement version (\d{1,20})\b`)
	limits       = regexp.MustCompile(`\boperator limits installed: statement version (\d{1,20})\b`)
	firmwareKeys = regexp.MustCompile(`\bfirmware keys installed: statement version (\d{1,20})\b`)
)

// Add raises f to what the record of kind with detail says was installed; a record of
// another kind, or whose detail names no version, changes nothing (a status-install record
// still says a list was installed).
func (f *Floors) Add(kind journal.Kind, detail string) {
	switch kind {
	case journal.KindStatusInstall:
		f.HadStatus = true
		f.Status = max(f.Status, version(statusVersion, detail))
	case journal.KindLedgerInstall:
		m := ledgerVersion.FindStringSubmatch(detail)
		if m == nil {
			return
		}
		b, errB := strconv.ParseUint(m[1], 10, 16)
		v, errV := strconv.ParseUint(m[2], 10, 64)
		if errB != nil || errV != nil {
			return
		}
		if f.Ledgers == nil {
			f.Ledgers = map[uint16]uint64{}
		}
		f.Ledgers[uint16(b)] = max(f.Ledgers[uint16(b)], v)
	case journal.KindConfigChange:
		f.OperatorKeys = max(f.OperatorKeys, version(operatorKeys, detail))
		f.Limits = max(f.Limits, version(limits, detail))
		f.FirmwareKeys = max(f.FirmwareKeys, version(firmwareKeys, detail))
	}
}

// Raise raises f to o, floor by floor, and reports whether any floor went up.
func (f *Floors) Raise(o Floors) bool {
	was := f.Clone()
	f.HadStatus = f.HadStatus || o.HadStatus
	f.Status = max(f.Status, o.Status)
	f.OperatorKeys = max(f.OperatorKeys, o.OperatorKeys)
	f.Limits = max(f.Limits, o.Limits)
	f.FirmwareKeys = max(f.FirmwareKeys, o.FirmwareKeys)
	for b, v := range o.Ledgers {
		if f.Ledgers == nil {
			f.Ledgers = map[uint16]uint64{}
		}
		f.Ledgers[b] = max(f.Ledgers[b], v)
	}
	return !was.Equal(*f)
}

// Clone is a copy of f that shares nothing with it.
func (f Floors) Clone() Floors {
	f.Ledgers = maps.Clone(f.Ledgers)
	return f
}

// Equal reports whether f and o hold the same floors.
func (f Floors) Equal(o Floors) bool {
	return f.Status == o.Status && f.HadStatus == o.HadStatus && f.OperatorKeys == o.OperatorKeys &&
		f.Limits == o.Limits && f.FirmwareKeys == o.FirmwareKeys && maps.Equal(f.Ledgers, o.Ledgers)
}

// version is the version re's first group finds in detail (0: none).
func version(re *regexp.Regexp, detail string) uint64 {
	m := re.FindStringSubmatch(detail)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseUint(m[1], 10, 64)
	if err != nil {
		return 0
	}
	return v
}
