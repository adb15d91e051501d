package settle

import (
	"cmp"
	"crypto/ed25519"
	"fmt"
	"slices"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Reasons the fleet's witness check gives a record (RecordFinding.Reason) and a payout on
// such a record (Flag.Reason; stable: the JSON output carries them).
const (
	// ReasonUnsigned: an unsigned (format version 1) record from a terminal whose device
	// key is registered.
	ReasonUnsigned = "unsigned"
	// ReasonBadSignature: the record's signature is not the registered device key's.
	ReasonBadSignature = "bad-signature"
	// ReasonRechained: the record's Prev is not the hash of the terminal's record Seq-1
	// as the fleet holds it (or record 1 names a previous record).
	ReasonRechained = "rechained"
	// ReasonNoDeviceKey: the terminal has no device key registered with the fleet: none
	// of its records' signatures can be checked.
	ReasonNoDeviceKey = "no-device-key"
)

// RecordFinding is one record the fleet cannot vouch for.
type RecordFinding struct {
	Record   string `json:"record"` // "<terminal>/<seq>"
	Terminal string `json:"terminal"`
	Seq      uint64 `json:"seq"`
	Reason   string `json:"reason"` // ReasonUnsigned, ReasonBadSignature, ReasonRechained
	Detail   string `json:"detail"`
}

// KeylessTerminal is a terminal with records and no registered device key.
type KeylessTerminal struct {
	Terminal string `json:"terminal"`
	Records  int    `json:"records"`
}

// Witnessed is the check of every record's signature and chain (CheckRecords).
type Witnessed struct {
	Findings    []RecordFinding   `json:"findings"`      // by terminal, then sequence
	NoDeviceKey []KeylessTerminal `json:"no_device_key"` // by terminal
	Records     int               `json:"records"`       // distinct records checked
	// Verifications counts the Ed25519 verifications made (one per unbroken run of a
	// terminal's signed records when all hold).
	Verifications int `json:"-"`

	flags   map[recordKeyT][]Flag
	keyless map[string]bool
}

// Clean says every record was checked and holds (a nil w is clean: nothing was checked).
func (w *Witnessed) Clean() bool {
	return w == nil || len(w.Findings) == 0 && len(w.NoDeviceKey) == 0
}

// FlagsOf are the witness's flags of record r (none for a nil w).
func (w *Witnessed) FlagsOf(r *journal.Record) []Flag {
	if w == nil {
		return nil
	}
	fs := w.flags[recordKey(r)]
	if w.keyless[r.Terminal] {
		fs = append(slices.Clip(fs), Flag{ReasonNoDeviceKey, "terminal " + r.Terminal + " has no device key registered with the fleet"})
	}
	return fs
}

// Lines is one line per finding: each record, then each terminal without a device key.
func (w *Witnessed) Lines() []string {
	if w == nil {
		return nil
	}
	out := make([]string, 0, len(w.Findings)+len(w.NoDeviceKey))
	for _, f := range w.Findings {
		out = append(out, fmt.Sprintf("%s: record %s: %s", f.Reason, f.Record, f.Detail))
	}
	for _, k := range w.NoDeviceKey {
		out = append(out, fmt.Sprintf("%s: terminal %s: %d records not checked (no device key registered: posctl fleet set-device-key)",
			ReasonNoDeviceKey, k.Terminal, k.Records))
	}
	return out
}

// CheckRecords checks every record (each record id and content once; records decoded by
// journal.DecodeRecord, whose hash is checked) as the fleet's witness: for a terminal
// whose device keys keyOf gives (the one in force, then those it replaced), a record must
// be signed (not format version 1), by one of them; for every terminal, each record's
// Prev is the hash of one of the records Seq-1 of the same terminal the fleet holds
// (ChainFault: a record after a gap is not chain-checked, the gap is the report's
// finding). A terminal keyOf gives no key for is listed in NoDeviceKey and each of its
// records is flagged.
//
// Signatures are checked as journal verification checks them: a run of records each
// linked to the one before (one record per sequence number, no finding) is vouched by
// its last record's signature, since each hash covers the previous one; when that
// signature fails, each record of the run is verified on its own.
func CheckRecords(records []journal.Record, keyOf func(terminal string) []ed25519.PublicKey) *Witnessed {
	w := &Witnessed{Findings: []RecordFinding{}, NoDeviceKey: []KeylessTerminal{}, flags: map[recordKeyT][]Flag{}, keyless: map[string]bool{}}
	byTerm := map[string][]*journal.Record{}
	seen := map[recordKeyT]bool{}
	for i := range records {
		r := &records[i]
		if k := recordKey(r); !seen[k] {
			seen[k] = true
			byTerm[r.Terminal] = append(byTerm[r.Terminal], r)
		}
	}
	w.Records = len(seen)
	for term, recs := range byTerm {
		slices.SortFunc(recs, func(a, b *journal.Record) int {
			return cmp.Or(cmp.Compare(a.Seq, b.Seq), slices.Compare(a.Hash[:], b.Hash[:]))
		})
		keys := keyOf(term)
		if len(keys) == 0 {
			w.keyless[term] = true
			w.NoDeviceKey = append(w.NoDeviceKey, KeylessTerminal{Terminal: term, Records: len(recs)})
		}
		w.checkTerminal(recs, keys)
	}
	slices.SortFunc(w.Findings, func(a, b RecordFinding) int {
		return cmp.Or(cmp.Compare(a.Terminal, b.Terminal), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.Reason, b.Reason))
	})
	slices.SortFunc(w.NoDeviceKey, func(a, b KeylessTerminal) int { return cmp.Compare(a.Terminal, b.Terminal) })
	return w
}

