package flash

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// Frame layout constants.
const (
	sync0, sync1 = 0xF7, 0x5A
	headerLen    = 5 // sync, type, length
	trailerLen   = 4 // CRC-32C
	// MaxPayload is the largest frame payload on a serial link: a Data frame's 8-byte
	// offset and a chunk.
	MaxPayload = 8 + MaxChunk
	// MaxChunk is the largest data chunk on a serial link, and the chunk of a terminal
	// that offers none in its HelloOK.
	MaxChunk = 4096
	// MaxNetChunk is the largest data chunk on a network link, which a terminal offers in
	// its HelloOK: TCP loses no byte, so a longer frame costs no resynchronisation, and one
	// chunk in flight at a time makes the transfer as fast as the round trips it takes
	// (under qemu's user network, a 4 KiB chunk per round trip held the rate to 200 – 480
	// KB/s).
	MaxNetChunk = 32 << 10
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrFrame is wrapped by frame decoding errors.
var ErrFrame = errors.New("flash: bad frame")

// Frame is one message on the link.
type Frame struct {
	Type    byte
	Payload []byte
}

// AppendFrame appends the encoding of a frame to b.
func AppendFrame(b []byte, typ byte, payload []byte) []byte {
	b = append(b, sync0, sync1, typ)
	b = binary.BigEndian.AppendUint16(b, uint16(len(payload)))
	b = append(b, payload...)
	c := crc32.Update(0, castagnoli, b[len(b)-len(payload)-3:])
	return binary.BigEndian.AppendUint32(b, c)
}

// FrameReader reads frames from a byte stream, skipping noise and frames whose CRC fails.
type FrameReader struct {
	r       *bufio.Reader
	max     int // the longest payload taken
	Dropped int // frames dropped for a bad length or CRC
}

// NewFrameReader reads frames of at most MaxPayload bytes (a serial link's) from r.
func NewFrameReader(r io.Reader) *FrameReader { return newFrameReader(r, MaxPayload) }

// newFrameReader reads frames of at most max payload bytes from r.
func newFrameReader(r io.Reader, max int) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 2*(headerLen+max+trailerLen)), max: max}
}

// Next returns the next good frame. Its only errors are the underlying reader's.
func (fr *FrameReader) Next() (Frame, error) {
	for {
		b, err := fr.r.Peek(headerLen)
		if err != nil {
			return Frame{}, err
		}
		if b[0] != sync0 || b[1] != sync1 {
			fr.r.Discard(1)
			continue
		}
		n := int(binary.BigEndian.Uint16(b[3:5]))
		if n > fr.max {
			fr.Dropped++
			fr.r.Discard(1)
			continue
		}
		whole, err := fr.r.Peek(headerLen + n + trailerLen)
		if err != nil {
			return Frame{}, err
		}
		got := binary.BigEndian.Uint32(whole[headerLen+n:])
		if crc32.Update(0, castagnoli, whole[2:headerLen+n]) != got {
			fr.Dropped++
			fr.r.Discard(1)
			continue
		}
		f := Frame{Type: whole[2], Payload: append([]byte(nil), whole[headerLen:headerLen+n]...)}
		fr.r.Discard(len(whole))
		return f, nil
	}
}

// errShort reports a payload too short for its message type.
func errShort(what string) error { return fmt.Errorf("flash: %s: short payload: %w", what, ErrFrame) }
