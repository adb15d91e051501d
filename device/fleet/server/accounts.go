package server

import (
	"fmt"
	"strings"
	"time"

	"github.com/packterm/pos/device/fleet"
)

// The fleet's NATS accounts (docs/fleet.md, "Accounts: what a terminal reaches"). A NATS
// account is a subject space of its own: nothing published in one is seen in another but
// through an explicit export and import. The operator's account (FleetAccount) holds the
// JetStream streams and buckets, the claim service and the operator's tools; every
// terminal has an account of its own, alone in it, that imports from the fleet's account
// exactly its own subjects, as services:
//
//   - journal.<id>.<kind>: its records, taken by the claim service as intake.<id>.<kind>
//     into the JOURNAL stream (intake.go: JetStream's acknowledgement relayed);
//   - fleet.claim.<id>, fleet.conflicts.<id>, fleet.status.<id>, fleet.head.<id>: its
//     requests.
//
// A reply subject is a subject of the requester's own account: whatever a terminal names
// as its reply, the answer (the claim service's, JetStream's acknowledgement) is delivered
// in the terminal's own account, where nothing but the terminal itself listens and nothing
// but its own imports lead anywhere. So no reply can reach the claims bucket, another
// terminal's inbox or another terminal's requests. The per-user permissions
// (TerminalPermissions) stay as a second wall.

// FleetAccount is the operator's account: streams, buckets, claim service, tools.
const FleetAccount = "FLEET"

// TerminalAccount is the name of terminal id's own account (config-file modes; in
// operator/JWT mode an account is named by its public key and carries this as its name).
func TerminalAccount(id string) string { return "terminal-" + id }

// ResponseThreshold bounds how long the server keeps the way back for an unanswered
// request (default 2 min): a terminal flooding requests the service drops would otherwise
// pile up response routes in the fleet's account. The terminals wait 2 s for an answer,
// the service answers nothing that waited longer (StaleAfter).
const ResponseThreshold = 3 * time.Second

// FleetExports are the services the fleet's account exports: every terminal's journal
// and requests. Each terminal account imports only its own subjects of them
// (TerminalImports); in config-file modes only the operator writes imports.
func FleetExports() []string {
	return []string{IntakePrefix + "*.*", fleet.ClaimPrefix + "*", fleet.ConflictsPrefix + "*", fleet.StatusPrefix + "*", fleet.HeadPrefix + "*"}
}

// Import is a service a terminal's account imports from the fleet's: Remote, the
// subject in the fleet's account, under Local in the terminal's.
type Import struct{ Remote, Local string }

// TerminalImports are what terminal id imports from the fleet's account: its records
// (journal.<id>.<kind> → intake.<id>.<kind>, the journal's intake) and its requests
// (the same subject on both sides).
func TerminalImports(id string) []Import {
	out := []Import{{Remote: IntakePrefix + id + ".*", Local: "journal." + id + ".*"}}
	for _, p := range []string{fleet.ClaimPrefix, fleet.ConflictsPrefix, fleet.StatusPrefix, fleet.HeadPrefix} {
		out = append(out, Import{Remote: p + id, Local: p + id})
	}
	return out
}

// AccountsConfig is the nats-server `accounts` block of the registry: the fleet's account
// with JetStream, the operator's user and the exports; one account per terminal with its
// user (and TerminalPermissions) and its imports. Both the embedded server and
// cluster-config's node files are made from it: the accounts are decided here alone.
func AccountsConfig(reg *Registry) (string, error) {
	if err := reg.Check(); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("accounts {\n")
	fmt.Fprintf(&b, "  %s: {\n    jetstream: enabled\n", q(FleetAccount))
	fmt.Fprintf(&b, "    users: [ { nkey: %s } ]  # the operator: tools and claim service\n", q(reg.Operator))
	b.WriteString("    exports: [\n")
	for _, s := range FleetExports() {
		fmt.Fprintf(&b, "      { service: %s, response_threshold: %s }\n", q(s), q(ResponseThreshold.String()))
	}
	b.WriteString("    ]\n  }\n")
	for _, t := range reg.Terminals {
		p := TerminalPermissions(t.ID)
		fmt.Fprintf(&b, "  %s: {  # retailer %d\n", q(TerminalAccount(t.ID)), t.Retailer)
		fmt.Fprintf(&b, "    users: [ { nkey: %s, permissions: { publish: { allow: %s }, subscribe: { allow: %s } } } ]\n",
			q(t.NKey), list(p.Publish.Allow), list(p.Subscribe.Allow))
		b.WriteString("    imports: [\n")
		for _, im := range TerminalImports(t.ID) {
			fmt.Fprintf(&b, "      { service: { account: %s, subject: %s }, to: %s }\n", q(FleetAccount), q(im.Remote), q(im.Local))
		}
		b.WriteString("    ]\n  }\n")
	}
	b.WriteString("}\n")
	return b.String(), nil
}
