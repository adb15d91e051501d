// Command posinit is the terminal image's init (pid 1): in the initramfs it loads the
// modules and switches to the read-only root; from the root it mounts the slot and data
// partitions and supervises posboot (firmware/pid1, docs/firmware.md "The image").
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/packterm/pos/firmware/pid1"
	"github.com/packterm/pos/internal/version"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println(version.Line("posinit"))
		return
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // the console has no clock worth reading before posd sets none
			}
			return a
		},
	})).With("prog", "posinit")
	if os.Getpid() != 1 {
		log.Error("posinit runs as pid 1 only")
		os.Exit(2)
	}
	var err error
	if _, e := os.Stat(pid1.InitramfsMarker); e == nil {
		err = pid1.Stage1(log)
	} else {
		err = pid1.Stage2(context.Background(), log, pid1.TerminalLayout())
	}
	log.Error("init stopped", "err", err)
	for { // pid 1 must not exit: the kernel would panic
		time.Sleep(time.Hour)
	}
}
