package ledger

import (
	"bytes"
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func testStatus() *StatusList {
	return &StatusList{Retailer: 7001, Version: 3, Issued: 1_780_000_000, Ranges: []PackRange{
		{Block: 42, First: 1000, Count: 500, State: PackDelivered},
		{Block: 42, First: 1200, Count: 1, State: PackStolen},
		{Block: 42, First: 1300, Count: 10, State: PackVoid},
		{Block: 41, First: 0, Count: 20, State: PackDelivered},
		{Block: 43, First: 5, Count: 1, State: PackVoid}, // void everywhere, not delivered here
	}}
}

func TestStatusRoundTrip(t *testing.T) {
	pub, priv := testKey(t)
	data, err := MarshalStatus(testStatus(), priv)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) != statusHeaderSize+5*statusRecordSize+signatureSize {
		t.Fatalf("%d bytes", len(data))
	}
	s, err := ParseStatus(data, NewTrustStore(pub))
	if err != nil {
		t.Fatal(err)
	}
	if s.Retailer != 7001 || s.Version != 3 || s.Issued != 1_780_000_000 || len(s.Ranges) != 5 || s.KeyID() != IDOf(pub) {
		t.Fatalf("%+v", s)
	}
	cases := []struct {
		block    uint16
		pack     uint32
		state    PackState
		sellable bool
		void     bool
	}{
		{42, 999, PackUnlisted, false, false},
		{42, 1000, PackDelivered, true, false},
		{42, 1199, PackDelivered, true, false},
		{42, 1200, PackStolen, false, true},
		{42, 1201, PackDelivered, true, false},
		{42, 1300, PackVoid, false, true},
		{42, 1309, PackVoid, false, true},
		{42, 1310, PackDelivered, true, false},
		{42, 1499, PackDelivered, true, false},
		{42, 1500, PackUnlisted, false, false},
		{41, 0, PackDelivered, true, false},
		{41, 19, PackDelivered, true, false},
		{41, 20, PackUnlisted, false, false},
		{43, 5, PackVoid, false, true},
		{43, 4, PackUnlisted, false, false},
		{44, 1000, PackUnlisted, false, false},
		{1, 0, PackUnlisted, false, false},
	}
	for _, c := range cases {
		if st := s.State(c.block, c.pack); st != c.state || s.Sellable(c.block, c.pack) != c.sellable || s.Void(c.block, c.pack) != c.void {
			t.Errorf("%d/%d: %v sellable %v void %v, want %v %v %v", c.block, c.pack, st, s.Sellable(c.block, c.pack), s.Void(c.block, c.pack), c.state, c.sellable, c.void)
		}
	}
	// Same list, same bytes (canonical order whatever the input order).
	again, _ := MarshalStatus(s, priv)
	if !bytes.Equal(again, data) {
		t.Fatal("re-marshalled list differs")
	}
}

