package slot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/packterm/pos/firmware/bundle"
)

// Slot names.
const (
	A = "a"
	B = "b"
)

// MaxStateSize bounds the state file read from disk.
const MaxStateSize = 4096

// ErrState is wrapped when the state file cannot be read or is malformed.
var ErrState = errors.New("slot: bad state file")

// State is what ROOT/state holds.
type State struct {
	Active    string         `json:"active"`             // slot to boot: "a", "b" or "" (nothing installed)
	Previous  string         `json:"previous,omitempty"` // slot to fall back to, "" when none
	Trial     bool           `json:"trial,omitempty"`    // Active has not been marked good yet
	Boots     int            `json:"boots,omitempty"`    // starts of Active while on trial
	HighWater bundle.Version `json:"high_water"`         // newest version ever installed
}

func other(s string) string {
	if s == A {
		return B
	}
	return A
}

func validSlot(s string, empty bool) bool { return s == A || s == B || (empty && s == "") }

// ParseState decodes and checks a state file.
func ParseState(b []byte) (State, error) {
	if len(b) > MaxStateSize {
		return State{}, fmt.Errorf("slot: state: %d bytes: %w", len(b), ErrState)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var s State
	if err := d.Decode(&s); err != nil {
		return State{}, fmt.Errorf("slot: state: %v: %w", err, ErrState)
	}
	if _, err := d.Token(); err != io.EOF {
		return State{}, fmt.Errorf("slot: state: data after the object: %w", ErrState)
	}
	if !validSlot(s.Active, true) || !validSlot(s.Previous, true) || (s.Previous != "" && s.Previous == s.Active) ||
		(s.Active == "" && (s.Previous != "" || s.Trial)) || s.Boots < 0 || s.Boots > 1000 || (!s.Trial && s.Boots != 0) {
		return State{}, fmt.Errorf("slot: state: inconsistent %+v: %w", s, ErrState)
	}
	return s, nil
}

// Marshal encodes a state.
func (s State) Marshal() []byte {
	b, _ := json.Marshal(s)
	return append(b, '\n')
}
