package web

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/packterm/pos/validate/codes"
)

// LogLine is one recent log record.
type LogLine struct {
	Time    time.Time `json:"time"`
	Level   string    `json:"level"`
	Message string    `json:"message"`
	Attrs   string    `json:"attrs,omitempty"`
}

// LogRing keeps the last records logged through its handlers.
type LogRing struct {
	mu    sync.Mutex
	lines []LogLine
	next  int
	full  bool
	level slog.Leveler
}

// NewLogRing keeps the last n records at level or above (nil: Info).
func NewLogRing(n int, level slog.Leveler) *LogRing {
	if level == nil {
		level = slog.LevelInfo
	}
	return &LogRing{lines: make([]LogLine, max(n, 1)), level: level}
}

func (r *LogRing) add(l LogLine) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines[r.next] = l
	r.next = (r.next + 1) % len(r.lines)
	r.full = r.full || r.next == 0
}

// Lines returns the records kept, oldest first.
func (r *LogRing) Lines() []LogLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]LogLine(nil), r.lines[:r.next]...)
	}
	return append(append([]LogLine(nil), r.lines[r.next:]...), r.lines[:r.next]...)
}

// Tee returns a handler that gives each record to next (as next decides) and keeps it in
// the ring (at the ring's level).
func (r *LogRing) Tee(next slog.Handler) slog.Handler {
	return &teeHandler{ring: r, next: next}
}

type teeHandler struct {
	ring   *LogRing
	next   slog.Handler
	prefix string // attributes and groups from WithAttrs and WithGroup, formatted
	group  string
}

func (h *teeHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.ring.level.Level() || h.next.Enabled(ctx, l)
}

func (h *teeHandler) Handle(ctx context.Context, rec slog.Record) error {
	if rec.Level >= h.ring.level.Level() {
		var sb strings.Builder
		sb.WriteString(h.prefix)
		rec.Attrs(func(a slog.Attr) bool {
			writeAttr(&sb, h.group, a)
			return true
		})
		// The page shows the ring: whatever a record quotes, a validation code in it is masked.
		h.ring.add(LogLine{Time: rec.Time, Level: rec.Level.String(), Message: codes.RedactText(rec.Message),
			Attrs: codes.RedactText(strings.TrimSpace(sb.String()))})
	}
	if h.next.Enabled(ctx, rec.Level) {
		return h.next.Handle(ctx, rec)
	}
	return nil
}

func writeAttr(sb *strings.Builder, group string, a slog.Attr) {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		g := a.Key
		if group != "" {
			g = group + "." + a.Key
		}
		for _, ga := range a.Value.Group() {
			writeAttr(sb, g, ga)
		}
		return
	}
	key := a.Key
	if group != "" {
		key = group + "." + key
	}
	fmt.Fprintf(sb, " %s=%v", key, a.Value)
}

func (h *teeHandler) WithAttrs(as []slog.Attr) slog.Handler {
	var sb strings.Builder
	sb.WriteString(h.prefix)
	for _, a := range as {
		writeAttr(&sb, h.group, a)
	}
	return &teeHandler{ring: h.ring, next: h.next.WithAttrs(as), prefix: sb.String(), group: h.group}
}

func (h *teeHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	g := name
	if h.group != "" {
		g = h.group + "." + name
	}
	return &teeHandler{ring: h.ring, next: h.next.WithGroup(name), prefix: h.prefix, group: g}
}
