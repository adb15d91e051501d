package ledger

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

var updateCorpus = flag.Bool("update-corpus", false, "rewrite the checked-in fuzz seed corpora (testdata/fuzz)")

var (
	fuzzOnce sync.Once
	fuzzPub  ed25519.PublicKey
	fuzzPriv ed25519.PrivateKey
)

// fuzzKey is one key per test process: seeds signed with it verify, so the fuzzer starts
// from files that pass every check; the checked-in corpus was signed by a discarded key.
func fuzzKey(tb testing.TB) (ed25519.PublicKey, ed25519.PrivateKey) {
	fuzzOnce.Do(func() { fuzzPub, fuzzPriv = testKey(tb) })
	return fuzzPub, fuzzPriv
}

// sentinels are the errors a reader may fail with.
var sentinels = []error{ErrNoTrustedKey, ErrUntrustedKey, ErrBadSignature, ErrHash, ErrFormat, ErrFormatVersion}

// checkClearError fails unless err wraps one of the sentinels and says it comes from us.
func checkClearError(t *testing.T, err error) {
	t.Helper()
	if !strings.HasPrefix(err.Error(), "ledger: ") {
		t.Fatalf("error without the package prefix: %v", err)
	}
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error wraps none of the sentinels: %v", err)
}

func ledgerSeeds(tb testing.TB, priv ed25519.PrivateKey) [][]byte {
	b := newTestBlock(tb, 42, 3, 1)
	data, err := marshalChunked(b.h, b.entries, priv, 4)
	if err != nil {
		tb.Fatal(err)
	}
	fh, _ := parseHeader(data)
	flipped := bytes.Clone(data)
	flipped[fh.dataOff+2] ^= 1
	format1 := bytes.Clone(data)
	format1[9] = 1
	return [][]byte{data, data[:fixedHeaderSize], data[:len(data)-1], flipped, []byte(Magic), []byte("PTLEDGER\x00\x02"), format1, {}}
}

func FuzzLedger(f *testing.F) {
	pub, priv := fuzzKey(f)
	trust := NewTrustStore(pub)
	for _, s := range ledgerSeeds(f, priv) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		l, err := Parse(data, trust)
		if err != nil {
			checkClearError(t, err)
		} else {
			h := l.Header()
			for pos := uint8(0); pos <= codes.TicketsPerPack+1; pos++ {
				_, err := l.Lookup(codes.ValidationCode{Block: h.Block, Pack: h.Packs - 1, Position: pos})
				if err != nil && !errors.Is(err, ErrForged) && !errors.Is(err, ErrOutOfRange) {
					t.Fatalf("lookup: %v", err)
				}
			}
			l.Close()
		}
		if info, err := inspectStream(bytes.NewReader(data), int64(len(data)), trust, true); err == nil {
			if l, err := Parse(data, trust); err != nil {
				t.Fatalf("the streaming verifier accepts what Parse refuses: %v", err)
			} else {
				l.Close()
			}
			if info.Signature != nil || info.Hashes != nil {
				t.Fatalf("strict stream verify with errors in the info: %+v", info)
			}
		} else {
			checkClearError(t, err)
		}
		if info, err := Inspect(data, trust); err != nil {
			checkClearError(t, err)
		} else if info.Entries() != int(info.Packs)*info.Definition.TicketsPerPack {
			t.Fatalf("inspect: %d entries for %d packs", info.Entries(), info.Packs)
		}
		if !bytes.Equal(in, data) {
			t.Fatal("the reader changed its input")
		}
	})
}

func statusSeeds(tb testing.TB, priv ed25519.PrivateKey) [][]byte {
	data, err := MarshalStatus(testStatus(), priv)
	if err != nil {
		tb.Fatal(err)
	}
	empty, _ := MarshalStatus(&StatusList{Retailer: 1, Version: 1}, priv)
	return [][]byte{data, empty, data[:statusHeaderSize], []byte(StatusMagic), []byte("PTSTATUS\x00\x09"), {}}
}

func FuzzStatusList(f *testing.F) {
	pub, priv := fuzzKey(f)
	trust := NewTrustStore(pub)
	for _, s := range statusSeeds(f, priv) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := bytes.Clone(data)
		s, err := ParseStatus(data, trust)
		if err != nil {
			checkClearError(t, err)
		} else {
			for _, r := range s.Ranges {
				if st := s.State(r.Block, r.First); st == PackUnlisted || (r.State != PackDelivered && st != r.State) {
					t.Fatalf("range %+v: first pack is %v", r, st)
				}
			}
		}
		if s2, _, err := InspectStatus(data, trust); err != nil {
			checkClearError(t, err)
		} else {
			s2.Sellable(42, 1000)
			s2.Void(42, 1000)
		}
		if !bytes.Equal(in, data) {
			t.Fatal("the reader changed its input")
		}
	})
}

func keySeeds(tb testing.TB) [][]byte {
	pub, priv := testKey(tb)
	return [][]byte{MarshalPublicKey(pub, "operator"), MarshalPrivateKey(priv, ""), []byte(PublicKeyType + " AAAA\n"), []byte("\n\n"), {}}
}

// FuzzKeyFile: key files are read with a clear error (ErrKeyFile) or give a key that
// writes back to the same line.
func FuzzKeyFile(f *testing.F) {
	for _, s := range keySeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if k, err := ParsePublicKey(text); err != nil {
			if !errors.Is(err, ErrKeyFile) {
				t.Fatalf("public key: %v", err)
			}
		} else if k2, err := ParsePublicKey(MarshalPublicKey(k, "c")); err != nil || !k2.Equal(k) {
			t.Fatalf("public key does not round-trip: %v", err)
		}
		if k, err := ParsePrivateKey(text); err != nil {
			if !errors.Is(err, ErrKeyFile) {
				t.Fatalf("private key: %v", err)
			}
		} else if k2, err := ParsePrivateKey(MarshalPrivateKey(k, "")); err != nil || !k2.Equal(k) {
			t.Fatalf("private key does not round-trip: %v", err)
		}
	})
}

// TestWriteFuzzCorpus rewrites testdata/fuzz/Fuzz{Ledger,StatusList,KeyFile} when run with
// -update-corpus (signed by a key drawn for the occasion and discarded).
func TestWriteFuzzCorpus(t *testing.T) {
	if !*updateCorpus {
		t.Skip("run with -update-corpus to rewrite the seed corpora")
	}
	_, priv := testKey(t)
	seeds := map[string][][]byte{"FuzzLedger": ledgerSeeds(t, priv), "FuzzStatusList": statusSeeds(t, priv), "FuzzKeyFile": keySeeds(t)}
	// The checked-in corpus holds no private key: a private key line of the wrong length
	// stands in for it (the f.Add seeds give the fuzzer a valid one at run time).
	seeds["FuzzKeyFile"][1] = []byte(PrivateKeyType + " AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd not-a-key\n")
	for name, seeds := range seeds {
		dir := filepath.Join("testdata", "fuzz", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			text := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", s)
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i+1)), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
