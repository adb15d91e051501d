package fleet

import (
	"errors"
	"fmt"
	"testing"
)

func TestDecide(t *testing.T) {
	taken := &TakenError{Holder: Claim{Terminal: "T9"}}
	for _, c := range []struct {
		err    error
		amount int64
		want   Decision
	}{
		{nil, 50000, Pay},
		{fmt.Errorf("x: %w", taken), 100, RefusePaidElsewhere},
		{fmt.Errorf("claim: %w", ErrOffline), 10000, PayUnconfirmed},
		{fmt.Errorf("claim: %w", ErrOffline), 10001, RefuseOffline},
		{errors.New("bad reply"), 100, RefuseError},
	} {
		d, h := Decide(c.err, c.amount, 10000)
		if d != c.want || (d == RefusePaidElsewhere) != (h != nil) {
			t.Errorf("Decide(%v, %d) = %v %v, want %v", c.err, c.amount, d, h, c.want)
		}
	}
}
