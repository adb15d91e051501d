package edkey

import (
	"crypto/ed25519"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/regularfile"
)

// LoadPublic reads a public key file (a regular file: anything else is refused before it
// is read). A private key file given instead is refused, saying so.
func (f Family) LoadPublic(path string) (ed25519.PublicKey, error) {
	text, err := regularfile.ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: load public key: %w", f.Name, err)
	}
	if Type(text) == f.Private {
		return nil, fmt.Errorf("%s: load public key: %s is a private key file; give the public key (the .pub file beside it): %w", f.Name, path, f.Err)
	}
	k, err := f.ParsePublic(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// LoadPrivate reads a private key file. It refuses a file that others than its owner may
// read (mode & 0o077 != 0), and a public key file given instead, saying so.
func (f Family) LoadPrivate(path string) (ed25519.PrivateKey, error) {
	file, _, err := regularfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: load private key: %w", f.Name, err)
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: load private key: %w", f.Name, err)
	}
	text, err := io.ReadAll(io.LimitReader(file, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: load private key: %w", f.Name, err)
	}
	if Type(text) == f.Public {
		return nil, fmt.Errorf("%s: load private key: %s is a public key file; %s: %w", f.Name, path, f.NeedPrivate, f.Err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: load private key: %s: mode %v lets others read it (want 0600): %w", f.Name, path, st.Mode().Perm(), f.Err)
	}
	k, err := f.ParsePrivate(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// Generate draws a key pair from random and writes dir/privName (0600) and dir/pubName
// (0644), both commented "COMMENT ID"; it never overwrites either file, and creates dir
// (0700) when missing.
func (f Family) Generate(dir, privName, pubName, comment string, random io.Reader) (ID, error) {
	pub, priv, err := ed25519.GenerateKey(random)
	if err != nil {
		return ID{}, fmt.Errorf("%s: generate: %w", f.Name, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ID{}, fmt.Errorf("%s: generate: %w", f.Name, err)
	}
	privPath, pubPath := filepath.Join(dir, privName), filepath.Join(dir, pubName)
	for _, p := range []string{privPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return ID{}, fmt.Errorf("%s: generate: %s exists, not overwritten: %w", f.Name, p, fs.ErrExist)
		}
	}
	id := IDOf(pub)
	comment += " " + id.String()
	if err := f.writeNew(privPath, f.MarshalPrivate(priv, comment), 0o600); err != nil {
		return ID{}, err
	}
	if err := f.writeNew(pubPath, f.MarshalPublic(pub, comment), 0o644); err != nil {
		os.Remove(privPath)
		return ID{}, err
	}
	return id, nil
}

// writeNew creates path (failing if it exists), writes data and syncs it and its
// directory (atomicfile.WriteNew); on failure nothing is left behind.
func (f Family) writeNew(path string, data []byte, perm os.FileMode) error {
	if err := atomicfile.WriteNew(path, data, perm); err != nil {
		return fmt.Errorf("%s: write %s: %w", f.Name, path, err)
	}
	return nil
}
