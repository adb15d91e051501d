package journal

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"os"

	bolt "go.etcd.io/bbolt"
)

// The bbolt file layout that the checks below read (bbolt's internal/common, format
// version 2, little-endian on every platform the terminal runs on): a 16-byte page
// header (id u64, flags u16, count u16, overflow u32); two meta pages (0 and 1) whose
// body is magic, version, page size, flags, root bucket (root page, sequence), freelist
// page, high-water page count, transaction id and an FNV-64a checksum of the fields
// before it; branch elements (pos, ksize u32, child page u64) and leaf elements (flags,
// pos, ksize, vsize u32), with pos counted from the element itself; a bucket value is its
// root page and sequence, followed by an inline leaf page when the root is 0.
const (
	pageHeader   = 16
	elemSize     = 16
	flagBranch   = 0x01
	flagLeaf     = 0x02
	flagMeta     = 0x04
	flagFreelist = 0x10
	bucketLeaf   = 0x01
	boltMagic    = 0xED0CDAED
	boltVersion  = 2
	maxDepth     = 32
	noFreelist   = ^uint64(0)
)

type boltMeta struct {
	pageSize  uint32
	root      uint64
	freelist  uint64
	pgid      uint64
	txid      uint64
	valid     bool
	invalidBy string
}

func parseMeta(page []byte) boltMeta {
	if len(page) < pageHeader+64 {
		return boltMeta{invalidBy: "short"}
	}
	le := binary.LittleEndian
	m := page[pageHeader:]
	bm := boltMeta{pageSize: le.Uint32(m[8:]), root: le.Uint64(m[16:]), freelist: le.Uint64(m[32:]), pgid: le.Uint64(m[40:]), txid: le.Uint64(m[48:])}
	h := fnv.New64a()
	h.Write(m[:56])
	switch {
	case le.Uint32(m) != boltMagic:
		bm.invalidBy = "bad magic"
	case le.Uint32(m[4:]) != boltVersion:
		bm.invalidBy = "unknown version"
	case le.Uint64(m[56:]) != h.Sum64():
		bm.invalidBy = "bad checksum"
	case le.Uint16(page[8:])&flagMeta == 0:
		bm.invalidBy = "not a meta page"
	case bm.pageSize < 512 || bm.pageSize > 1<<16 || bm.pageSize&(bm.pageSize-1) != 0:
		bm.invalidBy = "bad page size"
	default:
		bm.valid = true
	}
	return bm
}

// chooseMeta picks the meta page bbolt uses (the valid one with the higher transaction
// id) and reports a fallback: the newer meta page invalid, as an interrupted commit leaves it.
func chooseMeta(m0, m1 boltMeta) (boltMeta, string, error) {
	a, b, an, bn := m0, m1, 0, 1
	if m1.txid > m0.txid {
		a, b, an, bn = m1, m0, 1, 0
	}
	switch {
	case a.valid && b.valid:
		return a, "", nil
	case a.valid:
		return a, fmt.Sprintf("meta page %d (%s) ignored: the last transaction was interrupted, transaction %d is kept", bn, b.invalidBy, a.txid), nil
	case b.valid:
		return b, fmt.Sprintf("meta page %d (%s) ignored: the last transaction was interrupted, transaction %d is kept", an, a.invalidBy, b.txid), nil
	}
	return boltMeta{}, "", corrupt(0, "storage file: no valid meta page (%s; %s)", m0.invalidBy, m1.invalidBy)
}

// precheckMeta reads the two meta pages before bbolt maps the file, so that bbolt never
// sees a file whose meta pages it would trust blindly: the chosen meta must be
// self-consistent and point inside the file, and have a freelist page (the journal
// always syncs its freelist; bbolt rebuilds a missing one in a goroutine that panics on
// damage, which no recover can catch).
func precheckMeta(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("journal: open: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("journal: open: %w", err)
	}
	head := make([]byte, 1<<16*2)
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("journal: open: %w", err)
	}
	head = head[:n]
	m0 := parseMeta(head)
	psz := os.Getpagesize()
	if m0.valid {
		psz = int(m0.pageSize)
	}
	var m1 boltMeta
	if len(head) >= 2*psz {
		m1 = parseMeta(head[psz:])
	} else {
		m1.invalidBy = "file too short"
	}
	m, note, err := chooseMeta(m0, m1)
	if err != nil {
		return "", err
	}
	if err := m.check(st.Size()); err != nil {
		return "", err
	}
	// bbolt reads the freelist page as it opens a file for writing, and panics (leaving
	// its map, and so its lock, behind) on a damaged one: check it first.
	psz64 := uint64(m.pageSize)
	hdr := make([]byte, pageHeader+8)
	if _, err := f.ReadAt(hdr, int64(m.freelist*psz64)); err != nil {
		return "", corrupt(0, "storage file: freelist page %d unreadable: %v", m.freelist, err)
	}
	ov := uint64(binary.LittleEndian.Uint32(hdr[12:]))
	if m.freelist+ov >= m.pgid {
		return "", corrupt(0, "storage file: freelist page %d overflows past the end", m.freelist)
	}
	span := make([]byte, (ov+1)*psz64) // within the file: pgid·page size ≤ its size (check)
	if _, err := f.ReadAt(span, int64(m.freelist*psz64)); err != nil {
		return "", corrupt(0, "storage file: freelist page %d unreadable: %v", m.freelist, err)
	}
	c := &fileCheck{data: nil, psz: psz64, hwm: m.pgid}
	if _, err := c.freelistIDs(span, m.freelist, nil); err != nil {
		return "", err
	}
	return note, nil
}

