package block

import (
	"bytes"
	"compress/gzip"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/ledger"
)

// FuzzParseRow: a line is refused with an error or read into a row whose fields come
// from the line.
func FuzzParseRow(f *testing.F) {
	f.Add(`0,1,1,100,0V2R8C6ZJ5M1E4T8X0QF3K9HWD,004200000005,10042000000016,"30"`)
	f.Add(`1499999,7,7,5000,ABCDEFGHJKMNPQRSTVWXYZ012,004214999997,77999999999970,"VIP:20|VC:3,BG:6,CS:30|PE,PE,BU,BA,PE,VG|3+4:10|x2a"`)
	f.Add(`0,1,1,100,a,b,c,"x"y"`)
	f.Add(`01,1,1,1,a,b,c,"x"`)
	f.Add(`,,,,,,,""`)
	f.Fuzz(func(t *testing.T, line string) {
		r, err := ParseRow(line)
		if err != nil {
			return
		}
		if !strings.Contains(line, `"`+r.Play+`"`) || !strings.Contains(line, r.Validation) {
			t.Fatalf("%q parsed into %+v", line, r)
		}
	})
}

// FuzzAudit: whatever the printer's file holds, the audit returns an error or a report,
// never panics, and never calls a file clean unless it is the generated one.
func FuzzAudit(f *testing.F) {
	d := smallDefinition(rand.New(rand.NewPCG(31, 31)), 20)
	dir := f.TempDir()
	g, err := generateIn(dir, d, 5, Seed{5})
	if err != nil {
		f.Fatal(err)
	}
	clean, err := os.ReadFile(g.printPath())
	if err != nil {
		f.Fatal(err)
	}
	zr, _ := gzip.NewReader(bytes.NewReader(clean))
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	f.Add(plain.Bytes())
	f.Add([]byte(PrintHeader))
	f.Add([]byte(PrintHeader + "0,1,1,0,x,y,z,\"M1\"\n"))
	f.Add([]byte("garbage\n\n\n"))
	l, err := ledger.OpenFile(filepath.Join(dir, ledger.FileName(5)), g.trust)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { l.Close() })
	f.Fuzz(func(t *testing.T, text []byte) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(text)
		zw.Close()
		rep, err := Audit(context.Background(), &buf, l, AuditOptions{Workers: 2})
		if err != nil {
			return
		}
		if rep.OK() && !bytes.Equal(text, plain.Bytes()) {
			// Only a reordering of the same rows may pass too.
			if !sameLines(text, plain.Bytes()) {
				t.Fatalf("audit passed a file that is not the block's:\n%q", text)
			}
		}
	})
}

func sameLines(a, b []byte) bool {
	la := strings.Split(strings.TrimSuffix(string(a), "\n"), "\n")
	lb := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(la) != len(lb) || la[0] != lb[0] {
		return false
	}
	seen := map[string]int{}
	for _, l := range lb {
		seen[l]++
	}
	for _, l := range la {
		if seen[l]--; seen[l] < 0 {
			return false
		}
	}
	return true
}
