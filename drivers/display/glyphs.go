package display

import (
	"cmp"
	"slices"

	"periph.io/x/conn/v3/gpio"
)

// Custom glyphs live in the 8 CGRAM characters (codes 0–7). A slot may be reloaded only
// when no DDRAM cell shows its code any more: rewriting the bitmap of a character on
// screen would change it in place. When a screen needs more glyphs than there are slots,
// the ones first in the font's priority order (€, then capitals, then lower case) win and
// the rest are shown as plain letters.

// glyphFor returns the code that shows r, loading r into a free slot if needed. target is
// the mem index about to be overwritten (its current code does not pin a slot).
func (d *Dev) glyphFor(r rune, target int) (byte, error) {
	if c, ok := romCode(r); ok {
		return c, nil
	}
	g, ok := d.font[r]
	if !ok {
		return Fallback(r), nil
	}
	if s := d.loadedSlot(r); s >= 0 {
		d.touch(s)
		return byte(s), nil
	}
	pinned := d.pinnedSlots(func(i int) bool { return i == target })
	s := d.freeSlot(pinned, nil)
	if s < 0 {
		return Fallback(r), nil
	}
	if err := d.loadGlyph(s, r, g); err != nil {
		return 0, err
	}
	return byte(s), nil
}

func (d *Dev) loadedSlot(r rune) int {
	for i, s := range d.slots {
		if s.loaded && s.r == r {
			return i
		}
	}
	return -1
}

func (d *Dev) touch(s int) {
	d.stamp++
	d.slots[s].last = d.stamp
}

// pinnedSlots reports the slots shown by some DDRAM cell, ignoring the cells skip accepts.
func (d *Dev) pinnedSlots(skip func(i int) bool) (pinned [8]bool) {
	for i, c := range d.mem {
		if c < 0x10 && !skip(i) {
			pinned[c&7] = true
		}
	}
	return pinned
}

// freeSlot returns a slot that is neither pinned nor reserved: an empty one first, else
// the least recently used; -1 if none.
func (d *Dev) freeSlot(pinned [8]bool, reserved map[int]bool) int {
	best := -1
	for i, s := range d.slots {
		if pinned[i] || reserved[i] {
			continue
		}
		if !s.loaded {
			return i
		}
		if best < 0 || s.last < d.slots[best].last {
			best = i
		}
	}
	return best
}

// loadGlyph writes g into CGRAM character s (address 0x40 + 8·s) and puts the address
// counter back into DDRAM where it was.
func (d *Dev) loadGlyph(s int, r rune, g Glyph) error {
	if err := d.command(cmdSetCGRAM | byte(s)<<3); err != nil {
		return err
	}
	d.inCGRAM = true
	for _, row := range g {
		if err := d.send(gpio.High, row&0x1F); err != nil {
			return err
		}
	}
	if err := d.setAddr(d.ac); err != nil {
		return err
	}
	d.slots[s] = slot{r: r, loaded: true}
	d.touch(s)
	return nil
}

// planGlyphs chooses and loads the glyphs for a whole new screen. visible reports the mem
// indices the new screen covers (their current codes do not pin slots). It returns the
// slot of each rune that gets a glyph; runes left out are shown by Fallback.
func (d *Dev) planGlyphs(counts map[rune]int, visible func(i int) bool) (map[rune]int, error) {
	if len(counts) == 0 {
		return nil, nil
	}
	ordered := make([]rune, 0, len(counts))
	for r := range counts {
		ordered = append(ordered, r)
	}
	slices.SortFunc(ordered, func(a, b rune) int {
		pa, oka := priority[a]
		pb, okb := priority[b]
		switch {
		case oka && okb && pa != pb:
			return cmp.Compare(pa, pb)
		case oka != okb: // built-in glyphs before a custom font's extras
			if oka {
				return -1
			}
			return 1
		case counts[a] != counts[b]:
			return cmp.Compare(counts[b], counts[a])
		}
		return cmp.Compare(a, b)
	})
	pinned := d.pinnedSlots(visible)
	// Slots pinned by off-screen cells hold their glyph whatever happens.
	chosen := map[rune]bool{}
	usable := 8
	for i, p := range pinned {
		if !p {
			continue
		}
		if _, need := counts[d.slots[i].r]; need && d.slots[i].loaded {
			chosen[d.slots[i].r] = true
		} else {
			usable--
		}
	}
	for _, r := range ordered {
		if len(chosen) >= usable {
			break
		}
		chosen[r] = true
	}
	assign := map[rune]int{}
	reserved := map[int]bool{}
	for r := range chosen {
		if s := d.loadedSlot(r); s >= 0 {
			assign[r] = s
			reserved[s] = true
			d.touch(s)
		}
	}
	for _, r := range ordered {
		if !chosen[r] {
			continue
		}
		if _, ok := assign[r]; ok {
			continue
		}
		s := d.freeSlot(pinned, reserved)
		if s < 0 {
			continue // cannot happen: chosen fits in the usable slots
		}
		if err := d.loadGlyph(s, r, d.font[r]); err != nil {
			return nil, err
		}
		assign[r] = s
		reserved[s] = true
	}
	return assign, nil
}

// Glyphs returns the rune held by each CGRAM slot (0 for an empty slot).
func (d *Dev) Glyphs() [8]rune {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out [8]rune
	for i, s := range d.slots {
		if s.loaded {
			out[i] = s.r
		}
	}
	return out
}
