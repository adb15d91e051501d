package console

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/packterm/pos/internal/atomicfile"
	"github.com/packterm/pos/internal/regularfile"
)

// TokenFile is the console's login token in the fleet's data directory.
const TokenFile = "console.token"

// tokenLen is the token's length in hex digits (32 random bytes).
const tokenLen = 64

// EnsureToken returns the path of dir's console token and the token, writing a new one
// (0600, a create-new write: never replacing a file) at first start.
func EnsureToken(dir string) (path, token string, err error) {
	path = filepath.Join(dir, TokenFile)
	var b [tokenLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", fmt.Errorf("console: token: %w", err)
	}
	err = atomicfile.WriteNew(path, []byte(hex.EncodeToString(b[:])+"\n"), 0o600)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return "", "", fmt.Errorf("console: token: %w", err)
	}
	token, err = ReadToken(path)
	return path, token, err
}

// ReadToken reads a token file: a regular file of the owner's only (no group or other
// permission), holding 64 hex digits.
func ReadToken(path string) (string, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("console: token: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("console: token %s: mode %v: others may read it (chmod 600)", path, st.Mode().Perm())
	}
	data, err := regularfile.ReadFile(path, 1<<10)
	if err != nil {
		return "", fmt.Errorf("console: token: %w", err)
	}
	tok := strings.TrimSpace(string(data))
	if _, err := hex.DecodeString(tok); err != nil || len(tok) != tokenLen {
		return "", fmt.Errorf("console: token %s: not %d hex digits", path, tokenLen)
	}
	return tok, nil
}
