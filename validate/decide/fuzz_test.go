package decide

import (
	"encoding/binary"
	"testing"
)

// inputOf reads an Input from fuzz bytes (missing bytes are zero).
func inputOf(b []byte) Input {
	var buf [52]byte
	copy(buf[:], b)
	i64 := func(o int) int64 { return int64(binary.BigEndian.Uint64(buf[o:])) }
	return Input{
		Ledger: Ledger{Pack: Pack(buf[0]), Lookup: Lookup(buf[1]), Prize: i64(4)},
		Journal: Journal{PaidHere: buf[2]&1 != 0, ClaimedHere: buf[2]&2 != 0, StartedAfresh: buf[2]&4 != 0,
			Exposure: Exposure(buf[3] & 7), DayPayouts: i64(12), Unconfirmed: i64(20)},
		Limits: Limits{PerTicket: i64(28), PerDay: i64(36), OfflinePerTicket: i64(44),
			OfflineTotal: int64(binary.BigEndian.Uint32(buf[48:]))},
		Fleet: Fleet(buf[3] >> 3),
	}
}

// FuzzDecide: on any input, Decide agrees with the oracle (exact arithmetic: no overflow
// pays) and never panics.
func FuzzDecide(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 0, 1 | 6<<3, 0, 0, 0, 0, 0, 0, 0x07, 0xd0})
	f.Add([]byte{0, 1, 4, 1 | 2<<3, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		in := inputOf(b)
		if got, want := Decide(in), oracle(in); got != want {
			t.Fatalf("Decide(%+v) = %v, oracle says %v", in, got, want)
		}
	})
}
