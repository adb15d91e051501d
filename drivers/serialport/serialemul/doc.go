// Package serialemul is an emulated serial device on a pseudo-terminal (github.com/creack/pty),
// for the scanner and printer emulators.
//
// The device is reached through a stable symbolic link (like udev's /dev/serial/by-id links)
// pointing at the pty slave. The emulator keeps its own slave descriptor open while plugged in
// (reads on the master would otherwise fail with EIO when the driver closes its side). Unplug
// closes master and slave and removes the link: the /dev/pts node vanishes, the driver's reads
// return at once and its writes fail with EIO, as with a USB adapter pulled out. Replug opens a
// new pty (often another /dev/pts number) and points the link at it.
package serialemul