func (m boltMeta) check(size int64) error {
	psz := uint64(m.pageSize)
	switch {
	case m.freelist == noFreelist:
		return corrupt(0, "storage file: no freelist page (the journal always writes one)")
	case m.pgid < 4 || m.pgid > uint64(size)/psz:
		return corrupt(0, "storage file: %d pages claimed, the file holds %d", m.pgid, uint64(size)/psz)
	case m.root < 2 || m.root >= m.pgid:
		return corrupt(0, "storage file: root page %d out of range", m.root)
	case m.freelist < 2 || m.freelist >= m.pgid:
		return corrupt(0, "storage file: freelist page %d out of range", m.freelist)
	}
	return nil
}

// fileCheck walks every page reachable from the meta page bbolt uses, on a read-only map
// of the file taken while bbolt holds its lock: page ids and bounds, page types, element
// bounds, strictly ordered keys, no page reached twice (no cycle), a freelist that names
// only unreachable pages, and no page that is neither reachable nor free. It is what
// bbolt's own Tx.Check does, without its panics and in bounded recursion, so that no
// cursor ever runs on a page that could make bbolt panic, fault or loop.
type fileCheck struct {
	data []byte
	psz  uint64
	hwm  uint64
	seen []bool
}

func checkFile(db *bolt.DB, path string) error {
	data, unmap, err := mapFile(path)
	if err != nil {
		return fmt.Errorf("journal: check file: %w", err)
	}
	defer unmap()
	m0 := parseMeta(data)
	psz := os.Getpagesize()
	if m0.valid {
		psz = int(m0.pageSize)
	}
	var m1 boltMeta
	if len(data) >= 2*psz {
		m1 = parseMeta(data[psz:])
	}
	m, _, err := chooseMeta(m0, m1)
	if err != nil {
		return err
	}
	if err := m.check(int64(len(data))); err != nil {
		return err
	}
	if int(m.pageSize) != db.Info().PageSize {
		return corrupt(0, "storage file: page size %d, the engine uses %d", m.pageSize, db.Info().PageSize)
	}
	c := &fileCheck{data: data, psz: uint64(m.pageSize), hwm: m.pgid, seen: make([]bool, m.pgid)}
	c.seen[0], c.seen[1] = true, true
	if err := c.walk(m.root, 0); err != nil {
		return err
	}
	free, err := c.freelist(m.freelist)
	if err != nil {
		return err
	}
	for id := uint64(2); id < c.hwm; id++ {
		if !c.seen[id] && !free[id] {
			return corrupt(0, "storage file: page %d is neither reachable nor free", id)
		}
	}
	return nil
}

// page returns the span of page id (with its overflow pages), checked.
func (c *fileCheck) page(id uint64) ([]byte, error) {
	if id < 2 || id >= c.hwm {
		return nil, corrupt(0, "storage file: page %d out of range", id)
	}
	off := id * c.psz
	if off+pageHeader > uint64(len(c.data)) {
		return nil, corrupt(0, "storage file: page %d past the end", id)
	}
	p := c.data[off:]
	if got := binary.LittleEndian.Uint64(p); got != id {
		return nil, corrupt(0, "storage file: page %d has id %d in its header", id, got)
	}
	ov := uint64(binary.LittleEndian.Uint32(p[12:]))
	if id+ov >= c.hwm || off+(ov+1)*c.psz > uint64(len(c.data)) {
		return nil, corrupt(0, "storage file: page %d overflows past the end", id)
	}
	for i := id; i <= id+ov; i++ {
		if c.seen[i] {
			return nil, corrupt(0, "storage file: page %d reached twice", i)
		}
		c.seen[i] = true
	}
	return p[:(ov+1)*c.psz], nil
}

func (c *fileCheck) walk(id uint64, depth int) error {
	if depth > maxDepth {
		return corrupt(0, "storage file: tree deeper than %d", maxDepth)
	}
	p, err := c.page(id)
	if err != nil {
		return err
	}
	return c.node(p, id, depth)
}

