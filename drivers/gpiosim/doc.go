// Package gpiosim holds the simulation parts shared by the GPIO emulators and their tests:
// a pin that reports every level change (periph's gpiotest.Pin only keeps the last
// level, so an emulator that must see each edge of a protocol cannot be built on it alone)
// and that the emulated device can drive while the host has it as an input (a bus read),
// and a virtual clock whose Sleep advances time instantly, so a driver that waits the
// datasheet's delays runs at full speed in tests while an emulator still measures those
// delays on the same clock.
package gpiosim
