// Package diag holds the field technician's hardware walk-throughs behind `posctl display
// test` and `posctl io test`: display patterns that show addressing, ROM and custom glyph
// faults at a glance, and a guided test of LEDs, buzzer, drawer, buttons and tamper
// switch. They run the same on a real board and on the emulated one.
package diag