// node checks one branch or leaf page p (a page of the file, or an inline bucket's page
// when id is 0) and walks what it points at.
func (c *fileCheck) node(p []byte, id uint64, depth int) error {
	le := binary.LittleEndian
	flags, count := le.Uint16(p[8:]), int(le.Uint16(p[10:]))
	if pageHeader+count*elemSize > len(p) {
		return corrupt(0, "storage file: page %d: %d elements do not fit", id, count)
	}
	var prev []byte
	for i := 0; i < count; i++ {
		e := p[pageHeader+i*elemSize:]
		var key, val []byte
		var child uint64
		switch flags {
		case flagBranch:
			pos, ks := uint64(le.Uint32(e)), uint64(le.Uint32(e[4:]))
			child = le.Uint64(e[8:])
			start := uint64(pageHeader+i*elemSize) + pos
			if start+ks > uint64(len(p)) {
				return corrupt(0, "storage file: page %d: key %d out of the page", id, i)
			}
			key = p[start : start+ks]
		case flagLeaf:
			fl, pos, ks, vs := le.Uint32(e), uint64(le.Uint32(e[4:])), uint64(le.Uint32(e[8:])), uint64(le.Uint32(e[12:]))
			start := uint64(pageHeader+i*elemSize) + pos
			if start+ks+vs > uint64(len(p)) {
				return corrupt(0, "storage file: page %d: element %d out of the page", id, i)
			}
			key, val = p[start:start+ks], p[start+ks:start+ks+vs]
			if fl&^bucketLeaf != 0 {
				return corrupt(0, "storage file: page %d: element %d has flags %#x", id, i, fl)
			}
			if fl&bucketLeaf != 0 {
				if err := c.bucket(val, id, depth); err != nil {
					return err
				}
			}
		default:
			return corrupt(0, "storage file: page %d: type %#x where a branch or leaf page is expected", id, flags)
		}
		if len(key) == 0 {
			return corrupt(0, "storage file: page %d: empty key", id)
		}
		if prev != nil && bytes.Compare(prev, key) >= 0 {
			return corrupt(0, "storage file: page %d: keys out of order", id)
		}
		prev = key
		if flags == flagBranch {
			if id == 0 {
				return corrupt(0, "storage file: inline bucket with a branch page")
			}
			if err := c.walk(child, depth+1); err != nil {
				return err
			}
		}
	}
	if flags == flagBranch && count == 0 {
		return corrupt(0, "storage file: page %d: empty branch page", id)
	}
	return nil
}

// bucket checks a bucket value: its root page, or its inline page.
func (c *fileCheck) bucket(v []byte, parent uint64, depth int) error {
	if len(v) < 16 {
		return corrupt(0, "storage file: page %d: bucket value of %d bytes", parent, len(v))
	}
	root := binary.LittleEndian.Uint64(v)
	if root != 0 {
		return c.walk(root, depth+1)
	}
	in := v[16:]
	if len(in) < pageHeader || binary.LittleEndian.Uint16(in[8:]) != flagLeaf {
		return corrupt(0, "storage file: page %d: bad inline bucket", parent)
	}
	if depth > maxDepth {
		return corrupt(0, "storage file: buckets nested deeper than %d", maxDepth)
	}
	return c.node(in, 0, depth+1)
}

// freelist reads the freelist page: sorted ids of pages not reachable.
func (c *fileCheck) freelist(id uint64) ([]bool, error) {
	p, err := c.page(id)
	if err != nil {
		return nil, err
	}
	return c.freelistIDs(p, id, c.seen)
}

// freelistIDs checks the freelist page p (with its overflow pages): ids in range, in
// order, none reachable (seen, when not nil).
func (c *fileCheck) freelistIDs(p []byte, id uint64, seen []bool) ([]bool, error) {
	le := binary.LittleEndian
	if le.Uint64(p) != id {
		return nil, corrupt(0, "storage file: freelist page %d has id %d in its header", id, le.Uint64(p))
	}
	if le.Uint16(p[8:]) != flagFreelist {
		return nil, corrupt(0, "storage file: page %d is not a freelist page", id)
	}
	n, at := uint64(le.Uint16(p[10:])), uint64(pageHeader)
	if n == 0xFFFF {
		n, at = le.Uint64(p[pageHeader:]), pageHeader+8
	}
	if n > (uint64(len(p))-at)/8 {
		return nil, corrupt(0, "storage file: freelist of %d pages does not fit its page", n)
	}
	free := make([]bool, c.hwm)
	var prev uint64
	for i := uint64(0); i < n; i++ {
		f := le.Uint64(p[at+8*i:])
		if f < 2 || f >= c.hwm || f <= prev && i > 0 {
			return nil, corrupt(0, "storage file: freelist names page %d (out of range or out of order)", f)
		}
		if seen != nil && seen[f] {
			return nil, corrupt(0, "storage file: page %d is both in use and free", f)
		}
		free[f], prev = true, f
	}
	return free, nil
}
