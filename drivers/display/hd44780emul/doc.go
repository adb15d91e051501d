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
// addresses. There is no R/W pin (tied to ground on the board), so the busy flag cannot be
// read and the driver must keep the datasheet's execution times.
package hd44780emul
