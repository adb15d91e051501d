// Package watchdog speaks systemd's notification protocol (sd_notify) in pure Go: one
// datagram per message on the unix socket named by $NOTIFY_SOCKET ("@name" is an abstract
// socket). posd sends READY=1 once started and WATCHDOG=1 at least every half of
// $WATCHDOG_USEC while it is healthy; when the pings stop systemd kills the service and
// restarts it (scripts/posboot.service), and the launcher counts that as a failed trial
// start. Without $NOTIFY_SOCKET (not started by systemd) every call is a no-op.
package watchdog
