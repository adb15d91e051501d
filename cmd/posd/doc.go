// Command posd is the terminal daemon. On a board, posd --config FILE runs the terminal on
// the serial scanner and printer and the GPIO parts of the configured board profile until
// SIGTERM or SIGINT; posd --check-config FILE reports every problem of a configuration
// file at once. posd --emulate runs the whole terminal on emulated hardware through the
// real drivers, reading scans and events from standard input or a script (docs/terminal.md).
package main
