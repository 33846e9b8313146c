package jsondec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// referenceNumbers is what DecodeNumbers must equal: encoding/json with
// UseNumber.
func referenceNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, strconv.ErrSyntax
	}
	return v, nil
}

// referenceDecode is what Decode must equal: encoding/json with
// UseNumber, then the number conversion.
func referenceDecode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, strconv.ErrSyntax
	}
	var conv func(any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				x[k] = conv(e)
			}
		case []any:
			for i, e := range x {
				x[i] = conv(e)
			}
		case json.Number:
			s := string(x)
			if !strings.ContainsAny(s, ".eE") && s != "-0" {
				if n, err := strconv.ParseInt(s, 10, 64); err == nil {
					return int(n)
				}
			}
			return x
		}
		return v
	}
	return conv(v), nil
}

var jsonSeeds = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `-1`, `12`, `1.5`, `-2.5e10`, `1E400`, `1e-400`,
	`999999999999999999`, `-999999999999999999`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775808`, `-9223372036854775809`, `123456789012345678901234567890`,
	`"a"`, `"\u00e9\n\"\\\/"`, `"\ud83d\ude00"`, `"\ud83d"`, "\"\xff\xfe\"", `"é"`,
	` { "a" : [ 1 , 2 , { "b" : null } ] , "c" : "d" } `, `{"a":1,"a":2}`,
	`[1, 2,]`, `{"a"}`, `[1] [2]`, ``, ` `, `{"a":1}x`, `01`, `1.`, `"\x01"`,
}

func TestDecodeJSON(t *testing.T) {
	for _, s := range jsonSeeds {
		checkDecode(t, []byte(s))
	}
}

// TestDecodeJSONKeepsDigits: a number that is not an int64 is the text
// the API wrote, so an answer passed on carries the same digits.
func TestDecodeJSONKeepsDigits(t *testing.T) {
	v, err := Decode(`[304.80, 12345678901234567.89, 1e3, -0, 0, -0.0, 99999999999999999999, 7]`)
	if err != nil {
		t.Fatal(err)
	}
	want := []any{json.Number("304.80"), json.Number("12345678901234567.89"), json.Number("1e3"), json.Number("-0"), 0,
		json.Number("-0.0"), json.Number("99999999999999999999"), 7}
	if diff := cmp.Diff(want, v); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDecodeJSONDepth: nesting at encoding/json's limit is accepted, one
// level more refused, as there.
func TestDecodeJSONDepth(t *testing.T) {
	for _, n := range []int{maxDepth, maxDepth + 1} {
		for _, doc := range []string{
			strings.Repeat("[", n) + strings.Repeat("]", n),
			strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n),
		} {
			_, wantErr := referenceDecode([]byte(doc))
			_, err := Decode(doc)
			if (err != nil) != (wantErr != nil) || (err != nil) != (n > maxDepth) {
				t.Errorf("depth %d: error %v, reference error %v", n, err, wantErr)
			}
		}
	}
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecode)
}

func checkDecode(t *testing.T, data []byte) {
	for _, c := range []struct {
		name      string
		reference func([]byte) (any, error)
		decode    func(string) (any, error)
	}{
		{"Decode", referenceDecode, Decode},
		{"DecodeNumbers", referenceNumbers, DecodeNumbers},
	} {
		want, wantErr := c.reference(data)
		got, err := c.decode(string(data))
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%s(%q): error %v, reference error %v", c.name, data, err, wantErr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s(%q): (-reference +got):\n%s", c.name, data, diff)
		}
	}
}

// BenchmarkDecodeJSON compares Decode with encoding/json on a 2 KB
// list of small objects, the shape of a typical search answer.
func BenchmarkDecodeJSON(b *testing.B) {
	var books []map[string]any
	for i := 0; len(books) < 27; i++ {
		books = append(books, map[string]any{"isbn": fmt.Sprintf("97800000%05d", i), "title": fmt.Sprintf("River book number %d", i), "author": "Ada Brook"})
	}
	data, _ := json.Marshal(books)
	b.Run("Decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(string(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	// Rows of numbers: ids, counts, prices and an integer past 64 bits,
	// the shape of a database answer.
	var rows []map[string]any
	for i := range 27 {
		rows = append(rows, map[string]any{"id": 1000 + i, "stock": -i, "price": json.Number(fmt.Sprintf("%d.%02d", i, i)), "serial": json.Number(fmt.Sprintf("98765432109876543210%02d", i))})
	}
	numbers, _ := json.Marshal(rows)
	b.Run("Decode-numbers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Decode(string(numbers)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
