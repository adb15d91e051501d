// Package emulated runs the whole terminal on emulated hardware through the real drivers:
// the scanner and the printer on pseudo-terminals (scanneremul, printeremul), the display on
// the pin-level HD44780 emulator and the LEDs, buzzer, drawer, buttons and tamper switch on
// fake GPIO pins (device/board's emulated board). The terminal itself is built by the one
// assembly (device/assembly) from a config.Config, as a board's is (Options.Config, or the
// shorthands of Options mapped into one): this package holds only the emulated hardware
// (and what of a configuration it refuses, CheckConfig), the input language, the virtual
// clock's stepping, the receipts directory and the demo. A Rig is driven through a typed API
// (Scan, Press, OpenCase, PaperOut, …) or the line language of posd --emulate (Parse, Do),
// and reports each display change and each receipt. On a virtual clock (NewVirtualClock,
// Options.Step) a scripted run is reproducible byte for byte: each input moves the clock one
// step, waits that come due time out first, and receipts are reported after the screens of
// the input that printed them. It also makes the demo block of a first run (Demo): an
// operator key, a signed ledger and a handful of codes to try.
package emulated
