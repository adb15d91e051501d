package image

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
)

// memImage is an image in memory.
type memImage struct{ b []byte }

func (m *memImage) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(m.b).ReadAt(p, off)
}

func (m *memImage) WriteAt(p []byte, off int64) (int, error) { return copy(m.b[off:], p), nil }

func testImage(t *testing.T) (*memImage, ed25519.PrivateKey, *fwkey.TrustStore) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	img := &memImage{b: make([]byte, 2<<20)}
	for i := range img.b {
		img.b[i] = byte(i * 7)
	}
	v, _ := bundle.ParseVersion("1.2.3")
	if _, err := Write(img, int64(len(img.b)), v, bundle.Target{OS: "linux", Arch: "arm64", Board: "qemu-virt"}, priv); err != nil {
		t.Fatal(err)
	}
	return img, priv, fwkey.NewTrustStore(pub)
}

// TestSealVerify: a sealed image verifies; a byte changed in a partition, in the MBR or
// in the seal's manifest, a seal by an untrusted key, or a bundle's signature over the
// same manifest, each fails.
func TestSealVerify(t *testing.T) {
	img, _, trust := testImage(t)
	s, err := Verify(img, trust)
	if err != nil {
		t.Fatal(err)
	}
	if s.Manifest.Version.String() != "1.2.3" || s.Manifest.Size != 2<<20 {
		t.Fatalf("manifest %+v", s.Manifest)
	}
	for _, off := range []int{0, 510, SealOffset - 1, SealOffset + SealSize, FirstPartition + 12345, 2<<20 - 1} {
		bad := &memImage{b: bytes.Clone(img.b)}
		bad.b[off] ^= 1
		if _, err := Verify(bad, trust); !errors.Is(err, ErrHash) {
			t.Errorf("byte %d flipped: err %v, want ErrHash", off, err)
		}
	}
	bad := &memImage{b: bytes.Clone(img.b)}
	i := bytes.Index(bad.b[SealOffset:SealOffset+SealSize], []byte(`"1.2.3"`))
	copy(bad.b[SealOffset+i:], `"9.2.3"`)
	if _, err := Verify(bad, trust); err == nil {
		t.Error("version changed in the seal: verified")
	}
	other, _, _ := ed25519.GenerateKey(nil)
	if _, err := Verify(img, fwkey.NewTrustStore(other)); err == nil {
		t.Error("verified against an untrusted key")
	}
	// A bundle signature over the same manifest bytes cannot stand for the image's.
	_, priv, trust2 := testImage(t)
	seal, err := ParseSeal(img.b[SealOffset : SealOffset+SealSize])
	if err != nil {
		t.Fatal(err)
	}
	h := bundle.Header{Raw: seal.Raw}
	h.Sign(priv)
	seal.KeyID, seal.Sig = h.KeyID, h.Sig
	swapped := &memImage{b: bytes.Clone(img.b)}
	copy(swapped.b[SealOffset:], seal.encode())
	if _, err := Verify(swapped, trust2); err == nil {
		t.Error("a bundle signature verified as an image's")
	}
}

// TestUnsealed: an image without a seal, and a truncated one, are refused.
func TestUnsealed(t *testing.T) {
	_, _, trust := testImage(t)
	if _, err := Verify(&memImage{b: make([]byte, 2<<20)}, trust); !errors.Is(err, ErrFormat) {
		t.Errorf("unsealed: %v", err)
	}
	img, _, trust := testImage(t)
	if _, err := Verify(&memImage{b: img.b[:1<<20]}, trust); err == nil {
		t.Error("truncated image verified")
	}
}

func FuzzParseSeal(f *testing.F) {
	img := &memImage{b: make([]byte, 2<<20)}
	_, priv, _ := ed25519.GenerateKey(nil)
	v, _ := bundle.ParseVersion("1.0.0")
	if _, err := Write(img, int64(len(img.b)), v, bundle.Target{OS: "linux", Arch: "arm64", Board: "rpi"}, priv); err != nil {
		f.Fatal(err)
	}
	f.Add(img.b[SealOffset : SealOffset+SealSize])
	f.Add([]byte("PTFWIMG1\x00\x00\x00\x02{}"))
	f.Fuzz(func(t *testing.T, block []byte) {
		s, err := ParseSeal(block)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error without ErrFormat: %v", err)
			}
			return
		}
		if s.Manifest.check() != nil {
			t.Fatal("accepted a manifest its check refuses")
		}
	})
}
