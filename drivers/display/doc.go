// Package display drives HD44780-compatible character LCDs (Hitachi HD44780U and its
// clones: 16×2 and 20×4 panels) in 4-bit mode over six periph gpio.PinOut (RS, E, D4–D7)
// plus an optional backlight pin. R/W is normally tied to ground, so the busy flag cannot
// be read: the driver keeps the datasheet's execution times on an injectable clock.
//
// R/W may instead be wired to a GPIO (Pins.RW, with D4–D7 readable gpio.PinIO): writes
// stay the same, and Check reads the panel back to tell whether it is alive ("Read busy
// flag & address", then "Read data from CG or DDRAM" of every visible cell, compared with
// what was written), failing with ErrNotResponding on a dead or unplugged panel. With R/W
// high the panel drives D4–D7, so its data lines must be at the GPIOs' logic level: a
// 3.3 V panel, or a level shifter for a 5 V one (a 5 V HD44780 would drive 5 V into a
// 3.3 V GPIO). That is why R/W stays tied to ground unless a board wires it on purpose.
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
// execution times at fcp = 270 kHz), "Bus Timing Characteristics" (PWEH, tcycE; tDDR for
// reads), "Read Data from CG or DDRAM", figure 10 (tADD) and table 4 (character codes,
// ROM A00).
//
// The emulated panel used by the tests and by `--emulate` runs is in the hd44780emul
// sub-package.
package display
