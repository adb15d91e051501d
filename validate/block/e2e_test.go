package block

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// generated is one generation on disk: its directory, plan and keys.
type generated struct {
	dir   string
	plan  *Plan
	pub   ed25519.PublicKey
	priv  ed25519.PrivateKey
	man   *Manifest
	trust *ledger.TrustStore
}

func generate(t testing.TB, d *game.Definition, block uint16, seed Seed) *generated {
	t.Helper()
	g, err := generateIn(t.TempDir(), d, block, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func ed25519GenerateKey() (ed25519.PublicKey, ed25519.PrivateKey, error) {
	return ed25519.GenerateKey(nil)
}

func (g *generated) audit(t testing.TB, printPath string) *Report {
	t.Helper()
	l, err := ledger.OpenFile(filepath.Join(g.dir, ledger.FileName(g.plan.Number)), g.trust)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	f, err := os.Open(printPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Audit(context.Background(), f, l, AuditOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func (g *generated) printPath() string { return filepath.Join(g.dir, PrintFileName(g.plan.Number)) }

func readPrint(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func writePrint(t testing.TB, path string, lines []string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSmallBlocksManySeeds: generation then audit of small test definitions on many
// seeds; every audit is clean and every ticket's validation code opens its entry.
func TestSmallBlocksManySeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for i := range seeds(4, 25) {
		d := smallDefinition(r, 20+r.IntN(300))
		var seed Seed
		seed[0], seed[1] = byte(i), 0x5e
		g := generate(t, d, uint16(1+i), seed)
		rep := g.audit(t, g.printPath())
		if !rep.OK() {
			var b strings.Builder
			rep.Write(&b)
			t.Fatalf("definition %d: audit found problems:\n%s", i, b.String())
		}
		if rep.Rows != d.TicketsPerBlock() || rep.Checked.Ledger != rep.Rows || rep.Checked.Plays != rep.Rows || rep.Checked.Codes != rep.Rows {
			t.Fatalf("definition %d: %+v", i, rep.Checked)
		}
		if rep.IsReglement {
			t.Fatal("a test definition reported as the règlement")
		}
	}
}

func TestSameSeedSameBytes(t *testing.T) {
	d := smallDefinition(rand.New(rand.NewPCG(5, 5)), 300)
	seed := Seed{9, 9, 9}
	a := generate(t, d, 7, seed)
	b := generate(t, d, 7, seed)
	for _, name := range []string{PrintFileName(7), ledger.FileName(7)} {
		x, _ := os.ReadFile(filepath.Join(a.dir, name))
		y, _ := os.ReadFile(filepath.Join(b.dir, name))
		if name == ledger.FileName(7) {
			// Different operator keys sign them: compare the entries (the file minus header).
			x, y = x[len(x)-ledger.PackedSize(d.TicketsPerBlock()):], y[len(y)-ledger.PackedSize(d.TicketsPerBlock()):]
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two generations from the same seed", name)
		}
	}
	// A second generation into the same directory is refused and changes nothing.
	before, _ := os.ReadFile(a.printPath())
	if _, err := b.plan.Files(context.Background(), a.dir, 1, b.priv, nil); !errors.Is(err, ErrExists) {
		t.Errorf("generating over an existing block: %v, want ErrExists", err)
	}
	if after, _ := os.ReadFile(a.printPath()); !bytes.Equal(before, after) {
		t.Error("a refused generation changed the printer's file")
	}
	// Worker count does not change the output.
	var one, many bytes.Buffer
	a.plan.Generate(context.Background(), Output{Print: &one, Workers: 1})
	a.plan.Generate(context.Background(), Output{Print: &many, Workers: 5})
	if !bytes.Equal(one.Bytes(), many.Bytes()) {
		t.Error("the printer's file depends on the number of workers")
	}
	c := generate(t, d, 7, Seed{9, 9, 8})
	x, _ := os.ReadFile(a.printPath())
	y, _ := os.ReadFile(c.printPath())
	if bytes.Equal(x, y) {
		t.Error("two seeds, same printer's file")
	}
}

// TestAuditFindsTampering: a doctored printer's file or a mismatched ledger is caught.
func TestAuditFindsTampering(t *testing.T) {
	d := smallDefinition(rand.New(rand.NewPCG(6, 6)), 200)
	g := generate(t, d, 3, Seed{1})
	lines := readPrint(t, g.printPath())
	winner := -1
	for i, l := range lines[1:] {
		if r, _ := ParseRow(l); r.Prize > 0 {
			winner = i + 1
			break
		}
	}
	tamper := func(name string, edit func([]string) []string, want string) {
		t.Run(name, func(t *testing.T) {
			ls := edit(append([]string(nil), lines...))
			path := filepath.Join(t.TempDir(), "doctored.csv.gz")
			writePrint(t, path, ls)
			rep := g.audit(t, path)
			if rep.OK() {
				t.Fatal("audit passed a doctored file")
			}
			var b strings.Builder
			rep.Write(&b)
			if !strings.Contains(b.String(), want) {
				t.Fatalf("report lacks %q:\n%s", want, b.String())
			}
		})
	}
	tamper("a prize raised", func(ls []string) []string {
		r, _ := ParseRow(ls[winner])
		ls[winner] = strings.Replace(ls[winner], ","+strconv.Itoa(int(r.Prize))+",", ","+strconv.Itoa(int(r.Prize)+100)+",", 1)
		return ls
	}, "le jeu imprimé gagne")
	tamper("a row dropped", func(ls []string) []string { return append(ls[:5], ls[6:]...) }, "tickets présents")
	tamper("a row doubled", func(ls []string) []string { return append(ls, ls[9]) }, "en double")
	tamper("a validation code changed", func(ls []string) []string {
		r, _ := ParseRow(ls[winner])
		vc, _ := codes.ParseValidation(r.Validation)
		vc.Secret[0] ^= 1
		ls[winner] = strings.Replace(ls[winner], r.Validation, vc.String(), 1)
		return ls
	}, "registre")
	tamper("a play changed", func(ls []string) []string {
		for i, l := range ls[1:] {
			if r, _ := ParseRow(l); r.Game == 3 && r.Prize == 0 {
				p, _ := game.ParsePlay(3, r.Play)
				fp := p.(game.FarnientePlay)
				fp.Symbols[1] = fp.Symbols[0]
				ls[i+1] = strings.Replace(l, r.Play, game.EncodePlay(fp), 1)
				return ls
			}
		}
		t.Fatal("no losing game-3 ticket")
		return ls
	}, "le jeu imprimé gagne")
	tamper("garbage", func(ls []string) []string { return append(ls, "x,y") }, "malformed row")

	// A ledger of another seed disagrees with every row.
	other := generate(t, d, 3, Seed{2})
	rep := other.audit(t, g.printPath())
	if rep.Checked.Ledger != 0 {
		t.Errorf("another block's ledger confirmed %d rows", rep.Checked.Ledger)
	}
}

// TestFilesRefuseFIFOs: a FIFO in place of the printer's file is refused at once, and a
// directory holding a block's file is refused before any work (CheckFree).
func TestFilesRefuseFIFOs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, PrintFileName(3))
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPrintFile(fifo); !errors.Is(err, ledger.ErrNotRegular) {
		t.Fatalf("printer's file as a FIFO: %v", err)
	}
	if err := CheckFree(dir, 3); !errors.Is(err, ErrExists) {
		t.Fatalf("CheckFree with block 3's printer's file there: %v", err)
	}
	if err := CheckFree(dir, 4); err != nil {
		t.Fatalf("CheckFree for another block: %v", err)
	}
}
