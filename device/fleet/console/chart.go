package console

import (
	"fmt"
	"html/template"
	"strings"
	"time"
)

// chartSVG draws counts (one a minute, oldest first, the last ending at end) as an SVG
// bar chart with an hour grid, its times in loc.
func chartSVG(counts []int, end time.Time, loc *time.Location, label string) template.HTML {
	const w, h, pad = 720, 160, 24
	top := 1
	for _, n := range counts {
		top = max(top, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg">`,
		w, h+pad, template.HTMLEscapeString(label))
	fmt.Fprintf(&b, `<line x1="0" y1="%d" x2="%d" y2="%d" class="axis"/>`, h, w, h)
	bw := float64(w) / float64(max(len(counts), 1))
	for i, n := range counts {
		if n == 0 {
			continue
		}
		bh := float64(h-4) * float64(n) / float64(top)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.2f" height="%.1f"><title>%d</title></rect>`,
			float64(i)*bw, float64(h)-bh, max(bw, 1), bh, n)
	}
	start := end.Add(-time.Duration(len(counts)-1) * time.Minute)
	for i := range counts {
		t := start.Add(time.Duration(i) * time.Minute).In(loc)
		if t.Minute() == 0 {
			x := float64(i) * bw
			fmt.Fprintf(&b, `<line x1="%.1f" y1="0" x2="%.1f" y2="%d" class="grid"/><text x="%.1f" y="%d">%s</text>`,
				x, x, h, x+2, h+16, t.Format("15:04"))
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="12" class="top" text-anchor="end">%d/min</text></svg>`, w-2, top)
	return template.HTML(b.String())
}
