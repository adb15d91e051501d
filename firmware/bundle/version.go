package bundle

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Version is a firmware version, MAJOR.MINOR.PATCH (semantic versioning without
// pre-release or build suffixes), ordered numerically field by field.
type Version struct {
	Major, Minor, Patch uint32
}

// ParseVersion reads "MAJOR.MINOR.PATCH" (an optional leading "v" is allowed); each part is
// a decimal number without leading zeros.
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(s, "v")
	parts := strings.Split(t, ".")
	if len(parts) != 3 {
		return Version{}, fmt.Errorf("bundle: version %.40q: want MAJOR.MINOR.PATCH: %w", s, ErrManifest)
	}
	var n [3]uint32
	for i, p := range parts {
		if p == "" || len(p) > 10 || (len(p) > 1 && p[0] == '0') || strings.TrimLeft(p, "0123456789") != "" {
			return Version{}, fmt.Errorf("bundle: version %.40q: part %d is not a number: %w", s, i+1, ErrManifest)
		}
		v, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return Version{}, fmt.Errorf("bundle: version %.40q: %w", s, ErrManifest)
		}
		n[i] = uint32(v)
	}
	return Version{n[0], n[1], n[2]}, nil
}

// String is "MAJOR.MINOR.PATCH".
func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// Compare returns -1, 0 or +1 as v is older than, equal to or newer than w.
func (v Version) Compare(w Version) int {
	for _, d := range [3][2]uint32{{v.Major, w.Major}, {v.Minor, w.Minor}, {v.Patch, w.Patch}} {
		if d[0] < d[1] {
			return -1
		}
		if d[0] > d[1] {
			return 1
		}
	}
	return 0
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool { return v.Compare(w) < 0 }

// MarshalJSON writes the version as a string.
func (v Version) MarshalJSON() ([]byte, error) { return json.Marshal(v.String()) }

// UnmarshalJSON reads a version string.
func (v *Version) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("bundle: version: want a string: %w", ErrManifest)
	}
	p, err := ParseVersion(s)
	if err != nil {
		return err
	}
	*v = p
	return nil
}
