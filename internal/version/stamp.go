package version

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Stamp is the version and commit a binary was built with.
type Stamp struct {
	Version, Commit string
}

// Errors of FromBinary.
var (
	ErrNoStamp       = errors.New("version: no version stamp in the binary (not built by scripts/build.sh)")
	ErrSeveralStamps = errors.New("version: several different version stamps in the binary")
)

const (
	stampPrefix = "@(#)pos-stamp;version="
	stampCommit = ";commit="
	maxField    = 64
	maxStamp    = len(stampPrefix) + maxField + len(stampCommit) + maxField + 1
)

// StampValue is the value scripts/build.sh gives the stamp (-X …version.stamp=VALUE) for
// version and commit; tests use it to make fake binaries.
func StampValue(version, commit string) string {
	return stampPrefix + version + stampCommit + commit + ";"
}

// field reads [A-Za-z0-9._+-]{1,64} at the start of b, ended by end.
func field(b []byte, end string) (string, []byte, bool) {
	n := 0
	for n < len(b) && n < maxField && isFieldByte(b[n]) {
		n++
	}
	if n == 0 || !bytes.HasPrefix(b[n:], []byte(end)) {
		return "", nil, false
	}
	return string(b[:n]), b[n+len(end):], true
}

func isFieldByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '+' || c == '-'
}

// parseStamp reads a stamp at the start of b.
func parseStamp(b []byte) (Stamp, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(stampPrefix))
	if !ok {
		return Stamp{}, false
	}
	v, rest, ok := field(rest, stampCommit)
	if !ok {
		return Stamp{}, false
	}
	c, _, ok := field(rest, ";")
	if !ok {
		return Stamp{}, false
	}
	return Stamp{Version: v, Commit: c}, true
}

// FromBinary finds the stamp in a binary without running it (any architecture): every
// well-formed stamp in r must be the same one (ErrSeveralStamps otherwise); none is
// ErrNoStamp. It reads r once, in chunks.
func FromBinary(r io.Reader) (Stamp, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var found *Stamp
	buf := make([]byte, 0, 1<<20+maxStamp)
	chunk := make([]byte, 1<<20)
	for {
		n, err := io.ReadFull(br, chunk)
		buf = append(buf, chunk[:n]...)
		last := err != nil
		// Stamps starting before keep are complete in buf unless more data follows.
		keep := len(buf)
		if !last {
			keep = max(0, len(buf)-maxStamp)
		}
		for i := 0; i < keep; {
			j := bytes.Index(buf[i:keep], []byte(stampPrefix))
			if j < 0 {
				break
			}
			if s, ok := parseStamp(buf[i+j:]); ok {
				if found != nil && *found != s {
					return Stamp{}, fmt.Errorf("%w: %s and %s", ErrSeveralStamps, found.Version, s.Version)
				}
				found = &s
			}
			i += j + 1
		}
		if last {
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				return Stamp{}, fmt.Errorf("version: reading the binary: %w", err)
			}
			break
		}
		buf = append(buf[:0], buf[keep:]...)
	}
	if found == nil {
		return Stamp{}, ErrNoStamp
	}
	return *found, nil
}
