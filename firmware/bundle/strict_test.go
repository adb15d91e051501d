package bundle_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/internal/strictjson"
)

// strictEdits turn the good manifest into one another JSON reader could read otherwise
// than this package: keys given twice (last wins in encoding/json) or in another case
// (encoding/json matches case-insensitively), at each level.
var strictEdits = map[string]func(string) string{
	"version twice": func(s string) string {
		return strings.Replace(s, `"format": 1,`, `"format": 1, "version": "9.0.0",`, 1)
	},
	"VERSION": func(s string) string { return strings.Replace(s, `"version"`, `"VERSION"`, 1) },
	"version and VERSION": func(s string) string {
		return strings.Replace(s, `"format": 1,`, `"format": 1, "VERSION": "9.0.0",`, 1)
	},
	"Min_Version": func(s string) string { return strings.Replace(s, `"min_version"`, `"Min_Version"`, 1) },
	"long s":      func(s string) string { return strings.Replace(s, `"version"`, `"ver`+"\u017f"+`ion"`, 1) },
	"target os twice": func(s string) string {
		return strings.Replace(s, `"os": "linux",`, `"os": "linux", "os": "linux",`, 1)
	},
	"target ARCH": func(s string) string { return strings.Replace(s, `"arch"`, `"ARCH"`, 1) },
	"file size twice": func(s string) string {
		return strings.Replace(s, `"size": 9,`, `"size": 9, "size": 9,`, 1)
	},
	"file SHA256": func(s string) string { return strings.Replace(s, `"sha256"`, `"SHA256"`, 1) },
	"files twice": func(s string) string {
		return strings.Replace(s, `"format": 1,`, `"format": 1, "files": [],`, 1)
	},
}

// TestManifestStrictJSON: a manifest with a duplicate key or a key in another case, at
// any level, is refused, also inside a bundle signed by a trusted key.
func TestManifestStrictJSON(t *testing.T) {
	key := bundletest.NewKey()
	m, err := bundletest.Spec{}.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := m.Marshal()
	good := string(raw)
	for name, edit := range strictEdits {
		s := edit(good)
		if s == good {
			t.Errorf("%s: edit did not apply", name)
			continue
		}
		_, err := bundle.ParseManifest([]byte(s))
		if !errors.Is(err, bundle.ErrManifest) || !(errors.Is(err, strictjson.ErrDuplicateKey) || errors.Is(err, strictjson.ErrKeyCase)) {
			t.Errorf("%s: %v", name, err)
			continue
		}
		h := &bundle.Header{Raw: []byte(s)}
		h.Sign(key.Priv)
		if _, err := bundle.NewReader(bytes.NewReader(h.Encode()), key.Trust()); !errors.Is(err, bundle.ErrManifest) {
			t.Errorf("%s: signed bundle: %v", name, err)
		}
	}
}
