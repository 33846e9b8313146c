package jsonenc

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// same checks that Marshal and encoding/json agree on v, errors included.
func same(t *testing.T, v any) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	got, err := Marshal(v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%#v: error %v, encoding/json's %v", v, err, wantErr)
	}
	if err == nil && !bytes.Equal(got, want) {
		t.Fatalf("%#v:\n got %s\nwant %s", v, got, want)
	}
}

func TestMatchesEncodingJSON(t *testing.T) {
	for _, v := range []any{
		nil, true, false, "", "plain", `quote " backslash \ slash /`, "<b>&amp;</b>",
		"\x00\x01\b\f\n\r\t\x1f\x7f", "héllo wörld ✓ 🚀", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xe2\x82",
		0, -1, 42, int64(math.MaxInt64), int64(math.MinInt64), int32(-7), uint64(math.MaxUint64), int8(3), uint(9),
		0.0, 1.5, -0.25, 1e20, 1e21, 1e-6, 1e-7, 123456789.125, math.SmallestNonzeroFloat64, math.MaxFloat64,
		float32(1.1), float32(1e21), float32(1e-7), float32(3.4e38),
		json.Number("12345678901234567890.5"), json.Number("-0"), json.Number("1e5"), json.Number(""),
		json.Number("01"), json.Number("1."), json.Number("abc"), json.Number("1e"),
		map[string]any{}, map[string]any{"b": 1, "a": []any{"x", nil, map[string]any{"z": false, "y": 2.5}}},
		map[string]any(nil), []any(nil), []any{}, []string{"a", "<"}, []string(nil),
		[]map[string]any{{"id": 1}, {"id": 2, "name": "two"}}, []map[string]any(nil),
		map[string]string{"k": "v"}, []int{1, 2}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		math.NaN(), math.Inf(1), map[string]any{"bad": math.Inf(-1)}, []any{1, math.NaN()},
		map[string]any{"k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9,
			"k10": 10, "k11": 11, "k12": 12, "k13": 13, "k14": 14, "k15": 15, "k16": 16, "k17": 17},
	} {
		same(t, v)
	}
}

func TestAppendKeepsPrefix(t *testing.T) {
	got, err := Append([]byte(`{"x":`), map[string]any{"a": "b"})
	if err != nil || string(got) != `{"x":{"a":"b"}` {
		t.Fatalf("%s %v", got, err)
	}
}

// FuzzMatchesEncodingJSON decodes arbitrary JSON two ways (floats and
// json.Number) and checks both encodings against encoding/json.
func FuzzMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",null,true]}`, `"\u2028<>&\ud800"`, `[1e300,-1e-300,0.1]`, `{"z":{"y":{}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		same(t, s) // the input as a string
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			same(t, v)
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		if dec.Decode(&v) == nil {
			same(t, v)
		}
	})
}

func BenchmarkMarshal2K(b *testing.B) {
	var v any
	var books []any
	for i := range 27 {
		books = append(books, map[string]any{"isbn": "9780000000" + string(rune('0'+i%10)), "title": "River book", "author": "Ada Brook", "n": i})
	}
	v = map[string]any{"books": books}
	b.Run("jsonenc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
}
