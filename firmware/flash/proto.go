package flash

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ProtocolVersion is sent in Hello.
const ProtocolVersion = 1

// Message types.
const (
	tHello   = 'H' // version, token
	tHelloOK = 'O' // version
	tBegin   = 'B' // kind, size u64, sha256
	tResume  = 'R' // offset u64
	tData    = 'D' // offset u64, bytes
	tAck     = 'A' // next offset u64
	tEnd     = 'E' // -
	tDone    = 'F' // text
	tError   = 'X' // code, text
)

// Kind is what a transfer carries.
type Kind byte

// Transfer kinds.
const (
	Firmware Kind = 1 // a signed firmware bundle, installed through firmware/slot
	Config   Kind = 2 // the terminal configuration
	Keys     Kind = 3 // the trusted operator (ledger) keys
	Ledger   Kind = 4 // a signed block ledger
	Status   Kind = 5 // a signed pack status list
)

func (k Kind) String() string {
	switch k {
	case Firmware:
		return "firmware"
	case Config:
		return "config"
	case Keys:
		return "keys"
	case Ledger:
		return "ledger"
	case Status:
		return "status"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// Error codes of an Error frame.
const (
	codeAuth     = 1 // bad or missing token
	codeRefused  = 2 // the item was refused (signature, version, verification)
	codeProtocol = 3 // out of order or malformed
	codeInternal = 4 // the terminal failed (disk…)
	codeBusy     = 5 // another technician's session holds the terminal, or too many connections
)

// Errors the client returns for Error frames.
var (
	ErrAuth     = errors.New("flash: technician token refused")
	ErrRefused  = errors.New("flash: refused by the terminal")
	ErrProtocol = errors.New("flash: protocol error")
	ErrDevice   = errors.New("flash: the terminal failed")
	ErrLink     = errors.New("flash: link lost")
	ErrBusy     = errors.New("flash: the terminal is busy")
)

// MaxTokenSize bounds a technician token.
const MaxTokenSize = 256

type begin struct {
	Kind Kind
	Size int64
	Sum  [32]byte
}

func (b begin) encode() []byte {
	p := []byte{byte(b.Kind)}
	p = binary.BigEndian.AppendUint64(p, uint64(b.Size))
	return append(p, b.Sum[:]...)
}

func decodeBegin(p []byte) (begin, error) {
	if len(p) != 1+8+32 {
		return begin{}, errShort("begin")
	}
	b := begin{Kind: Kind(p[0]), Size: int64(binary.BigEndian.Uint64(p[1:9]))}
	if b.Size < 0 {
		return begin{}, fmt.Errorf("flash: begin: negative size: %w", ErrFrame)
	}
	copy(b.Sum[:], p[9:])
	return b, nil
}

func encodeOffset(off int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(off)) }

// helloOK is a HelloOK's payload: the protocol version, then the largest data chunk the
// terminal takes on this link (uint16 BE). A host of before the chunk reads the version
// only and sends MaxChunk.
func helloOK(chunk int) []byte {
	return binary.BigEndian.AppendUint16([]byte{ProtocolVersion}, uint16(chunk))
}

// offeredChunk is the data chunk a HelloOK offers: MaxChunk when it offers none (a
// terminal of before the chunk) or one outside [MaxChunk, MaxNetChunk].
func offeredChunk(p []byte) int {
	if len(p) < 3 {
		return MaxChunk
	}
	n := int(binary.BigEndian.Uint16(p[1:3]))
	if n < MaxChunk || n > MaxNetChunk {
		return MaxChunk
	}
	return n
}

func decodeOffset(p []byte, what string) (int64, error) {
	if len(p) < 8 {
		return 0, errShort(what)
	}
	off := int64(binary.BigEndian.Uint64(p[:8]))
	if off < 0 {
		return 0, fmt.Errorf("flash: %s: negative offset: %w", what, ErrFrame)
	}
	return off, nil
}

func encodeError(code byte, msg string) []byte {
	if len(msg) > 1000 {
		msg = msg[:1000]
	}
	return append([]byte{code}, msg...)
}

// decodeError turns an Error frame into the client's error.
func decodeError(p []byte) error {
	if len(p) == 0 {
		return fmt.Errorf("flash: empty error frame: %w", ErrProtocol)
	}
	msg := string(p[1:])
	switch p[0] {
	case codeAuth:
		return fmt.Errorf("%w: %s", ErrAuth, msg)
	case codeRefused:
		return fmt.Errorf("%w: %s", ErrRefused, msg)
	case codeInternal:
		return fmt.Errorf("%w: %s", ErrDevice, msg)
	case codeBusy:
		return fmt.Errorf("%w: %s", ErrBusy, msg)
	}
	return fmt.Errorf("%w: %s", ErrProtocol, msg)
}
