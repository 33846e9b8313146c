package testrun

import (
	"os"
	"testing"
)

// TestCallReadsArgumentsFromStdin checks that a call taking arguments
// reads them from a piped stdin, and one without arguments never reads it.
func TestCallReadsArgumentsFromStdin(t *testing.T) {
	c := &Request{}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString(`{"n": 8}`); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got, err := c.jsonArgs(r, false)
	if err != nil || len(got) != 0 {
		t.Fatalf("a call without arguments read stdin: %v %v", got, err)
	}
	got, err = c.jsonArgs(r, true)
	if err != nil || got["n"] == nil {
		t.Fatalf("stdin not read: %v %v", got, err)
	}
}
