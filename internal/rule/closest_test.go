package rule

import "testing"

func TestClosest(t *testing.T) {
	tests := []struct {
		name       string
		given      string
		candidates []string
		want       string
	}{
		{"one typo", "strng", []string{"number", "string", "bool"}, "string"},
		{"two edits in a longer name", "smaple", []string{"sample", "answers"}, "sample"},
		{"case alone always wins", "Body", []string{"bod", "body", "headers"}, "body"},
		{"case alone wins over a closer exact spelling", "BODY", []string{"BOD", "body"}, "body"},
		{"case does not count in the distance", "HEADRS", []string{"headers", "status"}, "headers"},
		{"exact match", "status", []string{"status", "statuses"}, "status"},
		{"nothing close", "xyz", []string{"headers", "status"}, ""},
		{"no candidates", "name", nil, ""},
		{"short names allow one edit", "id", []string{"ip"}, "ip"},
		{"short names refuse two edits", "ab", []string{"xy"}, ""},
		{"three edits are too many", "abcdefgh", []string{"abcdexyz"}, ""},
		{"ties go to the first in sorted order", "cat", []string{"cut", "bat", "cap"}, "bat"},
		{"ties do not depend on the listing order", "cat", []string{"cap", "cut", "bat"}, "bat"},
		{"a closer candidate beats sorted order", "naem", []string{"aname", "name"}, "name"},
		{"several case variants: first sorted", "key", []string{"Key", "KEY"}, "KEY"},
		{"multibyte names", "größe", []string{"grösse", "farbe"}, "grösse"},
		{"empty given", "", []string{"a", "bb"}, "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Closest(tt.given, tt.candidates); got != tt.want {
				t.Errorf("Closest(%q, %q) = %q, want %q", tt.given, tt.candidates, got, tt.want)
			}
		})
	}
}

func TestDidYouMean(t *testing.T) {
	if got, want := DidYouMean("Body", []string{"body"}), ` Did you mean "body"?`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := DidYouMean("zzz", []string{"body"}); got != "" {
		t.Errorf("got %q for no close candidate, want \"\"", got)
	}
}
