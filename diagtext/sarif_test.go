package diagtext

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func TestSARIFRegion(t *testing.T) {
	for _, c := range []struct {
		r    hcl.Range
		want *sarifRegion
	}{
		{hcl.Range{Start: hcl.Pos{Line: 3, Column: 5}, End: hcl.Pos{Line: 3, Column: 9}}, &sarifRegion{3, 5, 3, 9}},
		{hcl.Range{Start: hcl.Pos{Line: 3, Column: 5}, End: hcl.Pos{Line: 4, Column: 1}}, &sarifRegion{3, 5, 4, 1}},
		// An end before the start (an empty range) is the start.
		{hcl.Range{Start: hcl.Pos{Line: 3, Column: 5}}, &sarifRegion{3, 5, 3, 5}},
		// No position at all: the whole file.
		{hcl.Range{Filename: "a.hcl"}, nil},
	} {
		got := regionOf(&c.r)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("regionOf(%v) = %v, want %v", c.r, got, c.want)
		}
	}
}
