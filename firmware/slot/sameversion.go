package slot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/packterm/pos/firmware/bundle"
)

// ErrSameVersion: a bundle of the newest version ever installed whose content differs
// from the one installed under that version. A version names one content: installing the
// same bundle again is fine, another one under the same number is refused.
var ErrSameVersion = errors.New("slot: another bundle of the newest version installed (same version, other content)")

// hwManifestFile holds the digest (hex SHA-256) of the manifest installed under the
// high-water version, next to the high-water mark.
const hwManifestFile = "highwater.manifest"

func (s *Store) hwManifestPath() string { return filepath.Join(s.root, hwManifestFile) }

// manifestDigest identifies a bundle's content: the SHA-256 of its manifest in canonical
// form (the version, target and every file with its size and digest).
func manifestDigest(m *bundle.Manifest) (string, error) {
	b, err := m.Marshal()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// checkSameVersion refuses a bundle of the high-water version whose content is not the one
// installed under it: the digest kept at install, or, for a store installed before it was
// kept, a slot's header of that version. None known (that version's slots overwritten
// since): refused, fail closed.
func (s *Store) checkSameVersion(st State, m *bundle.Manifest) error {
	if m.Version != st.HighWater {
		return nil
	}
	d, err := manifestDigest(m)
	if err != nil {
		return err
	}
	known := s.contentOf(m.Version)
	if slices.Contains(known, d) {
		return nil
	}
	was := "unknown"
	if len(known) > 0 {
		was = fmt.Sprintf("%.16q", known[0]) // as read: the file may hold anything
	}
	return fmt.Errorf("slot: version %v already installed with manifest %s, this bundle's is %.16s…: %w",
		m.Version, was, d, ErrSameVersion)
}

// contentOf is the manifest digests installed under version v: the one kept at install
// when there is one, else those of the slots' headers of that version.
func (s *Store) contentOf(v bundle.Version) []string {
	if b, err := readSmall(s.hwManifestPath(), 256); err == nil {
		return []string{string(bytes.TrimSpace(b))}
	}
	var known []string
	for _, sl := range []string{A, B} {
		if h, err := s.SlotHeader(sl); err == nil && h.Manifest.Version == v {
			if hd, err := manifestDigest(h.Manifest); err == nil {
				known = append(known, hd)
			}
		}
	}
	return known
}

// keepManifest records m's digest as the high-water version's content.
func (s *Store) keepManifest(m *bundle.Manifest) error {
	d, err := manifestDigest(m)
	if err != nil {
		return err
	}
	if err := s.disk.replace(s.hwManifestPath(), []byte(d+"\n")); err != nil {
		return fmt.Errorf("slot: install: high-water manifest: %w", err)
	}
	return nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
