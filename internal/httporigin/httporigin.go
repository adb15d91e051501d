// Package httporigin holds the checks a local web page makes against DNS rebinding and
// cross-site requests (the terminal's page, device/web, and the operator's console,
// device/fleet/console): the request's Host must be a name the page answers to, and a
// state-changing request must come from the page's own origin.
package httporigin

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Entry is one extra name a page answers to: Port "" stands for the listening port.
type Entry struct{ Name, Port string }

// Entries parses host names (as a Host header writes them, with or without a port);
// those that do not parse are left out.
func Entries(hosts []string) []Entry {
	var out []Entry
	for _, h := range hosts {
		if name, port, ok := SplitHost(h, ""); ok {
			out = append(out, Entry{name, port})
		}
	}
	return out
}

// SplitHost splits a Host header (or a URL's host) into a lower-case name (brackets off
// an IPv6 address) and a port, defaultPort when there is none.
func SplitHost(h, defaultPort string) (name, port string, ok bool) {
	if h == "" || strings.ContainsAny(h, " \t/\\@") {
		return "", "", false
	}
	name, port = h, defaultPort
	if n, p, err := net.SplitHostPort(h); err == nil {
		name, port = n, p
	} else if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		name = h[1 : len(h)-1]
	} else if strings.Contains(h, ":") && net.ParseIP(h) == nil {
		return "", "", false
	}
	if name == "" {
		return "", "", false
	}
	return strings.ToLower(name), port, true
}

// Local is the address r came in on: the connection's (http.Server sets it), else
// listen (the address listened on).
func Local(r *http.Request, listen string) (ip net.IP, port string) {
	addr := listen
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		addr = a.String()
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, ""
	}
	return net.ParseIP(h), p
}

// HostOK reports whether r's Host is one the page answers to: a name of extra, or on
// the listening port a loopback name (localhost, 127.0.0.0/8, ::1) or the IP address
// the request came in on. A name a hostile page's DNS may rebind is none of these.
func HostOK(r *http.Request, listen string, extra []Entry) bool {
	localIP, localPort := Local(r, listen)
	name, port, ok := SplitHost(r.Host, "80")
	if !ok {
		return false
	}
	for _, e := range extra {
		if e.Name == name && (e.Port == port || e.Port == "" && (localPort == "" || port == localPort)) {
			return true
		}
	}
	if localPort != "" && port != localPort {
		return false
	}
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && (ip.IsLoopback() || localIP != nil && !localIP.IsUnspecified() && ip.Equal(localIP))
}

// OriginOK reports whether a state-changing request comes from the page itself. A
// browser sends Origin with every POST (fetch and forms); the page's Referrer-Policy
// (same-origin) keeps it the real origin. Without Origin, Sec-Fetch-Site must say
// same-origin; without either, a Referer must name the same host; a request with none
// of the three comes from no browser (curl, a tool), which a rebinding page cannot
// drive: its Host was checked.
func OriginOK(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return true
	}
	if o := r.Header.Get("Origin"); o != "" {
		if o == "null" { // an opaque origin: a sandboxed frame, a page that hides its own
			return r.Header.Get("Sec-Fetch-Site") == "same-origin"
		}
		return SameHost(o, r.Host)
	}
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" {
		return s == "same-origin"
	}
	if ref := r.Header.Get("Referer"); ref != "" {
		return SameHost(ref, r.Host)
	}
	return true
}

// SameHost reports whether the URL u is on host (as the Host header writes it).
func SameHost(u, host string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.User == nil && p.Host != "" && strings.EqualFold(p.Host, host)
}

// Clip shortens a header value quoted in a log line.
func Clip(s string) string {
	const n = 64
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Source is the guessing source of r, as the login throttles count them: the remote
// IPv4 address, or the IPv6 /64 (one host has a whole /64 to pick from).
func Source(r *http.Request) string {
	a, err := netip.ParseAddrPort(r.RemoteAddr)
	ip := a.Addr()
	if err != nil {
		if ip, err = netip.ParseAddr(r.RemoteAddr); err != nil {
			return r.RemoteAddr // not an IP address (a test's, a proxy's): taken as it is
		}
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}
