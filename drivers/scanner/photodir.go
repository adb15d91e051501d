package scanner

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/packterm/pos/internal/regularfile"
)

// PhotoPoll is how often a PhotoDir looks for new photos.
const PhotoPoll = 200 * time.Millisecond

// PhotoDir is a scanner made of a directory into which a camera service (libcamera-still
// or fswebcam in a loop, a phone upload) drops photos: each PNG, JPEG or GIF file that
// appears there is read once, removed, and decoded as the image decoder reads frames. A
// writer puts a photo in place whole: it writes a name starting with "." and renames it
// when done (names starting with "." are never read). Files are taken in name order
// (timestamped names: oldest first). A frame that shows no code is silent (most camera
// frames show none); a file that is not a usable photo, a symbolic link or anything but a
// regular file is an EventError. What is decoded is the private copy read before the
// file is removed: a writer cannot change it after the checks.
type PhotoDir struct {
	dir  string
	cfg  Config
	img  *Images
	kept map[string]bool // files that could not be removed: read once only
}

// NewPhotoDir returns the photo directory dir, read with dec.
func NewPhotoDir(dir string, dec ImageDecoder, cfg Config) *PhotoDir {
	cfg = cfg.withDefaults()
	return &PhotoDir{dir: dir, cfg: cfg, img: NewImages(dec, cfg), kept: map[string]bool{}}
}

// Run takes the directory's photos every PhotoPoll until ctx ends (it returns ctx's error).
// A directory that is missing or unreadable is reported once and looked at again.
func (p *PhotoDir) Run(ctx context.Context, out chan<- Event) error {
	tick := p.cfg.Clock.NewTicker(PhotoPoll)
	defer tick.Stop()
	var last string // the error last reported
	for {
		msg := ""
		if err := p.round(ctx, out); err != nil {
			if msg = err.Error(); msg != last {
				p.cfg.Logger.Warn("scanner: photo directory", "dir", p.dir, "err", err)
			}
		}
		last = msg
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.Chan():
		}
	}
}

// round takes every photo in the directory now.
func (p *PhotoDir) round(ctx context.Context, out chan<- Event) error {
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		return fmt.Errorf("scanner: photos: %w", err)
	}
	present := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !photoName(name) {
			continue
		}
		present[name] = true
		if p.kept[name] {
			continue
		}
		ev, ok := p.take(name, e.Type())
		if !ok {
			continue
		}
		select {
		case out <- ev:
		case <-ctx.Done():
			return nil
		}
	}
	for name := range p.kept {
		if !present[name] {
			delete(p.kept, name)
		}
	}
	return nil
}

// take reads the photo name (of directory entry type typ), removes it and decodes the copy.
func (p *PhotoDir) take(name string, typ fs.FileMode) (Event, bool) {
	path := filepath.Join(p.dir, name)
	source := Scan{Source: "image:" + path}
	var data []byte
	var err error
	if typ&fs.ModeSymlink != 0 {
		err = fmt.Errorf("%s: a symbolic link: %w", path, regularfile.ErrNotRegular)
	} else {
		data, err = regularfile.ReadFile(path, MaxPhotoBytes)
	}
	if rmErr := os.Remove(path); rmErr != nil {
		p.kept[name] = true
		p.cfg.Logger.Warn("scanner: photo not removed: read once only", "file", path, "err", rmErr)
	}
	if err != nil {
		return Event{Kind: EventError, Err: fmt.Errorf("scanner: photo: %w", err), Scan: source}, true
	}
	fr, err := ReadPhoto(data, path)
	if err != nil {
		return Event{Kind: EventError, Err: err, Scan: source}, true
	}
	fr.Report = false
	return p.img.Decode(fr)
}

// photoName reports whether name has a photo's extension.
func photoName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".jpg", ".jpeg", ".png", ".gif":
		return true
	}
	return false
}
