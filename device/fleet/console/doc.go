// Package console is the operator's console (docs/console.md): a read-only web view of
// the fleet, served by the fleet's own binary (posctl fleet serve --console). It loads
// the fleet's facts once (server.ReadFacts: the JOURNAL and REFUSALS streams, the
// claims, conflicts and status buckets), then keeps an in-memory Model up to date from
// ordered JetStream consumers of both streams and watchers of the buckets, so a page
// never reads a stream; it renders server-side HTML pages (html/template, embedded, in
// French by default or English) of the overview, the terminals, one terminal, a day's
// settlement (validate/settle, exportable as CSV and JSON) and the retailers, and pushes
// each new record to the open pages by server-sent events. It only reads the fleet. The
// operator logs in with a token the server writes once into the fleet's data directory
// (0600); pages carry a session cookie (HttpOnly, SameSite=Strict); requests for a Host
// the console does not answer to, and cross-origin posts, are refused before anything
// else (internal/httporigin, the terminal page's checks). No validation code, key or
// token appears on any page, export or log line.
package console
