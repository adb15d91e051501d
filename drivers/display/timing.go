package display

import "time"

// Timing holds the delays the driver keeps. The datasheet values are minimums at
// fcp = 270 kHz; clones run their oscillators slower, so the defaults carry a margin.
type Timing struct {
	// PowerOn is waited before the first instruction: "Wait for more than 40 ms after
	// VCC rises to 2.7 V" (15 ms at 4.5 V).
	PowerOn time.Duration
	// InitStep1 follows the first 0x3 nibble of the handshake: "Wait for more than 4.1 ms".
	InitStep1 time.Duration
	// InitStep2 follows the second 0x3 nibble: "Wait for more than 100 µs".
	InitStep2 time.Duration
	// Exec follows every other instruction and data write: 37 µs at 270 kHz.
	Exec time.Duration
	// ExecSlow follows clear display and return home: 1.52 ms at 270 kHz.
	ExecSlow time.Duration
	// EnableHigh is the E pulse width PWEH: ≥ 450 ns at 3 V (230 ns at 5 V).
	EnableHigh time.Duration
	// EnableCycle is the E cycle tcycE, rise to rise: ≥ 1000 ns at 3 V (500 ns at 5 V).
	EnableCycle time.Duration
	// DataDelay is waited after E rises before a read samples D4–D7 (R/W wired only): the
	// data delay tDDR is ≤ 360 ns at 3 V (160 ns at 5 V). Zero means the default. E stays
	// high for the longer of DataDelay and EnableHigh.
	DataDelay time.Duration
}

// DefaultTiming returns the datasheet's 3 V minimums with margin: +25 % on power-on and
// the handshake waits, and execution times for a clone clocked at 190 kHz (×1.42).
func DefaultTiming() Timing {
	return Timing{
		PowerOn:     50 * time.Millisecond,
		InitStep1:   5 * time.Millisecond,
		InitStep2:   150 * time.Microsecond,
		Exec:        53 * time.Microsecond,
		ExecSlow:    2160 * time.Microsecond,
		EnableHigh:  1 * time.Microsecond,
		EnableCycle: 2 * time.Microsecond,
		DataDelay:   500 * time.Nanosecond,
	}
}
