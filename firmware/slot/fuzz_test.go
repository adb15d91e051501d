package slot_test

import (
	"testing"

	"github.com/packterm/pos/firmware/slot"
)

// FuzzParseState: any state file bytes parse to a consistent state that round-trips, or
// to an error.
func FuzzParseState(f *testing.F) {
	f.Add([]byte(`{"active":"a","previous":"b","trial":true,"boots":2,"high_water":"1.2.3"}`))
	f.Add([]byte(`{"active":"","high_water":"0.0.0"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := slot.ParseState(b)
		if err != nil {
			return
		}
		again, err := slot.ParseState(st.Marshal())
		if err != nil || again != st {
			t.Fatalf("round trip: %+v -> %+v, %v", st, again, err)
		}
	})
}
