package journal

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
)

// paidMem is the paid index held in memory by a journal open for writing: ticket → what
// Paid returns of its payout (sequence number, time, zone, offline mark: paidindex.go).
// Paid answers from it alone, paid or not (the look-up every winner scanned makes),
// without a bbolt transaction or a read of the payout's record. It is filled from the
// paid bucket in the background, from the first Paid on (Paid reads the file until it is
// filled; the terminal's start, which asks nothing of it, is not slowed by it), and kept
// in step by every append: a payout is added once its transaction has committed, under
// the journal's lock (advance). The duplicate check that refuses a second payout stays
// in the append's own transaction, on the file.
//
// The paid bucket is read in key order, so the fill builds two sorted arrays (24 bytes a
// payout: the key, searched by bisection, and its packed entry) rather than a hash map
// (about 50 bytes a payout, and three times the time to fill); the payouts appended since
// are in a small map.
type paidMem struct {
	db    *bolt.DB
	begin sync.Once // the fill starts (or, at close, never will)
	mu    sync.RWMutex
	ready bool              // filled from the file: a ticket absent is not paid
	keys  []uint64          // ticketInt of every payout in the file at the fill, ascending
	vals  []paidSlot        // their paid index entries, packed
	added map[uint64]paidAt // payouts appended since Open: ticketInt → entry
	done  chan struct{}     // closed when the fill has ended (filled or given up)
	stop  atomic.Bool       // Close: give the fill up
}

func ticketInt(id codes.TicketID) uint64 {
	return uint64(id.Block)<<40 | uint64(id.Pack)<<8 | uint64(id.Position)
}

func keyInt(k []byte) uint64 {
	return uint64(k[0])<<48 | uint64(k[1])<<40 | uint64(k[2])<<32 | uint64(k[3])<<24 | uint64(k[4])<<16 | uint64(k[5])<<8 | uint64(k[6])
}

// newPaidMem is the index of db's paid bucket, to be filled at the first lookup. Payouts
// appended meanwhile are added by note: the fill's read transaction begins after the index
// takes them, so each payout is either in what it reads or noted.
func newPaidMem(db *bolt.DB) *paidMem {
	return &paidMem{db: db, added: map[uint64]paidAt{}, done: make(chan struct{})}
}

// paidSlot is a paidAt packed in 16 bytes: seq (40 bits) ‖ zone offset + 18 h (17 bits) ‖
// offline mark (1 bit) in meta, the time in ns.
type paidSlot struct {
	meta uint64
	ns   int64
}

const maxPackedSeq = 1<<40 - 1

// pack packs p (false when its seq is beyond 40 bits: a trillion records, never).
func (p paidAt) pack() (paidSlot, bool) {
	if p.seq > maxPackedSeq || p.off < -maxZoneOffset || p.off > maxZoneOffset {
		return paidSlot{}, false
	}
	m := p.seq<<24 | uint64(p.off+maxZoneOffset)<<1
	if p.unconfirmed {
		m |= 1
	}
	return paidSlot{meta: m, ns: p.ns}, true
}

func (s paidSlot) unpack() paidAt {
	return paidAt{seq: s.meta >> 24, ns: s.ns, off: int32(s.meta>>1&(1<<23-1)) - maxZoneOffset, unconfirmed: s.meta&1 != 0}
}

// start starts the fill in the background, once.
func (p *paidMem) start() { p.begin.Do(func() { go p.fill() }) }

func (p *paidMem) fill() {
	defer close(p.done)
	var keys []uint64
	var vals []paidSlot
	err := guard("paid index", func() error {
		return p.db.View(func(tx *bolt.Tx) error {
			b := tx.Bucket(bPaid)
			if b == nil {
				return corrupt(0, "bucket missing")
			}
			n := payoutCount(tx) // a capacity: the arrays are not copied as they grow
			keys, vals = make([]uint64, 0, n), make([]paidSlot, 0, n)
			c := b.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				if len(keys)%4096 == 0 && p.stop.Load() {
					return errStopped
				}
				p, timed, ok := decodePaid(v)
				if len(k) != 7 || !ok || !timed {
					return corrupt(0, "paid index entry %x is malformed", k)
				}
				slot, ok := p.pack()
				if !ok {
					return errStopped // Paid reads the file
				}
				ki := keyInt(k)
				if n := len(keys); n > 0 && keys[n-1] >= ki {
					return corrupt(0, "paid index out of order at %x", k)
				}
				keys, vals = append(keys, ki), append(vals, slot)
			}
			return nil
		})
	})
	if err != nil {
		return // Paid keeps reading the file, which reports the damage
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keys, p.vals, p.ready = slices.Clip(keys), slices.Clip(vals), true
}

// payoutCount is the number of payouts the day totals count (a hint: checked by Verify,
// not here).
func payoutCount(tx *bolt.Tx) int {
	n := 0
	days := tx.Bucket(bDays)
	if days == nil {
		return 0
	}
	c := days.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		// Capped as it goes: no overflow where int has 32 bits (linux/arm).
		if t, err := decodeTotals(string(k), v); err == nil && t.Payouts > 0 && t.Payouts <= 1<<28 {
			n = min(n+t.Payouts, 1<<28)
		}
	}
	return n
}

// note adds a payout that has been committed.
func (p *paidMem) note(r *Record) {
	if p == nil || r.Kind != KindPayout {
		return
	}
	p.mu.Lock()
	p.added[ticketInt(r.Ticket)] = paidOf(r)
	p.mu.Unlock()
}

// lookup is the paid index entry of id (seq 0: not paid); known is false until the index
// is filled.
func (p *paidMem) lookup(id codes.TicketID) (e paidAt, known bool) {
	if p == nil {
		return paidAt{}, false
	}
	k := ticketInt(id)
	p.mu.RLock()
	defer p.mu.RUnlock()
	if !p.ready {
		p.start()
		return paidAt{}, false
	}
	if e, ok := p.added[k]; ok {
		return e, true
	}
	if i, ok := slices.BinarySearch(p.keys, k); ok {
		return p.vals[i].unpack(), true
	}
	return paidAt{}, true
}

var errStopped = errors.New("stopped")

// wait starts the fill if need be and blocks until it has ended (tests, benchmarks).
func (p *paidMem) wait() {
	if p != nil {
		p.start()
		<-p.done
	}
}

// close gives the fill up and waits for it to end, or prevents it from starting (Close,
// before the file is closed).
func (p *paidMem) close() {
	if p != nil {
		p.stop.Store(true)
		p.begin.Do(func() { close(p.done) })
		<-p.done
	}
}
