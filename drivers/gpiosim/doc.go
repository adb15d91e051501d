// Package gpiosim is the one GPIO fake of the tree, for the emulators and the tests, in
// the spirit of periph's gpiotest (public fields a test sets, records of what was
// driven): a Pin that reports every level change (periph's gpiotest.Pin only keeps the
// last level, so an emulator that must see each edge of a protocol cannot be built on it
// alone), records its history and can be driven from the device's side while the host
// has it as an input (a bus read); an Input, a contact (button, case switch) on such a
// pin that queues an edge at each change; and a virtual clock whose Sleep advances time
// instantly, so a driver that waits the datasheet's delays runs at full speed in tests
// while an emulator still measures those delays on the same clock.
//
// The display emulator (hd44780emul), the emulated board (device/board) and the gpioio
// drivers' tests all use it; terminaltest's conformance suites (LEDConformance,
// DrawerConformance, BuzzerConformance, TamperConformance) run the real gpioio drivers on it.
package gpiosim
