package journal

import (
	"crypto/ed25519"
	"sort"

	"github.com/packterm/pos/validate/ledger"
)

// sigBatch is how many signed records sigCheck gathers before it checks the last one.
const sigBatch = 4096

// sigCheck checks the signatures of the records a walk visits, in order, without an
// Ed25519 verification (50–110 µs) per record: the walk has checked each record's own
// hash and its link to the one before, so a record's hash commits to every record before
// it, and a valid signature of record m vouches for records 1..m (finding records that
// hash the same would need a SHA-256 collision). sigCheck therefore verifies the last
// signature of each batch of sigBatch records; when it fails, the records before it
// whose signatures still hold are unchanged, and a binary search names the first one
// whose signature does not. A signature damaged on a record that a later signature
// vouches for is not looked at: the record's content is proven all the same.
//
// It also enforces the versions' order: once a signed record has been seen, an unsigned
// one (a version 1 record) is refused.
type sigCheck struct {
	pub ed25519.PublicKey
	kid ledger.KeyID
	q   []sigItem

	signed       bool   // a signed record was seen
	unsignedFrom uint64 // first of the unsigned records since the last signed one (0: none)
	lastSigned   uint64 // last signed record queued
	count        uint64 // signed records queued
}

type sigItem struct {
	seq          uint64
	unsignedFrom uint64 // unsigned records unsignedFrom..seq-1 are vouched by this signature only
	key          ledger.KeyID
	hash         [32]byte
	sig          [ed25519.SignatureSize]byte
}

func newSigCheck(pub ed25519.PublicKey) *sigCheck {
	return &sigCheck{pub: pub, kid: ledger.IDOf(pub)}
}

// add queues r's signature (the walk has checked r's hash and chain).
func (c *sigCheck) add(r *Record) error {
	if !r.Signed() {
		if c.signed {
			return corrupt(r.Seq, "unsigned record (format version %d) after signed records: records are signed since format version %d", r.Version, RecordVersion)
		}
		if c.unsignedFrom == 0 {
			c.unsignedFrom = r.Seq
		}
		return nil
	}
	c.q = append(c.q, sigItem{seq: r.Seq, unsignedFrom: c.unsignedFrom, key: r.Key, hash: r.Hash, sig: r.Sig})
	c.signed, c.unsignedFrom, c.lastSigned = true, 0, r.Seq
	c.count++
	if len(c.q) >= sigBatch {
		return c.flush()
	}
	return nil
}

// settle is the walk's error once the queued signatures are checked: a bad signature
// names an earlier record than err (every queued record comes before the one err is
// about), or the same one, which it names more precisely.
func (c *sigCheck) settle(err error) error {
	if ferr := c.flush(); ferr != nil {
		return ferr
	}
	return err
}

// flush checks the queued records' signatures (see sigCheck): the last one, and when it
// fails, a binary search for the first that fails.
func (c *sigCheck) flush() error {
	q := c.q
	c.q = c.q[:0]
	if len(q) == 0 || c.ok(&q[len(q)-1]) {
		return nil
	}
	i := sort.Search(len(q)-1, func(i int) bool { return !c.ok(&q[i]) })
	return c.failure(&q[i])
}

func (c *sigCheck) ok(it *sigItem) bool {
	return verifySig(c.pub, c.kid, it.key, &it.hash, &it.sig) == nil
}

func (c *sigCheck) failure(it *sigItem) error {
	err := verifySig(c.pub, c.kid, it.key, &it.hash, &it.sig)
	if it.unsignedFrom != 0 {
		return corrupt(it.seq, "%v (this record, or one of the unsigned records %d..%d before it that only its signature vouches for)",
			err, it.unsignedFrom, it.seq-1)
	}
	return corrupt(it.seq, "%v", err)
}
