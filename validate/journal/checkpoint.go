package journal

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

// CheckpointVersion starts every checkpoint encoding.
const CheckpointVersion = 1

const checkpointDomain = "packterm journal checkpoint v1\x00"

// Checkpoint is a statement signed with the device key: "the journal of Terminal had
// record Seq with hash Hash as its head at Time, and these were the totals of Totals.Day".
// The terminal makes one at the first record of each new day (covering the day that
// ended) and one whenever asked; Open verifies the chain from the last one.
type Checkpoint struct {
	Terminal string
	Seq      uint64
	Hash     [32]byte
	Time     time.Time
	Totals   DayTotals
	Key      ledger.KeyID // the device key's id
	Sig      [ed25519.SignatureSize]byte
}

func (c *Checkpoint) appendBody(b []byte) []byte {
	b = append(b, CheckpointVersion)
	b = appendString(b, c.Terminal)
	b = binary.BigEndian.AppendUint64(b, c.Seq)
	b = append(b, c.Hash[:]...)
	_, off := c.Time.Zone()
	b = binary.BigEndian.AppendUint64(b, uint64(c.Time.UnixNano()))
	b = binary.BigEndian.AppendUint32(b, uint32(int32(off)))
	b = appendString(b, c.Totals.Day)
	b = c.Totals.appendBinary(b)
	return append(b, c.Key[:]...)
}

func (c *Checkpoint) signed() []byte {
	return c.appendBody([]byte(checkpointDomain))
}

// MarshalBinary is the checkpoint's stored form: body, then the signature.
func (c Checkpoint) MarshalBinary() ([]byte, error) {
	return append(c.appendBody(nil), c.Sig[:]...), nil
}

// Verify checks the signature with pub.
func (c *Checkpoint) Verify(pub ed25519.PublicKey) error {
	if ledger.IDOf(pub) != c.Key {
		return fmt.Errorf("journal: checkpoint at record %d: signed by key %v, not by device key %v", c.Seq, c.Key, ledger.IDOf(pub))
	}
	if !ed25519.Verify(pub, c.signed(), c.Sig[:]) {
		return fmt.Errorf("journal: checkpoint at record %d: bad signature", c.Seq)
	}
	return nil
}

// DecodeCheckpoint reads MarshalBinary's form (the signature is not checked: Verify).
func DecodeCheckpoint(b []byte) (Checkpoint, error) {
	d := reader{b: b}
	var c Checkpoint
	if v := d.u8(); d.err == nil && v != CheckpointVersion {
		return Checkpoint{}, badFormat("checkpoint version %d, want %d", v, CheckpointVersion)
	}
	c.Terminal = d.str(MaxTerminalLen)
	c.Seq = d.u64()
	copy(c.Hash[:], d.take(32))
	ns := int64(d.u64())
	off := int32(d.u32())
	day := d.str(len(time.DateOnly))
	tb := d.take(totalsSize)
	copy(c.Key[:], d.take(len(c.Key)))
	copy(c.Sig[:], d.take(ed25519.SignatureSize))
	if d.err != nil {
		return Checkpoint{}, d.err
	}
	if len(d.b) != 0 {
		return Checkpoint{}, badFormat("%d bytes after the checkpoint", len(d.b))
	}
	if off < -18*3600 || off > 18*3600 {
		return Checkpoint{}, badFormat("checkpoint zone offset %d s out of range", off)
	}
	if _, err := time.Parse(time.DateOnly, day); err != nil {
		return Checkpoint{}, badFormat("checkpoint day %.12q", day)
	}
	if err := checkTerminal(c.Terminal); err != nil {
		return Checkpoint{}, badFormat("checkpoint: %v", err)
	}
	t, err := decodeTotals(day, tb)
	if err != nil {
		return Checkpoint{}, err
	}
	c.Totals = t
	c.Time = time.Unix(0, ns).In(zone(int(off)))
	return c, nil
}

// Checkpoint makes and stores a signed checkpoint of the head now, with today's totals.
func (j *Journal) Checkpoint() (Checkpoint, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.writable(); err != nil {
		return Checkpoint{}, err
	}
	var cp Checkpoint
	err := guard("checkpoint", func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			var err error
			cp, err = j.putCheckpoint(tx, j.head, j.headHash, dayKey(j.clock.Now()))
			return err
		})
	})
	if err != nil {
		return Checkpoint{}, j.failed("checkpoint", err)
	}
	j.cp = &cp
	j.log.Info("journal: checkpoint", "seq", cp.Seq, "day", cp.Totals.Day)
	return cp, nil
}

// putCheckpoint signs a checkpoint of (seq, hash) with the totals of day and stores it.
func (j *Journal) putCheckpoint(tx *bolt.Tx, seq uint64, hash [32]byte, day string) (Checkpoint, error) {
	cb, db := tx.Bucket(bCheckpoints), tx.Bucket(bDays)
	if cb == nil || db == nil {
		return Checkpoint{}, corrupt(0, "bucket missing")
	}
	t := DayTotals{Day: day}
	if v := db.Get([]byte(day)); v != nil {
		var err error
		if t, err = decodeTotals(day, v); err != nil {
			return Checkpoint{}, corrupt(0, "day %s: %v", day, err)
		}
	}
	now := j.clock.Now()
	_, off := now.Zone()
	cp := Checkpoint{Terminal: j.terminal, Seq: seq, Hash: hash, Time: time.Unix(0, now.UnixNano()).In(zone(off)), Totals: t, Key: ledger.IDOf(j.pub)}
	copy(cp.Sig[:], ed25519.Sign(j.priv, cp.signed()))
	n, err := cb.NextSequence()
	if err != nil {
		return Checkpoint{}, err
	}
	enc, _ := cp.MarshalBinary()
	cb.FillPercent = 1
	if err := cb.Put(be64(n), enc); err != nil {
		return Checkpoint{}, err
	}
	return cp, nil
}

// maybeDaily makes the daily checkpoint, in the transaction of the first record r of a new
// day: it covers the head (the last record of the day that ended) and that day's totals.
func (j *Journal) maybeDaily(tx *bolt.Tx, r *Record) (*Checkpoint, error) {
	if j.head == 0 || (j.cp != nil && j.cp.Seq >= j.head) || j.last.day() == r.day() {
		return nil, nil
	}
	cp, err := j.putCheckpoint(tx, j.head, j.headHash, j.last.day())
	if err != nil {
		return nil, err
	}
	return &cp, nil
}

// dailyCheckpoint is made at open when no checkpoint covers the last record yet and that
// record is of an earlier day than today (a terminal that was off across midnight), or is
// unsigned (a journal written before every record was signed: its unsigned tail is
// vouched for from then on).
func (j *Journal) dailyCheckpoint() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.health != nil || j.head == 0 || (j.cp != nil && j.cp.Seq >= j.head) || (j.last.day() == dayKey(j.clock.Now()) && j.last.Signed()) {
		return nil
	}
	var cp Checkpoint
	err := guard("checkpoint", func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			var err error
			cp, err = j.putCheckpoint(tx, j.head, j.headHash, j.last.day())
			return err
		})
	})
	if err != nil {
		return j.failed("checkpoint", err)
	}
	j.cp = &cp
	return nil
}
