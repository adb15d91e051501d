package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/internal/regularfile"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

// exitFlagged is the exit status of fleet report and fleet settle when anything is
// flagged (0: everything proven; 1: any other error, usage or I/O; docs/fleet.md).
const exitFlagged = 3

const settleExitCodes = `Exit status: 0 when every payout is proven and nothing is flagged; 3 when anything is
flagged (listed in the output); 1 on any other error (usage, unreadable manifest or
definition, fleet server out of reach).`

// settleFlags are the settlement flags of fleet report and fleet settle.
type settleFlags struct {
	manifests   []string
	definitions []string
	limits      string
	json        bool
}

func (f *settleFlags) add(c *cobra.Command) {
	f.addTruth(c)
	c.Flags().BoolVar(&f.json, "json", false, "machine-readable output (docs/fleet.md, \"JSON output\"; amounts in cents)")
}

// addTruth adds the flags of what settlement proves payouts with: --manifest,
// --definition, --limits.
func (f *settleFlags) addTruth(c *cobra.Command) {
	c.Flags().StringArrayVar(&f.manifests, "manifest", nil, "block manifest (block-B.manifest.json, records the seed), or a directory of them; repeatable")
	c.Flags().StringArrayVar(&f.definitions, "definition", nil, "game definition file the blocks were made with (default: the règlement); repeatable, matched by the manifests' definition_sha256")
	c.Flags().StringVar(&f.limits, "limits", "", "the operator's pay limits per terminal (JSON, docs/fleet.md \"Limits\"): payouts above them are flagged")
}

// options are Settle's options the flags ask for: the operator's limits (--limits).
func (f *settleFlags) options() ([]settle.Option, error) {
	if f.limits == "" {
		return nil, nil
	}
	data, err := regularfile.ReadFile(f.limits, settle.MaxLimitsSize)
	if err != nil {
		return nil, err
	}
	l, err := settle.ParseLimits(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.limits, err)
	}
	return []settle.Option{settle.WithLimits(l)}, nil
}

// truth reads the manifests (files, or every block-*.manifest.json of a directory) and
// gives each block its definition.
func (f *settleFlags) truth() (*settle.Truth, error) {
	defs := []*game.Definition{game.Reglement()}
	if len(f.definitions) > 0 {
		defs = defs[:0]
		for _, p := range f.definitions {
			data, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			d, err := game.ParseSource(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			defs = append(defs, d)
		}
	}
	var files []string
	for _, p := range f.manifests {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := filepath.Glob(filepath.Join(p, "block-*.manifest.json"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no block-*.manifest.json", p)
		}
		files = append(files, found...)
	}
	var blocks []settle.Block
	for _, p := range files {
		m, err := readManifestFile(p)
		if err != nil {
			return nil, err
		}
		d, err := definitionOf(m, defs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		blocks = append(blocks, settle.Block{Manifest: m, Def: d})
	}
	return settle.NewTruth(blocks...)
}

func readManifestFile(path string) (settle.Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return settle.Manifest{}, err
	}
	defer f.Close()
	m, err := settle.ReadManifest(f)
	if err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// definitionOf is the definition of defs m names by its hash, or the first when m names
// none (a manifest written before the hash was recorded).
func definitionOf(m settle.Manifest, defs []*game.Definition) (*game.Definition, error) {
	if m.DefinitionSHA256 == "" {
		return defs[0], nil
	}
	for _, d := range defs {
		if block.DefinitionSHA256(d) == m.DefinitionSHA256 {
			return d, nil
		}
	}
	return nil, fmt.Errorf("block %d: no --definition given is the one it was made with (definition_sha256 %.16s…): %w",
		m.Block, m.DefinitionSHA256, settle.ErrDefinition)
}

// settleJSON is fleet settle's --json output.
type settleJSON struct {
	Flagged    bool               `json:"flagged"`
	Findings   int                `json:"findings"` // the text's finding lines: flagged payouts, forks, refused messages, bad values, witness findings
	Settlement *settle.Settlement `json:"settlement"`
	Refused    []refused          `json:"refused_messages"`
	BadValues  []badValue         `json:"bad_values"`
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func init() {
	var fc fleetConn
	var sf settleFlags
	s := &cobra.Command{
		Use:   "settle --manifest block-B.manifest.json|DIR [--manifest …] --data DIR [--url URL] [--json]",
		Short: "Prove every payout of the fleet's journals against its block's seed; list what is not proven",
		Long: `Rebuild each block's design and placement and derive each paid ticket's prize and secret
from the block's recorded seed (its manifest), then check every payout record in the
fleet's journal stream: the code is the ticket's true code, the amount its prize, the
claims bucket holds the ticket for the paying terminal, no other record pays it, and its
record id has one content. Every record of the stream is also checked as the fleet's
witness: signed by its terminal's registered device key (DIR/terminals.json, set-device-key),
and chained to the record before it the fleet holds. Flagged: losers paid, inflated or wrong amounts, wrong codes,
unknown tickets (no manifest for the block, or no such ticket), payouts not claimed,
conflicts and forks, payouts on records unsigned, badly signed, re-chained or of a terminal
with no device key, each with its terminal and record. Totals are split into proven
and flagged. No validation code is ever printed.

` + settleExitCodes,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			opts, err := sf.options()
			if err != nil {
				return err
			}
			truth, err := sf.truth()
			if err != nil {
				return err
			}
			reg, err := server.LoadRegistry(fc.data)
			if err != nil {
				return err
			}
			ff, err := readFleetFacts(c.Context(), &fc)
			if err != nil {
				return err
			}
			res, err := settle.Settle(ff.recs, truth, ff.claims, append(opts, settle.WithWitness(settle.CheckRecords(ff.recs, reg.DeviceKeys())))...)
			if err != nil {
				return err
			}
			flagged := !res.Clean() || ff.unread() > 0
			w := c.OutOrStdout()
			findings := len(res.Flagged) + len(res.Forks) + ff.unread() + len(res.Witness.Lines())
			if sf.json {
				err = writeJSON(w, settleJSON{Flagged: flagged, Findings: findings, Settlement: res, Refused: ff.bad, BadValues: ff.values})
			} else {
				writeUnread(w, ff.bad, ff.values)
				err = res.WriteText(w)
			}
			if err != nil {
				return err
			}
			if flagged {
				return &exitError{code: exitFlagged, err: fmt.Errorf("fleet settle: %d payouts flagged (%s EUR), %d forks, %d refused messages, %d bad values, %d witness findings",
					res.Totals.Flagged, journal.Euros(res.Totals.FlaggedAmount), len(res.Forks), len(ff.bad), len(ff.values), len(res.Witness.Lines()))}
			}
			return nil
		},
	}
	fc.flags(s)
	sf.add(s)
	s.MarkFlagRequired("manifest")
	fleetCmd.AddCommand(s)
}
