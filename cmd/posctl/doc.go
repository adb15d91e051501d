// Command posctl is the operator's and field technician's tool: the game tables, codes,
// ledgers, keys, devices and diagnostics. Each subcommand lives in its own file and only
// wires flags to the packages that do the work.
package main
