package scanner

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Linux input event types and codes used here (linux/input-event-codes.h).
const (
	evSyn = 0x00
	evKey = 0x01

	synDropped = 3 // the kernel's event buffer overflowed: events were lost

	keyReleased = 0
	keyPressed  = 1
	keyRepeated = 2 // the kernel's software autorepeat
)

// InputEvent is one struct input_event: a time stamp (struct timeval), a type, a code and a
// value. For EV_KEY, Code is the key (KEY_*) and Value 0 released, 1 pressed, 2 repeated.
type InputEvent struct {
	Sec, Usec int64
	Type      uint16
	Code      uint16
	Value     int32
}

// EventSize is the size of struct input_event for a machine word of word bytes: two longs of
// time stamp then u16, u16, s32, so 24 bytes on amd64 and arm64, 16 on 32-bit ARM.
func EventSize(word int) int { return 2*word + 8 }

// NativeWord is this machine's word size in bytes (the long of struct timeval).
const NativeWord = bits.UintSize / 8

// EventDecoder cuts a byte stream into input events. The kernel returns whole events from
// each read of an evdev node; a recording replayed through a pipe may split them, so a
// partial event is kept for the next Feed. Any byte sequence decodes: an evdev stream has no
// framing to check, the key decoder judges the events.
type EventDecoder struct {
	word    int
	pending []byte
}

// NewEventDecoder decodes events of a word size of 4 or 8 bytes (0: NativeWord).
func NewEventDecoder(word int) (*EventDecoder, error) {
	if word == 0 {
		word = NativeWord
	}
	if word != 4 && word != 8 {
		return nil, fmt.Errorf("scanner: evdev: word size %d (4 or 8)", word)
	}
	return &EventDecoder{word: word}, nil
}

// Size is the size of one event.
func (d *EventDecoder) Size() int { return EventSize(d.word) }

// Reset drops a partial event (the device was reopened).
func (d *EventDecoder) Reset() { d.pending = d.pending[:0] }

// Feed decodes the whole events in the bytes kept from before and b, appending them to out.
func (d *EventDecoder) Feed(out []InputEvent, b []byte) []InputEvent {
	size := d.Size()
	if len(d.pending) > 0 {
		need := size - len(d.pending)
		if len(b) < need {
			d.pending = append(d.pending, b...)
			return out
		}
		d.pending = append(d.pending, b[:need]...)
		out = append(out, d.decode(d.pending))
		d.pending, b = d.pending[:0], b[need:]
	}
	for len(b) >= size {
		out = append(out, d.decode(b[:size]))
		b = b[size:]
	}
	d.pending = append(d.pending, b...)
	return out
}

func (d *EventDecoder) decode(b []byte) InputEvent {
	var e InputEvent
	if d.word == 8 {
		e.Sec, e.Usec = int64(binary.NativeEndian.Uint64(b)), int64(binary.NativeEndian.Uint64(b[8:]))
	} else {
		e.Sec, e.Usec = int64(int32(binary.NativeEndian.Uint32(b))), int64(int32(binary.NativeEndian.Uint32(b[4:])))
	}
	t := b[2*d.word:]
	e.Type = binary.NativeEndian.Uint16(t)
	e.Code = binary.NativeEndian.Uint16(t[2:])
	e.Value = int32(binary.NativeEndian.Uint32(t[4:]))
	return e
}

// AppendEvent encodes e as struct input_event for a word size of 4 or 8 bytes (recordings).
func AppendEvent(b []byte, word int, e InputEvent) []byte {
	if word == 8 {
		b = binary.NativeEndian.AppendUint64(b, uint64(e.Sec))
		b = binary.NativeEndian.AppendUint64(b, uint64(e.Usec))
	} else {
		b = binary.NativeEndian.AppendUint32(b, uint32(e.Sec))
		b = binary.NativeEndian.AppendUint32(b, uint32(e.Usec))
	}
	b = binary.NativeEndian.AppendUint16(b, e.Type)
	b = binary.NativeEndian.AppendUint16(b, e.Code)
	return binary.NativeEndian.AppendUint32(b, uint32(e.Value))
}
