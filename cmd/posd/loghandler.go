package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
)

// lineHandler writes each log record as one line in posd's own form, "posd: message
// key=value…" (the level before the message unless it is INFO), the form of posd's other
// messages and errors, so that its standard error has one format rather than slog's
// "time=… level=… msg=…" lines among "posd: …" ones. The attributes are slog's text form.
type lineHandler struct {
	mu    *sync.Mutex
	w     io.Writer
	buf   *bytes.Buffer
	attrs slog.Handler // a text handler writing the attributes alone into buf
}

func newLineHandler(w io.Writer, level slog.Leveler) *lineHandler {
	buf := &bytes.Buffer{}
	drop := func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
			return slog.Attr{}
		}
		return a
	}
	return &lineHandler{mu: &sync.Mutex{}, w: w, buf: buf,
		attrs: slog.NewTextHandler(buf, &slog.HandlerOptions{Level: level, ReplaceAttr: drop})}
}

func (h *lineHandler) Enabled(ctx context.Context, l slog.Level) bool { return h.attrs.Enabled(ctx, l) }

func (h *lineHandler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.buf.Reset()
	if err := h.attrs.Handle(ctx, r); err != nil {
		return err
	}
	var line strings.Builder
	line.WriteString("posd: ")
	if r.Level != slog.LevelInfo {
		line.WriteString(r.Level.String() + " ")
	}
	line.WriteString(r.Message)
	if a := strings.TrimSpace(h.buf.String()); a != "" {
		line.WriteString(" " + a)
	}
	line.WriteString("\n")
	_, err := io.WriteString(h.w, line.String())
	return err
}

func (h *lineHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = h.attrs.WithAttrs(as)
	return &c
}

func (h *lineHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.attrs = h.attrs.WithGroup(name)
	return &c
}
