package journal

import (
	"errors"
	"fmt"

	"github.com/packterm/pos/validate/ledger"
)

// ErrHeadMoved: Commit of a record prepared before another record was appended. Nothing
// was written: prepare it again.
var ErrHeadMoved = errors.New("journal: another record was appended since it was prepared")

// Prepare is the record Append(e) would write now, sealed (sequence, time, chain, hash and
// signature), without writing anything: what a record says (its number, its hash) can be
// printed and kept before it is committed (the terminal puts a payout's receipts in the
// printer's durable spool first, then commits the payout). Commit writes it.
func (j *Journal) Prepare(e Entry) (Record, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	r, err := j.next(e)
	if err != nil {
		return Record{}, err
	}
	sealSigned(j.priv, ledger.IDOf(j.pub), &r)
	return r, nil
}

// Commit appends p, a record Prepare returned, exactly as prepared (same sequence, time,
// hash and signature), with Append's checks and durability. It fails with ErrHeadMoved,
// writing nothing, when another record was appended since p was prepared.
func (j *Journal) Commit(p Record) (Record, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.writable(); err != nil {
		return Record{}, err
	}
	if err := appendable(p.Kind); err != nil {
		return Record{}, err
	}
	if p.Seq != j.head+1 || p.Prev != j.headHash {
		return Record{}, fmt.Errorf("journal: commit of record %d after record %d: %w", p.Seq, j.head, ErrHeadMoved)
	}
	r, err := j.prepare(p.Entry, p.Seq, p.Prev)
	if err != nil {
		return Record{}, err
	}
	if r.Time.IsZero() || !r.Time.Equal(p.Time) {
		return Record{}, invalid("commit of record %d: not the record prepared", p.Seq)
	}
	w, err := j.write(r)
	if err == nil && w.Hash != p.Hash {
		// Unreachable: the same entry at the same place seals the same.
		j.log.Error("journal: committed record differs from the one prepared", "seq", w.Seq)
	}
	return w, err
}
