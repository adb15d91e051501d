package config

import (
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/scanner"
)

// Config is the terminal's configuration: defaults (Default), then the file (Parse, Load).
// Each field names its key in the file; docs/config.md describes them all.
type Config struct {
	TerminalID   string // [terminal] id: required (EMU-0001 under --emulate, see Emulated)
	RetailerID   string // [terminal] retailer: the retailer number, in decimal (required)
	RetailerName string // [terminal] retailer_name: printed on receipts (optional)
	Language     string // [terminal] language: "fr" (the default) or "en" (device/locale)
	DataDir      string // [terminal] data_dir: default "/var/lib/posd"

	Limits  Limits            // [limits]
	Board   string            // [board] profile: a device/board profile name (default "rpi")
	Pins    map[string]string // [board.pins]: part name (PinNames) -> pin name overrides
	Display Display           // [display] size = "16x2" | "20x4" (default "20x4")
	Scanner Scanner           // [scanner]
	Printer Printer           // [printer]
	Keys    Keys              // [keys]

	Technician Technician // [technician]
	HTTP       string     // [http] listen: default "127.0.0.1:8080"; "" turns it off
	// HTTPHosts is [http] hosts: the names (or "name:port") the page also answers to,
	// beyond the loopback names and the address it is reached on; default none.
	HTTPHosts []string
	// Maintenance is the maintenance link's listener ([maintenance] listen):
	// "tcp:HOST:PORT" or "serial:DEV"; "" (default) turns it off.
	Maintenance string
	Fleet       Fleet // [fleet]
}

// Limits are the retailer's payment limits, in cents (euros in the file).
type Limits struct {
	PerTicket        int64 // [limits] pay_per_ticket: default 150,00 €
	PerDay           int64 // [limits] pay_per_day: default 5 000,00 €
	OfflinePerTicket int64 // [limits] offline_per_ticket: per ticket while the fleet is unreachable, default 100,00 €
	// OfflineTotal is [limits] offline_total: with a fleet, the most this terminal's
	// unconfirmed payouts not yet claimed fleet-wide may add up to, default 1 000,00 €.
	OfflineTotal int64
}

// Display is the panel's geometry in characters.
type Display struct{ Cols, Rows int }

// String is the geometry as written in the file ("20x4").
func (d Display) String() string { return displayString(d) }

// Scanner is the barcode scanner: a serial port, or an evdev keyboard-wedge device.
type Scanner struct {
	Port   string         // [scanner] port: serial device, default "/dev/ttyACM0"
	Baud   int            // [scanner] baud: default 9600
	Suffix scanner.Suffix // [scanner] suffix: "CR" (default; also "ENTER"), "LF", "CRLF" or "TAB"
	AIM    bool           // [scanner] aim: lines start with an AIM identifier (default false)
	Input  string         // [scanner] input: evdev device of a keyboard-wedge scanner, instead of port
	Keymap scanner.Keymap // [scanner] keymap: the layout a keyboard-wedge scanner types with, "us" (default) or "fr"
	// Photos is [scanner] photos: a directory a camera service drops photos into, decoded
	// beside the scanner (scanner.PhotoDir); "" (default): none.
	Photos string
}

// Printer is the ESC/POS receipt printer.
type Printer struct {
	Port     string           // [printer] port: serial device, default "/dev/ttyUSB0"
	Baud     int              // [printer] baud: default 9600
	Profile  string           // [printer] profile: "default" (TM-T88V and later) or "legacy" (no GS ( H)
	Columns  int              // [printer] columns: 42 or 48 (default 48)
	CodePage printer.CodePage // [printer] code_page: "PC858" (default) or "WPC1252"
}

// NoPrintConfirm reports whether the profile's printer lacks the print confirmation (GS ( H),
// the value of printer.Config.NoPrintConfirm.
func (p Printer) NoPrintConfirm() bool { return p.Profile == PrinterLegacy }

// Printer profiles.
const (
	PrinterDefault = "default"
	PrinterLegacy  = "legacy"
)

// Keys are the trusted public keys: files, or directories whose *.pub files are read.
type Keys struct {
	Operator []string // [keys] operator: required in a file
	Firmware []string // [keys] firmware: optional (no firmware update is accepted without)
}

// Technician holds what unlocks the technician mode.
type Technician struct {
	// TokenSHA256 is the lower-case hex SHA-256 of the technician token ([technician]
	// token_sha256); empty means technician unlock is off.
	TokenSHA256 string
}

// Fleet is the connection to the operator's fleet server (NATS).
type Fleet struct {
	URL         string // [fleet] url: nats:// or tls://; empty means offline-only
	Credentials string // [fleet] credentials: NATS credentials file
	CA          string // [fleet] ca: CA certificate file for a tls:// server
}

// MaxFileSize bounds the configuration Parse and Load read. A real file is a few KiB; the
// bound keeps a hostile one cheap (go-toml checks each key against the keys before it in
// its table, so the time grows with the square of the keys of one table).
const MaxFileSize = 64 << 10

// maxProblems bounds the problems listed; more are counted in a last one.
const maxProblems = 100

// Default returns every default. It lacks what only a file can say (terminal id,
// retailer, operator keys), so it does not validate by itself; see Emulated.
func Default() Config {
	return Config{
		Language: "fr",
		DataDir:  "/var/lib/posd",
		Limits:   Limits{PerTicket: 150_00, PerDay: 5000_00, OfflinePerTicket: 100_00, OfflineTotal: 1000_00},
		Board:    "rpi",
		Pins:     map[string]string{},
		Display:  Display{Cols: 20, Rows: 4},
		Scanner:  Scanner{Port: "/dev/ttyACM0", Baud: 9600, Suffix: scanner.CR},
		Printer:  Printer{Port: "/dev/ttyUSB0", Baud: 9600, Profile: PrinterDefault, Columns: 48, CodePage: printer.PC858},
		HTTP:     "127.0.0.1:8080",
	}
}

// Emulated is Default with the identity of the emulated terminal (posd --emulate).
func Emulated() Config {
	c := Default()
	c.TerminalID = "EMU-0001"
	c.RetailerID = "1"
	c.RetailerName = "TERMINAL DE DEMONSTRATION"
	return c
}
