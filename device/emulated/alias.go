package emulated

import (
	"fmt"
	"slices"
	"strings"
)

// Alias is the short name a script uses for a demo code: "@pack", "@loser", "@winner-10"
// (a winner of 10 €; cents after a comma when there are any: "@winner-12,50") and
// "@claim-200" (the winner above the pay limit). Scripts written with aliases run against
// any demo block, whatever its secrets.
func (c DemoCode) Alias() string {
	switch {
	case c.What == "pack" || c.What == "ticket" || c.What == "loser":
		return c.What
	case c.Amount%100 != 0:
		return fmt.Sprintf("%s-%d,%02d", c.kindName(), c.Amount/100, c.Amount%100)
	default:
		return fmt.Sprintf("%s-%d", c.kindName(), c.Amount/100)
	}
}

func (c DemoCode) kindName() string {
	if strings.Contains(c.What, "above") {
		return "claim"
	}
	return "winner"
}

// Aliases maps each demo code's Alias to its code.
func (d *Demo) Aliases() map[string]string {
	m := make(map[string]string, len(d.Codes))
	for _, c := range d.Codes {
		m[c.Alias()] = c.Code
	}
	return m
}

// resolve replaces a line "@NAME" by the code Options.Aliases gives it.
func (r *Rig) resolve(line string) (string, error) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "@") {
		return line, nil
	}
	if code, ok := r.opts.Aliases[t[1:]]; ok {
		return code, nil
	}
	names := make([]string, 0, len(r.opts.Aliases))
	for n := range r.opts.Aliases {
		names = append(names, "@"+n)
	}
	slices.Sort(names)
	if len(names) == 0 {
		return "", fmt.Errorf("emulated: %s: no code names here (they come with the demo block)", t)
	}
	return "", fmt.Errorf("emulated: unknown code name %s (known: %s)", t, strings.Join(names, ", "))
}

// expect checks a script's "!expect TEXT" against the display (its lines joined by
// spaces, runs of spaces as one) or "!expect-receipt TEXT" against the last receipt cut.
func (r *Rig) expect(in Input) error {
	want := squeeze(in.Arg)
	if in.Action == ActExpect {
		got := squeeze(strings.Join(r.Board.Emulator.LCD.Screen(), " "))
		if !strings.Contains(got, want) {
			return fmt.Errorf("emulated: !expect %q: the display shows %q", want, got)
		}
		return nil
	}
	rs := r.Printer.Receipts()
	if len(rs) == 0 {
		return fmt.Errorf("emulated: !expect-receipt %q: no receipt printed yet", want)
	}
	if got := squeeze(rs[len(rs)-1].PlainText()); !strings.Contains(got, want) {
		return fmt.Errorf("emulated: !expect-receipt %q: the last receipt (%d) does not hold it", want, len(rs))
	}
	return nil
}

func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }
