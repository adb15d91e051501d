// Package terminaltest has fakes of every part the terminal's state machine drives
// (terminal.Parts: the screen, the printer, the LEDs, the buzzer, the drawer, the tamper
// switch; terminal.ScanSource: the scanner) and a fake clock, in the spirit of periph's
// gpiotest: public fields a test sets before (or while) the machine runs, and records of
// what was shown, printed and driven, read through methods safe for concurrent use.
//
// The fakes need no pty, no emulator and no real time: a state of the machine run alone
// on them takes a millisecond or so (device/terminal's state tests). The printer keeps its
// receipts in a real printer.Spool, since the machine stages them there (printer.Staged),
// under a directory the test gives (t.TempDir()); a printer.FS that fails on demand
// (spooltest.FaultFS) makes the spool full or read-only.
//
// Each fake is checked against its part's conformance suite, beside the real driver over
// its emulator or gpiosim (conformance.go: ScreenConformance, PrinterConformance,
// ScannerConformance, LEDConformance, DrawerConformance, BuzzerConformance,
// TamperConformance; run in conformance_test.go).
package terminaltest
