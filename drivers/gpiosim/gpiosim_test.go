package gpiosim_test

import (
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/gpiosim"
)

func TestClockSleepAdvancesAndFiresTimers(t *testing.T) {
	c := gpiosim.NewClock()
	start := c.Now()
	timer := c.After(15 * time.Millisecond)
	c.Sleep(10 * time.Millisecond)
	select {
	case <-timer:
		t.Fatal("timer fired early")
	default:
	}
	c.Sleep(10 * time.Millisecond)
	select {
	case <-timer:
	default:
		t.Fatal("timer did not fire")
	}
	c.Sleep(-time.Second)
	if got := c.Since(start); got != 20*time.Millisecond {
		t.Errorf("elapsed %v", got)
	}
}

func TestPinRecordsAndNotifies(t *testing.T) {
	c := gpiosim.NewClock()
	p := gpiosim.NewPin("X", 1, c)
	var seen []gpio.Level
	p.OnChange = func(l gpio.Level) { seen = append(seen, l) }
	p.Record = true
	start := c.Now()
	_ = p.Out(gpio.High)
	c.Sleep(time.Millisecond)
	_ = p.Out(gpio.High)
	_ = p.Out(gpio.Low)
	if p.Writes() != 3 || len(seen) != 3 || p.Read() != gpio.Low {
		t.Errorf("writes %d, notified %v, level %v", p.Writes(), seen, p.Read())
	}
	h := p.History()
	if len(h) != 2 || h[0].Level != gpio.High || h[1].At.Sub(start) != time.Millisecond {
		t.Errorf("history %+v", h)
	}
	p.ResetHistory()
	if p.Writes() != 0 || len(p.History()) != 0 {
		t.Error("reset kept something")
	}
}

func TestPinDrivenAsInput(t *testing.T) {
	c := gpiosim.NewClock()
	p := gpiosim.NewPin("D", 2, c)
	var reads []gpio.Level
	p.OnRead = func(l gpio.Level) { reads = append(reads, l) }
	_ = p.Out(gpio.Low)
	p.Drive(gpio.High)
	if p.IsInput() || p.Read() != gpio.Low {
		t.Error("an output reads what the device drives")
	}
	if err := p.In(gpio.PullUp, gpio.NoEdge); err != nil {
		t.Fatal(err)
	}
	p.Drive(gpio.Low)
	if !p.IsInput() || p.Read() != gpio.Low {
		t.Error("input does not read the driven level")
	}
	p.Release()
	if p.Read() != gpio.High {
		t.Error("released input with a pull-up does not read high")
	}
	if len(reads) != 2 || reads[0] != gpio.Low || reads[1] != gpio.High {
		t.Errorf("OnRead saw %v", reads)
	}
	_ = p.Out(gpio.Low)
	if p.IsInput() || p.Writes() != 2 {
		t.Errorf("after Out: input %v, writes %d", p.IsInput(), p.Writes())
	}
}
