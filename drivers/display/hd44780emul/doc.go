// Package hd44780emul is an HD44780U character LCD controller emulated at pin level, for
// tests, CI and `--emulate` runs of the real display driver.
//
// The emulator owns six fake periph pins (RS, E, D4–D7) plus an optional backlight pin. It
// watches E's falling edges, assembles the two nibbles of each 4-bit transfer, follows the
// datasheet's power-on "initialization by instruction" handshake (Hitachi HD44780U
// datasheet, figure 24: 0x3, 0x3, 0x3, 0x2), executes the instruction set (clear display,
// return home, entry mode set, display on/off control, cursor or display shift, function
// set, set CGRAM address, set DDRAM address, data writes to DDRAM and CGRAM) on an 80-byte
// DDRAM and a 64-byte CGRAM, and shows the visible window as text. CGRAM glyphs appear as
// their name in braces ("{€}") when the test has named their bitmaps, "{cgN}" otherwise.
//
// Time comes from an injectable clockwork clock (use gpiosim.Clock for virtual time). The
// emulator reports protocol errors a real panel would punish silently: a write before the
// power-on delay, a handshake step sent too early or skipped, commands before the
// initialisation finished, a transfer while the controller is still busy with the previous
// instruction (37 µs, 1.52 ms for clear and home), an E pulse shorter than PWEH or an E
// cycle shorter than tcycE, RS or data lines changing while E is high, and invalid DDRAM
// addresses.
//
// R/W is tied to ground unless WireRW wires it (RW stays nil otherwise, and the panel
// behaves exactly as a write-only one). With R/W wired and high, each rising edge of E
// makes the emulated controller drive D4–D7 (gpiosim.Pin.Drive) with the next nibble of
// a read, high nibble first (datasheet table 6): "Read busy flag & address" with RS low
// (DB7 busy flag, DB6–DB0 address counter), "Read data from CG or DDRAM" with RS high
// (the byte at the address counter, which then moves as the entry mode says, without
// display shift). It reports what a real panel punishes on reads: the host still driving
// D4–D7 while R/W is high (bus contention), data sampled before tDDR or after E fell, a
// data read while busy or without the set address (or cursor shift) it needs first, and
// a read and a write mixed within one 4-bit transfer.
//
// SetDead emulates a dead or unplugged panel for the tests of the driver's check: writes
// are ignored and reads are not answered, so the host reads what its pull-ups give (all
// high: the busy flag never clears).
package hd44780emul