func TestStatusRefusals(t *testing.T) {
	pub, priv := testKey(t)
	other, _ := testKey(t)
	data, _ := MarshalStatus(testStatus(), priv)
	for off := range data {
		d := bytes.Clone(data)
		d[off] ^= 0x04
		if _, err := ParseStatus(d, NewTrustStore(pub)); err == nil {
			t.Fatalf("byte %d flipped: accepted", off)
		}
	}
	if _, err := ParseStatus(data, NewTrustStore(other)); !errors.Is(err, ErrUntrustedKey) {
		t.Errorf("other key: %v", err)
	}
	if _, err := ParseStatus(data, nil); !errors.Is(err, ErrNoTrustedKey) {
		t.Errorf("no key: %v", err)
	}
	d := bytes.Clone(data)
	binary.BigEndian.PutUint16(d[8:], 2)
	if _, err := ParseStatus(d, NewTrustStore(pub)); !errors.Is(err, ErrFormatVersion) {
		t.Errorf("format version 2: %v", err)
	}
	// Signed but not canonical: two records swapped and re-signed.
	d = bytes.Clone(data[:len(data)-signatureSize])
	r0 := bytes.Clone(d[statusHeaderSize : statusHeaderSize+statusRecordSize])
	copy(d[statusHeaderSize:], d[statusHeaderSize+statusRecordSize:statusHeaderSize+2*statusRecordSize])
	copy(d[statusHeaderSize+statusRecordSize:], r0)
	d = append(d, ed25519.Sign(priv, d)...)
	if _, err := ParseStatus(d, NewTrustStore(pub)); !errors.Is(err, ErrFormat) {
		t.Errorf("records out of order: %v", err)
	}
	for name, rs := range map[string][]PackRange{
		"overlap":     {{Block: 1, First: 0, Count: 10, State: PackDelivered}, {Block: 1, First: 9, Count: 1, State: PackDelivered}},
		"void+stolen": {{Block: 1, First: 0, Count: 10, State: PackVoid}, {Block: 1, First: 5, Count: 1, State: PackStolen}},
		"empty":       {{Block: 1, First: 0, Count: 0, State: PackDelivered}},
		"past block":  {{Block: 1, First: 1_499_999, Count: 2, State: PackDelivered}},
		"block 0":     {{Block: 0, First: 0, Count: 1, State: PackDelivered}},
		"state":       {{Block: 1, First: 0, Count: 1, State: PackUnlisted}},
	} {
		if _, err := MarshalStatus(&StatusList{Retailer: 1, Version: 1, Ranges: rs}, priv); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestInstallStatus(t *testing.T) {
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	src, dir := t.TempDir(), t.TempDir()
	write := func(name string, retailer uint32, version uint64) string {
		s := testStatus()
		s.Retailer, s.Version = retailer, version
		p := filepath.Join(src, name)
		if err := WriteStatus(p, s, priv); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Pinned from the first list on: with nothing installed, another retailer's list is
	// refused, and so is a terminal with no retailer id.
	if _, err := InstallStatus(dir, write("z", 7002, 9), trust, 7001); !errors.Is(err, ErrRetailer) {
		t.Fatalf("first list, other retailer: %v", err)
	}
	if _, err := InstallStatus(dir, write("z0", 7001, 9), trust, 0); !errors.Is(err, ErrRetailer) {
		t.Fatalf("no retailer id: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, StatusFileName)); err == nil {
		t.Fatal("a refused list was installed")
	}
	if res, err := InstallStatus(dir, write("a", 7001, 5), trust, 7001); err != nil || res.HadPrevious || res.Version != 5 {
		t.Fatalf("first: %+v %v", res, err)
	}
	if _, err := InstallStatus(dir, write("b", 7001, 4), trust, 7001); !errors.Is(err, ErrOlderVersion) {
		t.Fatalf("older: %v", err)
	}
	if _, err := InstallStatus(dir, write("c", 7002, 9), trust, 7001); !errors.Is(err, ErrRetailer) {
		t.Fatalf("other retailer: %v", err)
	}
	if res, err := InstallStatus(dir, write("d", 7001, 6), trust, 7001); err != nil || res.Previous != 5 {
		t.Fatalf("newer: %+v %v", res, err)
	}
	s, err := LoadStatus(filepath.Join(dir, StatusFileName), trust)
	if err != nil || s.Version != 6 {
		t.Fatalf("installed: %+v %v", s, err)
	}
	p := write("e", 7001, 7)
	d, _ := os.ReadFile(p)
	d[len(d)-1] ^= 1
	os.WriteFile(p, d, 0o644)
	if _, err := InstallStatus(dir, p, trust, 7001); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("bad signature: %v", err)
	}
	if s, _ := LoadStatus(filepath.Join(dir, StatusFileName), trust); s.Version != 6 {
		t.Fatal("installed list changed by a refused install")
	}
}

// TestInstallStatusSourceRewritten: a status list rewritten in place between version 6
// and version 1 during installs never rolls the installed list back, and an install that
// succeeds installed what it reports.
func TestInstallStatusSourceRewritten(t *testing.T) {
	pub, priv := testKey(t)
	trust := NewTrustStore(pub)
	list := func(v uint64) []byte {
		s := testStatus()
		s.Version = v
		d, err := MarshalStatus(s, priv)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	v6, v1 := list(6), list(1)
	src, dir := filepath.Join(t.TempDir(), "src.list"), t.TempDir()
	os.WriteFile(src, v6, 0o644)
	if _, err := InstallStatus(dir, src, trust, 7001); err != nil {
		t.Fatal(err)
	}
	rewriteWhileInstalling(t, src, [][]byte{v1, v6}, 40, func() {
		res, err := InstallStatus(dir, src, trust, 7001)
		s, lerr := LoadStatus(filepath.Join(dir, StatusFileName), trust)
		if lerr != nil || s.Version != 6 {
			t.Fatalf("installed list %+v, %v after an install (%+v, %v)", s, lerr, res, err)
		}
		if err == nil && res.Version != 6 {
			t.Fatalf("install reports version %d", res.Version)
		}
	})
}
