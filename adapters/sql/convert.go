package sqladapter

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcpdecl/mcpdecl/internal/rule"
)

// colKind is how a column's values are turned into JSON-friendly values.
type colKind uint8

const (
	kOther   colKind = iota
	kText            // character data, even when the driver hands []byte
	kBinary          // bytes, rendered as base64
	kDecimal         // exact numbers, rendered as json.Number
	kInt             // integers
	kFloat           // double precision
	kFloat32         // single precision, rendered at that precision
	kBool
	kDate // a calendar date, rendered as 2006-01-02
	kJSON
	kVoid // PostgreSQL's void (pg_sleep): no value, rendered as null
)

// kindOf maps a column's DatabaseTypeName to its kind.
func kindOf(d Dialect, typeName string) colKind {
	t := strings.ToUpper(typeName)
	if i := strings.IndexByte(t, '('); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	t = strings.TrimPrefix(t, "UNSIGNED ")
	switch t {
	case "DECIMAL", "NUMERIC", "NEWDECIMAL", "MONEY":
		if d == SQLite {
			return kOther // SQLite stores NUMERIC as integer or real
		}
		return kDecimal
	case "INT", "INTEGER", "INT2", "INT4", "INT8", "TINYINT", "SMALLINT", "MEDIUMINT", "BIGINT", "YEAR", "SERIAL", "BIGSERIAL":
		return kInt
	case "FLOAT4", "REAL":
		if d == Postgres {
			return kFloat32
		}
		return kFloat
	case "FLOAT":
		if d == MySQL {
			return kFloat32
		}
		return kFloat
	case "FLOAT8", "DOUBLE", "DOUBLE PRECISION":
		return kFloat
	case "BOOL", "BOOLEAN":
		return kBool
	case "DATE":
		return kDate
	case "JSON", "JSONB":
		return kJSON
	case "VOID", "2278": // pgx names types it has no codec for by their OID; 2278 is void
		return kVoid
	case "BYTEA", "BLOB", "TINYBLOB", "MEDIUMBLOB", "LONGBLOB", "BINARY", "VARBINARY", "GEOMETRY", "BIT":
		return kBinary
	case "CHAR", "VARCHAR", "TEXT", "TINYTEXT", "MEDIUMTEXT", "LONGTEXT", "ENUM", "SET", "TIME",
		"BPCHAR", "NAME", "XML", "UUID", "CHARACTER", "NCHAR", "NVARCHAR", "CLOB", "CITEXT":
		return kText
	}
	return kOther
}

// convert turns a scanned value into a JSON-friendly one: int64, float64,
// json.Number (exact decimals), bool, string (times as RFC 3339, bytes as
// base64), nil, or decoded JSON.
func convert(v any, k colKind, d Dialect) any {
	if k == kVoid {
		return nil
	}
	switch v := v.(type) {
	case nil:
		return nil
	case int64:
		if k == kBool {
			return v != 0
		}
		return v
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v)
		}
		return json.Number(strconv.FormatUint(v, 10))
	case float64:
		if k == kFloat32 {
			return float32To64(float32(v))
		}
		return finite(v)
	case float32:
		return float32To64(v)
	case bool:
		return v
	case time.Time:
		if k == kDate {
			return v.Format(time.DateOnly)
		}
		return v.Format(time.RFC3339Nano)
	case string:
		return textValue(v, k)
	case []byte:
		switch {
		case k == kBinary, d == SQLite && k != kJSON:
			// SQLite hands text as string; bytes are a blob.
			return base64.StdEncoding.EncodeToString(v)
		case k == kJSON:
			return jsonValue(v)
		case k == kOther && !utf8.Valid(v):
			return base64.StdEncoding.EncodeToString(v)
		}
		return textValue(string(v), k)
	}
	return v
}

// textValue converts a value the driver gave as text.
func textValue(s string, k colKind) any {
	switch k {
	case kDecimal:
		if rule.IsNumber(s) {
			return json.Number(s)
		}
	case kInt:
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		if rule.IsNumber(s) {
			return json.Number(s)
		}
	case kFloat, kFloat32:
		bits := 64
		if k == kFloat32 {
			bits = 32
		}
		if f, err := strconv.ParseFloat(s, bits); err == nil {
			if bits == 32 {
				return float32To64(float32(f))
			}
			return finite(f)
		}
	case kBool:
		if b, err := strconv.ParseBool(s); err == nil {
			return b
		}
	case kJSON:
		return jsonValue([]byte(s))
	}
	return s
}

// float32To64 widens f to the float64 that prints as f's shortest form
// (1.1, not 1.100000023841858).
func float32To64(f float32) any {
	g, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	if err != nil {
		return finite(float64(f))
	}
	return finite(g)
}

// finite returns f, or its name as a string for NaN and the infinities,
// which JSON cannot hold.
func finite(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}

// jsonValue decodes a JSON column, keeping numbers exact; text that is not
// JSON is returned as a string.
func jsonValue(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return string(b)
	}
	return v
}
