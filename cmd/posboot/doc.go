// Command posboot is the terminal's launcher: systemd starts it (scripts/posboot.service),
// it asks firmware/slot which slot to boot (counting trial starts, rolling back after
// too many, never choosing a slot whose files fail their hashes) and replaces itself with
// that slot's posd (execve), passing the slot in the environment:
//
//	POS_SLOT=a|b  POS_SLOT_ROOT=DIR  POS_SLOT_DIR=DIR/a  POS_SLOT_VERSION=1.2.3  POS_SLOT_TRIAL=1|0
//
// posd calls slot.Open(POS_SLOT_ROOT).MarkGood() once healthy. posboot itself lives
// outside the slots and is not replaced by bundles.
//
//	posboot --root /var/lib/pos/slots [--max-boots 3] [--trust /etc/pos/firmware] -- POSD-ARGS...
package main