// checkTerminal checks one terminal's records, sorted by sequence (keys none: no key).
func (w *Witnessed) checkTerminal(recs []*journal.Record, keys []ed25519.PublicKey) {
	held := map[uint64][][32]byte{} // the hashes the fleet holds per sequence number
	for _, r := range recs {
		held[r.Seq] = append(held[r.Seq], r.Hash)
	}
	var run []*journal.Record // records signed by runKey, linked one to the next, not yet verified
	var runKey ed25519.PublicKey
	for _, r := range recs {
		clean := true
		if d, bad := ChainFault(r, held[r.Seq-1]); bad {
			w.find(r, ReasonRechained, d)
			clean = false
		}
		var pub ed25519.PublicKey
		if len(keys) > 0 {
			var reason, d string
			var bad bool
			if pub, reason, d, bad = KeyFault(r, keys); bad {
				w.find(r, reason, d)
				clean = false
			}
		}
		last := len(run) - 1
		linked := last >= 0 && run[last].Seq+1 == r.Seq && r.Prev == run[last].Hash && pub.Equal(runKey)
		if !clean || !linked || len(held[r.Seq]) > 1 {
			w.verifyRun(run, runKey)
			run = run[:0]
		}
		switch {
		case !clean || pub == nil:
		case len(held[r.Seq]) == 1:
			run, runKey = append(run, r), pub
		default: // a fork: each of its records on its own
			w.verifyRun([]*journal.Record{r}, pub)
		}
	}
	w.verifyRun(run, runKey)
}

// verifyRun checks the signatures of run (each linked to the one before, signed by the
// key id of pub): the last, and when it fails, each.
func (w *Witnessed) verifyRun(run []*journal.Record, pub ed25519.PublicKey) {
	if len(run) == 0 {
		return
	}
	w.Verifications++
	if run[len(run)-1].VerifySignature(pub) == nil {
		return
	}
	for _, r := range run {
		w.Verifications++
		if err := r.VerifySignature(pub); err != nil {
			w.find(r, ReasonBadSignature, fmt.Sprintf("the signature is not the registered device key's (key %v)", ledger.IDOf(pub)))
		}
	}
}

func (w *Witnessed) find(r *journal.Record, reason, detail string) {
	w.Findings = append(w.Findings, RecordFinding{Record: r.ID(), Terminal: r.Terminal, Seq: r.Seq, Reason: reason, Detail: detail})
	k := recordKey(r)
	w.flags[k] = append(w.flags[k], Flag{reason, detail})
}

// ChainFault says whether r's Prev disagrees with the records Seq-1 of its terminal the
// fleet holds (prevs, their hashes): record 1 must name none; a record whose
// predecessor is not held (a gap) cannot be checked and passes; so does a journal-reset
// record naming none (a technician started the journal afresh without knowing the last
// record's hash: the reset is journalled, docs/journal.md).
func ChainFault(r *journal.Record, prevs [][32]byte) (string, bool) {
	var none [32]byte
	switch {
	case r.Seq <= 1 && r.Prev != none:
		return "record 1 names a previous record", true
	case r.Seq <= 1, len(prevs) == 0, slices.Contains(prevs, r.Prev), r.Kind == journal.KindReset && r.Prev == none:
		return "", false
	}
	return fmt.Sprintf("its prev is not the hash of record %s/%d the fleet holds", r.Terminal, r.Seq-1), true
}

// KeyFault says whether r cannot be signed by one of the device keys keys (the one in
// force first), without verifying the signature: unsigned (format version 1), or signed
// by another key id. The reason is ReasonUnsigned or ReasonBadSignature; pub is the key
// whose id r names, the one to verify it with.
func KeyFault(r *journal.Record, keys []ed25519.PublicKey) (pub ed25519.PublicKey, reason, detail string, bad bool) {
	if !r.Signed() {
		return nil, ReasonUnsigned, fmt.Sprintf("unsigned record (format version %d) from a terminal whose device key %v is registered",
			r.Version, ledger.IDOf(keys[0])), true
	}
	for _, k := range keys {
		if ledger.IDOf(k) == r.Key {
			return k, "", "", false
		}
	}
	return nil, ReasonBadSignature, fmt.Sprintf("signed by key %v, not by the registered device key %v", r.Key, ledger.IDOf(keys[0])), true
}
