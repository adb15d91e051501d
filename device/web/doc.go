// Package web is the terminal's small web page: on a board, a read-only status page for
// technicians (version and slot, ledger, pack status list, journal head and today's
// totals, hardware health, recent log lines) and the same data as /status.json; under
// `posd --emulate`, also the emulated terminal in the browser, live through server-sent
// events: the LCD drawn from its ROM and CGRAM dot patterns, the LEDs, the receipts as
// they print, the buttons, a field to scan a code, a photo upload through the image
// decoder and the hardware faults.
//
// The page is html/template and embedded static files, with no front-end build step.
// It listens on loopback by default; on any other address every request needs the
// technician token (its SHA-256 is in the configuration), and the server refuses to start
// without one. docs/web.md describes the pages, endpoints and events.
package web
