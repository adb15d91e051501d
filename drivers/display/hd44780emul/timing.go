package hd44780emul

import "time"

// Timing holds the minimum delays the emulator enforces. The defaults (Timing3V) are the
// HD44780U datasheet figures for VCC = 2.7–4.5 V at fosc = 270 kHz, the strictest case
// for a 3.3 V board.
type Timing struct {
	PowerOn     time.Duration // power-on to the first instruction: > 40 ms at 2.7 V (15 ms at 4.5 V)
	InitStep1   time.Duration // after the first 0x3 of the handshake: > 4.1 ms
	InitStep2   time.Duration // after the second 0x3: > 100 µs
	Exec        time.Duration // most instructions and data writes: 37 µs
	ExecSlow    time.Duration // clear display and return home: 1.52 ms
	EnableHigh  time.Duration // PWEH, E high pulse width: 450 ns at 3 V (230 ns at 5 V)
	EnableCycle time.Duration // tcycE, E rise to next E rise: 1000 ns at 3 V (500 ns at 5 V)
	DataDelay   time.Duration // tDDR, E rise to read data valid: 360 ns max at 3 V (160 ns at 5 V)
	AddrUpdate  time.Duration // tADD, busy flag clear to address counter updated after a RAM access: 4 µs
}

// Timing3V returns the datasheet minimums at VCC = 2.7–4.5 V.
func Timing3V() Timing {
	return Timing{
		PowerOn:     40 * time.Millisecond,
		InitStep1:   4100 * time.Microsecond,
		InitStep2:   100 * time.Microsecond,
		Exec:        37 * time.Microsecond,
		ExecSlow:    1520 * time.Microsecond,
		EnableHigh:  450 * time.Nanosecond,
		EnableCycle: 1000 * time.Nanosecond,
		DataDelay:   360 * time.Nanosecond,
		AddrUpdate:  4 * time.Microsecond,
	}
}
