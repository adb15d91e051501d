// Package assembly builds the terminal from a config.Config, in one place, on a real board
// or on an emulated one: the journal, the fleet client, the board, the printer and the
// scanner drivers, the camera's photo directory, and terminal.Terminal with every limit of
// the configuration (pay per ticket and per day, offline per ticket and in total), the
// technician token and the retailer's name.
//
// What differs between a board and the emulator is the Hardware: where the board's pins,
// the printer and the scanner are (Board: the GPIO of the [board] profile and the serial
// ports of [printer] and [scanner]; device/emulated's: pin-level emulators and
// pseudo-terminals). A Hardware refuses, with an error naming it, a setting it cannot
// honour (Hardware.Check): a configuration is honoured whole or not run, never partly.
//
// device/daemon runs the assembled terminal on a board (posd --config); device/emulated on
// emulated hardware (posd --emulate, with or without --config). This package imports no
// emulator: the production posd (go build -tags production) links none.
package assembly
