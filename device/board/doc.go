// Package board wires the terminal's GPIO parts to a board: a profile names the pin of
// each part (periph gpioreg names, BCM numbering on a Raspberry Pi), Open looks them up
// after host.Init and builds the drivers (display, LEDs, buzzer, drawer, buttons, tamper),
// or, emulated, wires the same drivers to the pin-level LCD emulator, recording output
// pins and fake contacts. The profile is selected by configuration (Config.Profile).
//
// The LCD's R/W line is optional (PinMap.LCDRW, empty in every profile: tied to ground).
// Given a pin, the display driver can read the panel back (display.Dev.Check); the emulated
// board always has it wired.
package board
