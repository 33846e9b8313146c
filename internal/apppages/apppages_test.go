package apppages

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestMissing(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("plain.hcl")
	write("shop.hcl")
	write("shop.src.html")
	write("board.src.html")
	write("board.html")
	want := []string{filepath.Join(dir, "shop.html")}
	for config, want := range map[string][]string{
		filepath.Join(dir, "plain.hcl"):     nil,
		filepath.Join(dir, "board.hcl"):     nil,
		filepath.Join(dir, "shop.hcl"):      want,
		filepath.Join(dir, "shop.hcl.json"): want,
		filepath.Join(dir, "shop_test.hcl"): nil,
		dir:                                 want,
	} {
		if got := Missing(config); !slices.Equal(got, want) {
			t.Errorf("Missing(%s) = %v, want %v", config, got, want)
		}
	}
	write("shop.html")
	if got := Missing(dir); len(got) != 0 {
		t.Errorf("with every page built, Missing = %v", got)
	}
}
