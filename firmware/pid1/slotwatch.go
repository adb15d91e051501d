package pid1

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/slot"
)

// WatchSlots logs the slot root's state whenever it changes (checked every period): the
// console then says when a firmware goes on trial, is committed or is rolled back, which
// posd itself logs only at levels its console does not show.
func WatchSlots(ctx context.Context, root string, period time.Duration, clk clockwork.Clock, log *slog.Logger) {
	var last []byte
	for {
		raw, err := os.ReadFile(filepath.Join(root, "state"))
		if err == nil && string(raw) != string(last) {
			last = raw
			if st, err := slot.ParseState(raw); err == nil {
				log.Info("slot state", "active", st.Active, "previous", st.Previous, "trial", st.Trial,
					"boots", st.Boots, "high_water", st.HighWater.String())
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-clk.After(period):
		}
	}
}
