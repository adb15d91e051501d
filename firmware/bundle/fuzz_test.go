package bundle_test

import (
	"bytes"
	"encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
)

// FuzzParseManifest: any bytes give a manifest that passes Check, survives a round trip
// and reads the same with plain encoding/json (no duplicate or case-variant key let
// another reader see other values), or an error; never a panic.
func FuzzParseManifest(f *testing.F) {
	m, _ := bundletest.Spec{}.Manifest()
	raw, _ := m.Marshal()
	f.Add(raw)
	f.Add([]byte(`{"format":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := bundle.ParseManifest(b)
		if err != nil {
			return
		}
		if err := m.Check(); err != nil {
			t.Fatalf("parsed manifest fails Check: %v", err)
		}
		// Another reader (plain encoding/json: last key wins, any case) sees the same.
		var lax bundle.Manifest
		if err := json.Unmarshal(b, &lax); err != nil || !reflect.DeepEqual(&lax, m) {
			t.Fatalf("encoding/json reads another manifest: %+v, %v", lax, err)
		}
		out, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bundle.ParseManifest(out); err != nil {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// fuzzKey signs the seed bundles; the fuzzer mutates them, so only mutations outside the
// signed part (or none) can verify.
var fuzzKey = bundletest.NewKey()

// FuzzReader: any bytes are read to an error or to a payload whose every file matched its
// manifest entry; the reader never reads more than the bundle's declared size.
func FuzzReader(f *testing.F) {
	f.Add(fuzzKey.Build(bundletest.Spec{}))
	f.Add(bundletest.Key{}.Build(bundletest.Spec{Version: "3.0.0"}))
	f.Fuzz(func(t *testing.T, b []byte) {
		src := bytes.NewReader(b)
		r, err := bundle.NewUnverifiedReader(src)
		if err != nil {
			return
		}
		total := r.Header().Size()
		for {
			fi, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return
			}
			n, err := io.Copy(io.Discard, r)
			if err != nil {
				return
			}
			if n != fi.Size {
				t.Fatalf("%s: read %d bytes, manifest says %d", fi.Name, n, fi.Size)
			}
			total += n
		}
		if consumed := int64(len(b)) - int64(src.Len()); consumed != total || total != r.Header().BundleSize() {
			t.Fatalf("consumed %d bytes, bundle is %d", consumed, total)
		}
		_, _ = bundle.NewReader(bytes.NewReader(b), fuzzKey.Trust())
	})
}
