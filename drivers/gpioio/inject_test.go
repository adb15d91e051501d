package gpioio_test

import (
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/packterm/pos/drivers/gpioio"
	"github.com/packterm/pos/drivers/gpiosim"
	"github.com/packterm/pos/internal/syncbuf"
)

// The tamper switch's edges go to the logger the caller injects, and to no other: the
// process's default logger sees nothing.
func TestInputsLogToTheInjectedLogger(t *testing.T) { synctest.Test(t, testInputsLog) }

func testInputsLog(t *testing.T) {
	var mine, global syncbuf.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&global, nil)))
	defer slog.SetDefault(old)
	in := gpiosim.NewInput("TAMPER", 16, true, nil)
	tp, err := gpioio.NewTamper(in, gpioio.InputOpts{ActiveHigh: true, Pull: gpio.PullUp,
		Logger: slog.New(slog.NewTextHandler(&mine, nil))})
	if err != nil {
		t.Fatal(err)
	}
	watch(t, tp.Run)
	in.Press()
	after(time.Millisecond)
	if !strings.Contains(mine.String(), "tamper switch edge") {
		t.Errorf("injected logger got %q", mine.String())
	}
	if global.String() != "" {
		t.Errorf("default logger got %q", global.String())
	}
}

// The beeps are no shared mutable state: a caller that changes its pattern changes no
// other caller's.
func TestBeepsAreFreshCopies(t *testing.T) {
	for name, beep := range map[string]func() gpioio.Pattern{
		"key": gpioio.BeepKey, "ok": gpioio.BeepOK, "refused": gpioio.BeepRefused, "attention": gpioio.BeepAttention,
	} {
		p := beep()
		want := p[0].On
		p[0].On = time.Hour
		if got := beep()[0].On; got != want || got > 2*time.Second {
			t.Errorf("%s: changed to %v by a caller", name, got)
		}
	}
}
