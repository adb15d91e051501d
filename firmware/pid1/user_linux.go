package pid1

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// User is who posinit runs the service as: posboot and posd need no root
// (scripts/posboot.service runs them as the user pos), so the image runs them as its pos
// uid and gid; posinit, pid 1, keeps root for what they cannot do: mounting, the
// network, and handing them their directories and devices.
type User struct {
	UID, GID uint32
	// Owned are the directories the service writes (the slot root, posd's data directory
	// and the configuration's): handed to the user, every file below, when their top is
	// not the user's yet (a data partition of before, or built as root's).
	Owned []string
	// Devices are globs of the device nodes the service opens (its serial ports, GPIO):
	// with no udev in the image, devtmpfs makes them root's 0600; each is given to the
	// user, mode 0660, before every start (a USB adapter plugged since is taken then).
	Devices []string
}

// PosUser is the image's pos user (uid and gid 998, as docs/firmware.md's setpriv check).
const PosUser = 998

// handOver gives the user every directory of Owned whose top is not theirs yet.
func (u *User) handOver() error {
	for _, dir := range u.Owned {
		fi, err := os.Lstat(dir)
		if err != nil {
			return fmt.Errorf("pid1: hand %s over: %w", dir, err)
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Uid == u.UID && st.Gid == u.GID {
			continue
		}
		err = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, int(u.UID), int(u.GID))
		})
		if err != nil {
			return fmt.Errorf("pid1: hand %s over: %w", dir, err)
		}
	}
	return nil
}

// devices gives the user the device nodes of Devices present now.
func (u *User) devices() error {
	var errs []error
	for _, g := range u.Devices {
		matches, err := filepath.Glob(g)
		if err != nil {
			return fmt.Errorf("pid1: devices %s: %w", g, err)
		}
		for _, m := range matches {
			if err := os.Chown(m, int(u.UID), int(u.GID)); err != nil {
				errs = append(errs, err)
				continue
			}
			if err := os.Chmod(m, 0o660); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("pid1: devices: %w", err)
	}
	return nil
}

// runAs makes c start as the user: its uid and gid, no supplementary group.
func (u *User) runAs(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: u.UID, Gid: u.GID, Groups: []uint32{}}}
}
