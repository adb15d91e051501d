package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// Exit codes of posctl journal verify (0: ok, vouched for by the key given with --pub).
const (
	verifyExitBad       = 1 // a record or the file is damaged or was changed (or the journal cannot be read)
	verifyExitUnvouched = 2 // intact, but not vouched for by a trusted device key
)

func init() {
	var pub string
	verify := &cobra.Command{
		Use:   "verify DIR [--pub device.pub]",
		Short: "Verify a journal whole: chain, signatures, checkpoints, indexes, day totals (exit 1 naming the first bad record, 2 when not vouched for)",
		Long: "Verify a terminal's journal whole, read-only: every record (encoding, hash, sequence\n" +
			"without gap, chain, its device key signature), every checkpoint (signature, the record\n" +
			"it covers, its day's totals), the paid and sold indexes against the records, the day totals.\n" +
			"\n" +
			"The signatures prove something only with the terminal's device public key kept apart\n" +
			"from it (--pub): DIR/device.pub can be replaced by whoever can edit the journal.\n" +
			"\n" +
			"Exit status:\n" +
			"  0  intact, every record vouched for by the device key given with --pub (\"ok\")\n" +
			"  1  a record or the file is damaged or was changed: the first one is named\n" +
			"     (TERMINAL/SEQ); or the journal cannot be read\n" +
			"  2  intact but not vouched for (\"NOT VOUCHED\"): no --pub, so the signatures were\n" +
			"     checked with DIR/device.pub; or records written before records were signed are\n" +
			"     covered by no signature",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runJournalVerify(cmd.OutOrStdout(), args[0], pub)
		},
	}
	verify.Flags().StringVar(&pub, "pub", "", "the terminal's device public key, kept apart from it (without it: DIR/device.pub, not trusted, exit 2)")
	journalCmd.AddCommand(verify)
}

func runJournalVerify(w io.Writer, dir, pub string) error {
	j, dir, err := openJournal(dir, pub)
	if err != nil {
		return err
	}
	defer j.Close()
	if pub != "" {
		notePubReplaced(w, dir, j)
	}
	if err := j.Health(); err != nil {
		return badRecord(j, firstBad(j, err))
	}
	rep, err := j.Verify()
	if err != nil {
		return badRecord(j, err)
	}
	if t := j.Snapshot(); !t.IsZero() {
		fmt.Fprintf(w, "note: the journal is in use: verified a copy taken at %s\n", t.Format("2006-01-02 15:04:05"))
	}
	if r := j.Repaired(); r != "" {
		fmt.Fprintf(w, "note: %s\n", r)
	}
	if rep.Backward > 0 {
		fmt.Fprintf(w, "warning: %d records dated more than %v before the record before them, the first record %d: the clock was set back\n",
			rep.Backward, journal.ClockTolerance, rep.BackwardFrom)
	}
	if err := rep.Vouched(); err != nil {
		fmt.Fprintf(w, "NOT VOUCHED: terminal %s, %v\n", j.Terminal(), rep)
		if !rep.KeyTrusted {
			err = fmt.Errorf("%w (give the terminal's device public key kept apart with --pub)", err)
		}
		return &exitError{code: verifyExitUnvouched, err: err}
	}
	fmt.Fprintf(w, "ok: terminal %s, %v\n", j.Terminal(), rep)
	return nil
}

// firstBad is the first bad record: Open checks from the last checkpoint only, so when it
// found a bad record, the whole journal is walked too, and the earlier finding named. (A
// damaged file, which Open reports without a record, is not walked.)
func firstBad(j *journal.Journal, health error) error {
	var ce, ve *journal.CorruptError
	if !errors.As(health, &ce) || ce.Seq == 0 {
		return health
	}
	if _, err := j.Verify(); errors.As(err, &ve) && ve.Seq > 0 && ve.Seq <= ce.Seq {
		return err
	}
	return health
}

// badRecord exits 1 naming the record as TERMINAL/SEQ.
func badRecord(j *journal.Journal, err error) error {
	var ce *journal.CorruptError
	if errors.As(err, &ce) && ce.Seq > 0 {
		err = fmt.Errorf("record %s/%d changed or damaged: %w", j.Terminal(), ce.Seq, err)
	}
	return &exitError{code: verifyExitBad, err: err}
}

// notePubReplaced says when DIR/device.pub is not the key given with --pub.
func notePubReplaced(w io.Writer, dir string, j *journal.Journal) {
	path := filepath.Join(dir, journal.DevicePubFile)
	found, err := ledger.LoadPublicKey(path)
	if err != nil {
		fmt.Fprintf(w, "note: %s: %v\n", path, err)
		return
	}
	if !bytes.Equal(found, j.PublicKey()) {
		fmt.Fprintf(w, "note: %s is not the key given (it is key %v, not %v): it was replaced\n", path, ledger.IDOf(found), ledger.IDOf(j.PublicKey()))
	}
}
