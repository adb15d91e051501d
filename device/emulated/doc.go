// Package emulated runs the whole terminal on emulated hardware through the real drivers:
// the scanner and the printer on pseudo-terminals (scanneremul, printeremul), the display on
// the pin-level HD44780 emulator and the LEDs, buzzer, drawer, buttons and tamper switch on
// fake GPIO pins (device/board's emulated board). A Rig is driven through a typed API
// (Scan, Press, OpenCase, PaperOut, …) or the line language of posd --emulate (Parse, Do),
// and reports each display change and each receipt. On a virtual clock (NewVirtualClock,
// Options.Step) a scripted run is reproducible byte for byte: each input moves the clock one
// step, waits that come due time out first, and receipts are reported after the screens of
// the input that printed them. It also makes the demo block of a first run (Demo): an
// operator key, a signed ledger and a handful of codes to try.
package emulated
