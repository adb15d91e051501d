package printer

import (
	"fmt"
	"slices"
	"strings"
)

// Cut is what the printer's cutter can do.
type Cut int

// Cutter capabilities.
const (
	CutPartial Cut = iota // GS V 66 n: feed and partial cut (one tab left: the usual receipt cut)
	CutFull               // GS V 65 n: feed and full cut
	CutNone               // no autocutter: feed past the tear bar, the retailer tears off
)

func (c Cut) String() string {
	switch c {
	case CutFull:
		return "full"
	case CutNone:
		return "none"
	}
	return "partial"
}

// Support says whether the printer has a feature, or whether the driver must find out.
type Support int

// Feature support.
const (
	Probe       Support = iota // unknown: the driver asks the printer once at connection
	Supported                  // the model has it
	Unsupported                // the model lacks it: never sent
)

func (s Support) String() string {
	return [...]string{"probe", "yes", "no"}[s]
}

// Profile is what a printer model can do, as python-escpos' capabilities database describes
// printers (columns per font, code pages, cutter, native QR, ...), cut down to what the
// receipts need. Choose one by name with ProfileByName.
type Profile struct {
	Name  string // configuration name, e.g. "tm-t88v"
	Model string // human description
	// Columns of font A (12×24 dots) per line: 48 (576 dots, 80 mm), 42 (512 dots, 80 mm on
	// the older TM-T88) or 32 (384 dots, 58 mm).
	Columns int
	// CodePage for text; it must have the euro sign (PC858 at D5h, or WPC1252 at 80h).
	CodePage CodePage
	Cut      Cut
	// NativeQR: the printer draws QR codes itself (GS ( k); otherwise they are sent as a
	// raster image (GS v 0) drawn by the driver.
	NativeQR bool
	// ProcessID: GS ( H fn 48, the "printed" confirmation (see Mode).
	ProcessID Support
}

// profiles are the known printers. Sources are noted for each; where a vendor manual and
// python-escpos' capabilities disagree, the manual wins.
var profiles = []Profile{
	{
		// Any TM-T88-compatible 80 mm printer: 48 columns at font A, PC858, partial cut and
		// GS ( k, which every 80 mm Epson since the TM-T88IV and most clones accept; GS ( H is
		// probed once per connection because the generations differ.
		Name: "default", Model: "80 mm ESC/POS printer (TM-T88 compatible)",
		Columns: 48, CodePage: PC858, Cut: CutPartial, NativeQR: true, ProcessID: Probe,
	},
	{
		// Epson TM-T88V technical reference: 576-dot print area (48 columns of font A on
		// 80 mm paper), code page 19 (PC858), autocutter with partial cut (GS V 66),
		// GS ( k QR model 2, GS ( H process ID response (added in the TM-T88V).
		Name: "tm-t88v", Model: "Epson TM-T88V",
		Columns: 48, CodePage: PC858, Cut: CutPartial, NativeQR: true, ProcessID: Supported,
	},
	{
		// Epson TM-T88IV technical reference: 512-dot default print area (42 columns on
		// 80 mm), PC858 and WPC1252 present, partial cut, GS ( k QR (firmware with 2D codes),
		// no GS ( H: print completion is followed by DLE EOT status polling.
		Name: "tm-t88iv", Model: "Epson TM-T88IV",
		Columns: 42, CodePage: PC858, Cut: CutPartial, NativeQR: true, ProcessID: Unsupported,
	},
	{
		// TM-T20-class clones (Xprinter, HPRT, Rongta "80 mm thermal" units): 48 columns,
		// WPC1252 (their PC858 table is often missing or has no €), full cut only, GS ( k
		// QR, no GS ( H. From the clones' command lists and python-escpos' generic profiles.
		Name: "tm-t20-clone", Model: "TM-T20-class 80 mm clone",
		Columns: 48, CodePage: WPC1252, Cut: CutFull, NativeQR: true, ProcessID: Unsupported,
	},
	{
		// The configuration's name for an 80 mm printer known to lack GS ( H, whatever its
		// make: the default profile with status polling and no probe.
		Name: "legacy", Model: "80 mm ESC/POS printer without GS ( H",
		Columns: 48, CodePage: PC858, Cut: CutPartial, NativeQR: true, ProcessID: Unsupported,
	},
	{
		// Generic 58 mm printers (python-escpos "simple"/58 mm class: 384 dots, 32 columns of
		// font A): no cutter, no GS ( k (QR as a raster image), WPC1252, no GS ( H.
		Name: "58mm-generic", Model: "58 mm ESC/POS printer without cutter",
		Columns: 32, CodePage: WPC1252, Cut: CutNone, NativeQR: false, ProcessID: Unsupported,
	},
}

// DefaultProfile is the profile used when the configuration names none.
func DefaultProfile() Profile { return profiles[0] }

// Profiles lists the known profiles.
func Profiles() []Profile { return slices.Clone(profiles) }

// ProfileByName returns a known profile ("" is the default); names are matched without case.
func ProfileByName(name string) (Profile, error) {
	if name == "" {
		return DefaultProfile(), nil
	}
	for _, p := range profiles {
		if strings.EqualFold(p.Name, name) {
			return p, nil
		}
	}
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	return Profile{}, fmt.Errorf("printer: unknown profile %q (known: %s)", name, strings.Join(names, ", "))
}

// Layout is the rendering part of the profile.
func (p Profile) Layout() Layout {
	return Layout{Columns: p.Columns, CodePage: p.CodePage, Cut: p.Cut, RasterQR: !p.NativeQR}
}
