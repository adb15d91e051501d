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
// The slots' signatures are checked against posd's own firmware keys: --config names
// posd's configuration, whose [keys] firmware posboot reads (each key file must be one
// only root can write) and which posd is started with. With no bootable slot posboot
// shows AUCUN LOGICIEL / APPELEZ UN TECHNICIEN on the configured board's display and
// exits 3; it exits 4 when its configuration or the keys are unusable. The unit
// (scripts/posboot.service) does not restart on either.
//
//	posboot --root /var/lib/pos/slots [--max-boots 3] --config /etc/pos/conf/posd.toml [-- POSD-ARGS...]
//	posboot --root DIR [--trust KEYFILE] -- POSD-ARGS...      # without a configuration (tests)
package main
