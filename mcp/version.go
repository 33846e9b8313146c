package mcp

// Protocol revisions this package knows.
const (
	Version20260728 = "2026-07-28"
	Version20251125 = "2025-11-25"
	Version20250618 = "2025-06-18"
	Version20250326 = "2025-03-26"
)

// Era is the protocol generation a message is served under.
type Era int

// Eras. EraUnknown is the zero value so a forgotten classification is visible.
const (
	EraUnknown Era = iota
	EraModern      // 2026-07-28 and later: stateless, per-request _meta
	EraLegacy      // 2025-11-25 and earlier: initialize, sessions
)

// String names the era for logs and test failures.
func (e Era) String() string {
	switch e {
	case EraModern:
		return "modern"
	case EraLegacy:
		return "legacy"
	}
	return "unknown"
}

// The era of a revision is decided by membership in these sets, never by
// comparing strings: go-sdk's `v < "2026-07-28"` silently treats "1900-01-01"
// as legacy.
var (
	modernVersions = map[string]bool{Version20260728: true}
	legacyVersions = map[string]bool{Version20251125: true, Version20250618: true, Version20250326: true}
)

// knownOrder lists every known revision, newest first. Feature checks use a
// revision's position here, which is membership-based as well.
var knownOrder = []string{Version20260728, Version20251125, Version20250618, Version20250326}

// KnownVersions returns every revision this package implements, newest first.
func KnownVersions() []string { return append([]string(nil), knownOrder...) }

// VersionEra classifies a revision by set membership; EraUnknown for anything
// not known (including well-formed but unknown dates).
func VersionEra(v string) Era {
	switch {
	case modernVersions[v]:
		return EraModern
	case legacyVersions[v]:
		return EraLegacy
	}
	return EraUnknown
}

// rank is a known revision's age: 0 for the oldest; -1 if unknown.
func rank(v string) int {
	for i, k := range knownOrder {
		if k == v {
			return len(knownOrder) - 1 - i
		}
	}
	return -1
}

// atLeast reports whether known revision v includes what revision since
// introduced (e.g. titles since 2025-06-18). Unknown v counts as oldest.
func atLeast(v, since string) bool { return rank(v) >= rank(since) }

// versionSet is the subset of known revisions a Server offers.
type versionSet struct {
	list   []string // newest first, as offered in discover and -32022 data
	offers map[string]bool
}

func newVersionSet(vs []string) versionSet {
	if len(vs) == 0 {
		vs = knownOrder
	}
	s := versionSet{offers: map[string]bool{}}
	for _, k := range knownOrder { // keep newest-first order whatever the input order
		for _, v := range vs {
			if v == k && !s.offers[k] {
				s.offers[k] = true
				s.list = append(s.list, k)
			}
		}
	}
	return s
}

// offersModern reports whether v is a modern revision this server offers.
func (s versionSet) offersModern(v string) bool { return s.offers[v] && modernVersions[v] }

// offersLegacy reports whether v is a legacy revision this server offers.
func (s versionSet) offersLegacy(v string) bool { return s.offers[v] && legacyVersions[v] }

// legacyList returns the offered legacy revisions, newest first.
func (s versionSet) legacyList() []string {
	var out []string
	for _, v := range s.list {
		if legacyVersions[v] {
			out = append(out, v)
		}
	}
	return out
}

// negotiate implements legacy initialize version negotiation: echo the
// requested version if offered, else counter-offer the newest offered legacy
// version. It never negotiates a modern revision (go-sdk #1033). ok is false
// when the server offers no legacy version at all.
func (s versionSet) negotiate(requested string) (string, bool) {
	if s.offersLegacy(requested) {
		return requested, true
	}
	l := s.legacyList()
	if len(l) == 0 {
		return "", false
	}
	return l[0], true
}

// NegotiateLegacy is the initialize negotiation over the given offered
// revisions (all known ones when offered is empty), exposed for callers that
// probe or test negotiation without a Server.
func NegotiateLegacy(requested string, offered []string) (string, bool) {
	return newVersionSet(offered).negotiate(requested)
}
