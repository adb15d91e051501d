package bundle_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/fwkey"
)

func readAll(t *testing.T, b []byte, trust *fwkey.TrustStore) (map[string][]byte, error) {
	t.Helper()
	r, err := bundle.NewReader(bytes.NewReader(b), trust)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for {
		f, err := r.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		files[f.Name] = data
	}
}

func TestRoundTrip(t *testing.T) {
	k := bundletest.NewKey()
	b := k.Build(bundletest.Spec{Version: "2.3.4", Posd: bytes.Repeat([]byte("x"), 100000)})
	files, err := readAll(t, b, k.Trust())
	if err != nil {
		t.Fatal(err)
	}
	if len(files["posd"]) != 100000 || string(files["posctl"]) != "#!posctl\n" || len(files) != 4 {
		t.Fatalf("files: %d, posd %d bytes", len(files), len(files["posd"]))
	}
	r, _ := bundle.NewReader(bytes.NewReader(b), k.Trust())
	if r.Manifest().Version.String() != "2.3.4" || r.Header().BundleSize() != int64(len(b)) {
		t.Fatalf("manifest %+v, size %d of %d", r.Manifest().Version, r.Header().BundleSize(), len(b))
	}
	if err := r.Check(true); err != nil {
		t.Fatal(err)
	}
}

func TestRefusals(t *testing.T) {
	k, other := bundletest.NewKey(), bundletest.NewKey()
	good := k.Build(bundletest.Spec{})
	hdr, _ := bundle.ReadHeader(bytes.NewReader(good))
	cases := map[string]struct {
		b     []byte
		trust *fwkey.TrustStore
		want  error
	}{
		"other key":      {good, other.Trust(), fwkey.ErrUntrusted},
		"no trust":       {good, fwkey.NewTrustStore(), fwkey.ErrNoTrustedKey},
		"unsigned":       {bundletest.Key{}.Build(bundletest.Spec{}), k.Trust(), bundle.ErrUnsigned},
		"bad magic":      {append([]byte("XXXXXXXX"), good[8:]...), k.Trust(), bundle.ErrFormat},
		"truncated":      {good[:len(good)-1], k.Trust(), io.ErrUnexpectedEOF},
		"header cut":     {good[:40], k.Trust(), io.ErrUnexpectedEOF},
		"payload flip":   {flip(good, len(good)-3), k.Trust(), bundle.ErrHash},
		"manifest flip":  {flip(good, 20), k.Trust(), nil},
		"signature flip": {flip(good, int(hdr.Size())-1), k.Trust(), fwkey.ErrBadSignature},
		"huge manifest":  {append([]byte(bundle.Magic), binary.BigEndian.AppendUint32(nil, 1<<30)...), k.Trust(), bundle.ErrFormat},
	}
	for name, c := range cases {
		_, err := readAll(t, c.b, c.trust)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: err %v, want %v", name, err, c.want)
		}
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x01
	return c
}

func TestManifestRefusals(t *testing.T) {
	m, err := bundletest.Spec{}.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := m.Marshal()
	good := string(raw)
	if _, err := bundle.ParseManifest(raw); err != nil {
		t.Fatal(err)
	}
	edits := map[string]func(string) string{
		"unknown field": func(s string) string { return strings.Replace(s, `"format": 1,`, `"format": 1, "extra": true,`, 1) },
		"unknown type":  func(s string) string { return strings.Replace(s, `"type": "config"`, `"type": "script"`, 1) },
		"format 2":      func(s string) string { return strings.Replace(s, `"format": 1`, `"format": 2`, 1) },
		"bad version":   func(s string) string { return strings.Replace(s, `"version": "1.0.0"`, `"version": "1.0"`, 1) },
		"leading zero":  func(s string) string { return strings.Replace(s, `"version": "1.0.0"`, `"version": "1.00.0"`, 1) },
		"min newer": func(s string) string {
			return strings.Replace(s, `"min_version": "0.0.0"`, `"min_version": "2.0.0"`, 1)
		},
		"path name": func(s string) string { return strings.Replace(s, `"name": "posctl"`, `"name": "../posctl"`, 1) },
		"dup name":  func(s string) string { return strings.Replace(s, `"name": "posctl"`, `"name": "posd"`, 1) },
		"no posd":   func(s string) string { return strings.Replace(s, `"type": "posd"`, `"type": "posctl"`, 1) },
		"huge file": func(s string) string { return strings.Replace(s, `"size": 9,`, `"size": 99999999999,`, 1) },
		"trailing":  func(s string) string { return s + "{}" },
		"arm level": func(s string) string { return strings.Replace(s, `"arm": 7`, `"arm": 5`, 1) },
		"upper sha": func(s string) string { return strings.Replace(s, `"sha256": "`, `"sha256": "A`, 1) },
	}
	for name, edit := range edits {
		s := edit(good)
		if s == good {
			t.Errorf("%s: edit did not apply", name)
			continue
		}
		if _, err := bundle.ParseManifest([]byte(s)); !errors.Is(err, bundle.ErrManifest) {
			t.Errorf("%s: err %v", name, err)
		}
	}
}

func TestSignAndVersions(t *testing.T) {
	k := bundletest.NewKey()
	unsigned := bundletest.Key{}.Build(bundletest.Spec{})
	var signed bytes.Buffer
	if err := bundle.Sign(&signed, bytes.NewReader(unsigned), k.Priv); err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(t, signed.Bytes(), k.Trust()); err != nil {
		t.Fatal(err)
	}
	if err := bundle.Sign(io.Discard, bytes.NewReader(flip(unsigned, len(unsigned)-1)), k.Priv); !errors.Is(err, bundle.ErrHash) {
		t.Fatalf("signing a corrupt bundle: %v", err)
	}
	order := []string{"0.0.0", "0.0.9", "0.1.0", "0.10.0", "1.0.0", "1.2.10", "10.0.0"}
	for i := 1; i < len(order); i++ {
		a, _ := bundle.ParseVersion(order[i-1])
		b, _ := bundle.ParseVersion("v" + order[i])
		if !a.Less(b) || b.Less(a) || a.Compare(a) != 0 {
			t.Errorf("%v < %v wrong", a, b)
		}
	}
}
