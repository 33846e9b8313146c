package eval

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func httpEnv() reflect.Type {
	return EnvType([]EnvField{
		{Name: "status", Type: reflect.TypeOf(0)},
		{Name: "headers", Type: reflect.TypeOf(map[string]string{})},
		{Name: "body", Type: AnyType},
		{Name: "args", Type: EnvType([]EnvField{{Name: "id", Type: reflect.TypeOf("")}})},
	})
}

func parseAttr(t *testing.T, src string) (*hcl.Attribute, map[string]*hcl.File) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags)
	}
	attrs, _ := f.Body.JustAttributes()
	return attrs["x"], map[string]*hcl.File{"t.hcl": f}
}

func TestCompileProgramErrorColumns(t *testing.T) {
	tests := []struct {
		src       string
		asBool    bool
		wantCol   int
		wantInMsg string
	}{
		{`x = "statuz == 404"`, true, 6, "unknown name statuz"},
		{`x = "status == \"404\""`, true, 13, "mismatched types"},
		{`x = "args.idd == 'a'"`, true, 11, "idd"},
		{"x = <<EOT\nstatus ==\n  body.x && nope\nEOT\n", true, 0, "nope"},
		{`x = "status"`, true, 0, "expected bool"},
		{`x = "status == (404 + (1)"`, true, 16, "The ( at line 1, column 16 is never closed; add )"},
		{`x = "status in [404, 410 || body.x == ')'"`, true, 16, "The [ at line 1, column 16 is never closed; add ]"},
	}
	for _, tt := range tests {
		attr, files := parseAttr(t, tt.src)
		_, diags := CompileProgram(attr, httpEnv(), tt.asBool, files)
		if len(diags) != 1 {
			t.Fatalf("%s: want 1 diagnostic, got %v", tt.src, diags)
		}
		d := diags[0]
		if !containsFold(d.Detail, tt.wantInMsg) {
			t.Errorf("%s: detail %q lacks %q", tt.src, d.Detail, tt.wantInMsg)
		}
		if tt.wantCol != 0 && d.Subject.Start.Column != tt.wantCol {
			t.Errorf("%s: column %d, want %d", tt.src, d.Subject.Start.Column, tt.wantCol)
		}
	}
}

func TestHeredocErrorLine(t *testing.T) {
	attr, files := parseAttr(t, "x = <<EOT\nstatus == 1 &&\n  nope\nEOT\n")
	_, diags := CompileProgram(attr, httpEnv(), true, files)
	if len(diags) != 1 || diags[0].Subject.Start.Line != 3 || diags[0].Subject.Start.Column != 3 {
		t.Fatalf("want one diagnostic at 3:3, got %v", diags)
	}
}

func TestCompileTemplate(t *testing.T) {
	attr, files := parseAttr(t, `x = "No copies of '{{ body.title }}' ({{ statuz }})"`)
	tmpl, diags := CompileTemplate(attr, httpEnv(), files)
	if len(diags) != 1 || diags[0].Subject.Start.Column != 42 {
		t.Fatalf("want one diagnostic at column 42, got %v", diags)
	}
	if tmpl == nil || len(tmpl.Parts) != 5 {
		t.Fatalf("want 5 parts, got %+v", tmpl)
	}
}

func TestInterpolationRefused(t *testing.T) {
	attr, files := parseAttr(t, `x = "status == ${args.id}"`)
	_, diags := CompileProgram(attr, httpEnv(), true, files)
	if len(diags) != 1 || diags[0].Summary != "Interpolation in expr-lang" {
		t.Fatalf("got %v", diags)
	}
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
