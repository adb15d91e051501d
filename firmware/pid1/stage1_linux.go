package pid1

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"
)

// Paths of the initramfs and of the root, as scripts/image.sh lays them out.
const (
	// InitramfsMarker exists in the initramfs only: the init is in stage 1.
	InitramfsMarker = "/initramfs"
	// ModulesDir holds the kernel modules stage 1 loads, named NN-name.ko in load order.
	ModulesDir = "/lib/modules/pos"
	newRoot    = "/newroot"
	// RootInit is the init in the root partition that stage 1 executes.
	RootInit = "/sbin/posinit"
)

// Stage1 mounts the kernel's filesystems, loads the modules, mounts the root partition
// read-only and executes its init in its place (switch_root). It returns only on failure.
func Stage1(log *slog.Logger) error {
	if err := mountKernelFS(); err != nil {
		return err
	}
	if err := LoadModules(log, ModulesDir); err != nil {
		return err
	}
	raw, err := os.ReadFile("/proc/cmdline")
	if err != nil {
		return fmt.Errorf("pid1: %w", err)
	}
	c, err := ParseCmdline(string(raw))
	if err != nil {
		return err
	}
	if err := waitDevice(c.Root, 10*time.Second); err != nil {
		return err
	}
	if err := os.MkdirAll(newRoot, 0o755); err != nil {
		return fmt.Errorf("pid1: %w", err)
	}
	if err := unix.Mount(c.Root, newRoot, "ext4", unix.MS_RDONLY|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("pid1: mount root %s: %w", c.Root, err)
	}
	for _, d := range []string{"/dev", "/proc", "/sys"} {
		if err := unix.Mount(d, filepath.Join(newRoot, d), "", unix.MS_MOVE, ""); err != nil {
			return fmt.Errorf("pid1: move %s: %w", d, err)
		}
	}
	if err := os.Chdir(newRoot); err != nil {
		return fmt.Errorf("pid1: %w", err)
	}
	if err := unix.Mount(".", "/", "", unix.MS_MOVE, ""); err != nil {
		return fmt.Errorf("pid1: switch root: %w", err)
	}
	if err := unix.Chroot("."); err != nil {
		return fmt.Errorf("pid1: chroot: %w", err)
	}
	if err := os.Chdir("/"); err != nil {
		return fmt.Errorf("pid1: %w", err)
	}
	log.Info("root mounted read-only", "device", c.Root)
	return unix.Exec(RootInit, []string{RootInit}, os.Environ())
}

// mountKernelFS mounts devtmpfs, proc and sysfs where they are not yet.
func mountKernelFS() error {
	for _, m := range []struct{ src, dst, fs string }{
		{"devtmpfs", "/dev", "devtmpfs"}, {"proc", "/proc", "proc"}, {"sysfs", "/sys", "sysfs"},
	} {
		if err := os.MkdirAll(m.dst, 0o755); err != nil {
			return fmt.Errorf("pid1: %w", err)
		}
		err := unix.Mount(m.src, m.dst, m.fs, unix.MS_NOSUID|unix.MS_NOEXEC, "")
		if err != nil && !errors.Is(err, unix.EBUSY) {
			return fmt.Errorf("pid1: mount %s: %w", m.dst, err)
		}
	}
	return nil
}

// LoadModules loads every *.ko of dir in name order; a module whose dependencies are not
// loaded yet is tried again after the others, until a pass loads nothing more.
func LoadModules(log *slog.Logger, dir string) error {
	names, err := filepath.Glob(filepath.Join(dir, "*.ko"))
	if err != nil {
		return fmt.Errorf("pid1: modules: %w", err)
	}
	slices.Sort(names)
	for len(names) > 0 {
		var left []string
		var last error
		for _, n := range names {
			if err := loadModule(n); err != nil {
				left, last = append(left, n), err
			}
		}
		if len(left) == len(names) {
			return fmt.Errorf("pid1: modules not loaded %v: %w", left, last)
		}
		names = left
	}
	log.Info("kernel modules loaded", "dir", dir)
	return nil
}

func loadModule(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	err = unix.FinitModule(int(f.Fd()), "", 0)
	if errors.Is(err, unix.EEXIST) {
		return nil
	}
	return err
}

// waitDevice waits for a block device node to appear (the driver probes after loading).
func waitDevice(path string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		if _, err := os.Stat(path); err == nil {
			return nil
		} else if time.Now().After(deadline) {
			return fmt.Errorf("pid1: device %s: %w", path, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
