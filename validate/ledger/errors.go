package ledger

import "errors"

// Sentinel errors. Every failure wraps exactly one of them (test with errors.Is); the
// message around it says what failed ("ledger: …: <sentinel>").
var (
	// Trust and integrity: the file is refused, the installed one stays.
	ErrNoTrustedKey  = errors.New("no trusted operator key")
	ErrUntrustedKey  = errors.New("signed by a key that is not trusted")
	ErrBadSignature  = errors.New("bad signature")
	ErrHash          = errors.New("entries do not match the signed hash tree")
	ErrFormat        = errors.New("malformed file")
	ErrFormatVersion = errors.New("unknown format version")
	ErrOlderVersion  = errors.New("older than the installed version")
	ErrRetailer      = errors.New("pack status list is for another retailer")

	// Lookups: what the terminal answers for a code it refuses.
	ErrUnknownBlock = errors.New("unknown block")
	ErrForged       = errors.New("forged code or wrong secret")
	ErrOutOfRange   = errors.New("ticket out of range")
	ErrClosed       = errors.New("ledger closed")

	// Keys.
	ErrKeyFile = errors.New("bad key file")
)
