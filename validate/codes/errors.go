package codes

import (
	"errors"
	"fmt"
)

// Sentinel errors; every parse failure is an *Error that wraps exactly one of them, so
// callers test with errors.Is and show Error() to explain.
var (
	ErrEmpty        = errors.New("empty code")
	ErrLength       = errors.New("wrong length")
	ErrCharacter    = errors.New("invalid character")
	ErrCheck        = errors.New("bad check character")
	ErrRange        = errors.New("field out of range")
	ErrInconsistent = errors.New("inconsistent fields")
	ErrVersion      = errors.New("unknown format version")
	ErrUnknownKind  = errors.New("unknown kind of code")
	ErrSymbology    = errors.New("symbology carries none of our codes")
)

// Error is a precise parse or format failure: which kind of code (KindUnknown when it could
// not be told), the sentinel that classifies it and a human detail (never the full code, so
// that a validation code cannot leak through a log line).
type Error struct {
	Kind   Kind
	Err    error
	Detail string
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("codes: %s: %v", e.Kind.noun(), e.Err)
	}
	return fmt.Sprintf("codes: %s: %v: %s", e.Kind.noun(), e.Err, e.Detail)
}

func (e *Error) Unwrap() error { return e.Err }

func fail(k Kind, err error, format string, args ...any) error {
	return &Error{Kind: k, Err: err, Detail: fmt.Sprintf(format, args...)}
}
