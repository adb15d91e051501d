// Package maint is the terminal's side of provisioning over the maintenance link: the
// flash.Items posd (on a board and under --emulate) and `posctl flash serve` answer with,
// each received file verified with the checks the daemon itself applies before it
// replaces the installed one: config.Load and Validate for a configuration, whose trust
// settings must also be the running ones', a key statement signed by a key trusted now
// (never a bare key file: the technician token opens the link, it never changes what is
// trusted) or an operator limits statement signed by a key trusted now, for this terminal
// or its retailer, for keys, ledger.Install (full verification against the current operator
// keys, anti-rollback) for a ledger and ledger.InstallStatus for a pack status list, which
// must also be for this terminal's retailer.
package maint
