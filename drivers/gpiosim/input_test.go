package gpiosim_test

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/gpiosim"
)

func TestInput(t *testing.T) {
	clk := clockwork.NewFakeClock()
	in := gpiosim.NewInput("OK", 1, false, clk) // active low
	if in.Read() != gpio.High {
		t.Error("released active-low contact reads low")
	}
	in.Press()
	// A pull-down asked for by mistake does not override a contact (In flushes edges).
	if err := in.In(gpio.PullDown, gpio.BothEdges); err != nil {
		t.Fatal(err)
	}
	if in.Read() != gpio.Low || !in.Active() {
		t.Error("pressed contact lost its level on In")
	}
	in.Release()
	if !in.WaitForEdge(time.Second) || in.Read() != gpio.High {
		t.Error("release edge not delivered")
	}
	in.Bounce(2)
	for i := range 5 { // queued edges come without waiting on the (fake) clock
		if !in.WaitForEdge(time.Hour) {
			t.Fatalf("edge %d missing", i)
		}
	}
	if len(in.EdgesChan) != 0 || in.Read() != gpio.Low {
		t.Errorf("bounce left %d edges, level %v", len(in.EdgesChan), in.Read())
	}
}
