// Package display drives HD44780-compatible character LCDs (Hitachi HD44780U and its
// clones: 16×2 and 20×4 panels) in 4-bit mode over six periph gpio.PinOut (RS, E, D4–D7)
// plus an optional backlight pin. R/W is tied to ground, so the busy flag cannot be read:
// the driver keeps the datasheet's execution times on an injectable clock.
//
// Dev implements periph's display.TextDisplay and display.DisplayBacklight and the
// terminal's own Screen (whole-screen updates that send only what changed). Text is
// UTF-8: characters of the A00 ROM are sent as they are, € and the French accented
// letters the ROM lacks are drawn as custom CGRAM glyphs (at most 8 at a time, allocated
// and evicted by the driver per screen), and anything else becomes its plain letter
// (É → E when no glyph slot is left, ’ → ').
//
// References: Hitachi HD44780U (LCD-II) datasheet, ADE-207-272(Z) '99.9 rev 0.0:
// "Initializing by Instruction" (figure 24, 4-bit interface), table 6 (instructions and
// execution times at fcp = 270 kHz), "Bus Timing Characteristics" (PWEH, tcycE) and
// table 4 (character codes, ROM A00).
//
// The emulated panel used by the tests and by `--emulate` runs is in the hd44780emul
// sub-package.
package display
