// Package pid1 is the terminal image's init (cmd/posinit), in the gokrazy spirit: one
// static Go program is the whole userland besides our own binaries. It runs twice:
//
//   - in the initramfs (stage 1): mounts /dev, /proc and /sys, loads the kernel modules the
//     image carries (the disk, ext4, virtio console and network: Debian builds them as
//     modules), mounts the read-only root partition and switches into it;
//   - from the root (stage 2): mounts the slot and data partitions, brings the network up
//     from the kernel command line, and supervises posboot as systemd would
//     (scripts/posboot.service): restart on every exit but 3 and 4, a notify socket for
//     READY=1 and WATCHDOG=1, and a watchdog that kills a posd which stops pinging.
//
// It knows nothing of retail: it mounts, starts, watches and restarts.
package pid1
