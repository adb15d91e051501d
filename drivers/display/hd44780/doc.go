// Package hd44780 is the one model of the HD44780U controller the display driver
// (drivers/display) and its pin-level emulator (drivers/display/hd44780emul) share: the
// instruction set (Hitachi HD44780U datasheet, table 6) and the DDRAM addressing (table 4
// and figures 10–12: the address counter's wrap-around, the address shown at each cell of
// a panel, with the display shift).
//
// Sharing it means a mistake here would show in neither the driver nor the emulator; so
// the model itself is pinned to the datasheet: its tests spell out the datasheet's tables
// as literal addresses and bit patterns, never computed by this code. The driver is then
// tested against the emulator (display's conformance test) and against recorded pin
// streams (display's stream test); the emulator follows the protocol (timing, handshake,
// nibbles, reads) on its own.
package hd44780
