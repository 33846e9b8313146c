package sqladapter

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/mcpdecl/mcpdecl/internal/lazyregexp"
)

// pgEncodeFailure matches pgx's message for an argument it cannot encode
// as the type the server gave the parameter, such as "failed to encode
// args[0]: unable to encode 2147483648 into binary format for int4 (OID
// 23): 2147483648 is greater than maximum value for int4". pgx checks
// this before anything is sent and offers the pieces only as text, so
// they are read from the message.
var pgEncodeFailure = lazyregexp.New(`(?s)failed to encode args\[(\d+)\]: unable to encode .* into \w+ format for (\S+) \(OID \d+\): (.*)$`)

// pgIntRanges are the bounds of the integer types whose range pgx checks.
var pgIntRanges = map[string][2]int64{
	"int2": {-1 << 15, 1<<15 - 1},
	"int4": {-1 << 31, 1<<31 - 1},
	"int8": {-1 << 63, 1<<63 - 1},
}

// pgTypeNames spells pgx's internal type names as SQL writes them.
var pgTypeNames = map[string]string{
	"int2": "smallint", "int4": "integer", "int8": "bigint",
	"float4": "real", "float8": "double precision", "bool": "boolean",
	"bpchar": "character", "varchar": "character varying",
	"timestamptz": "timestamp with time zone", "timetz": "time with time zone",
}

// encodeFailure describes an argument the driver refused to send, as
// a message for the model; ok is false when err is no such refusal.
func (a *Action) encodeFailure(err error, args []any) (msg string, ok bool) {
	m := pgEncodeFailure.FindStringSubmatch(err.Error())
	if m == nil {
		return "", false
	}
	i, convErr := strconv.Atoi(m[1])
	if convErr != nil || i >= len(args) {
		return "", false
	}
	typ, why := m[2], m[3]
	param := a.paramName(i)
	if r, ok := pgIntRanges[typ]; ok && (strings.Contains(why, "greater than maximum") || strings.Contains(why, "less than minimum")) {
		return fmt.Sprintf("A value does not fit: %s is %s, but the column type %s holds %d to %d. Check the arguments: give a value in that range.",
			param, showArg(args[i]), sqlTypeName(typ), r[0], r[1]), true
	}
	if strings.Contains(why, "cannot find encode plan") {
		return fmt.Sprintf("A value does not fit: %s is %s, but the query uses it where the database expects %s. The tool's query must be fixed in its configuration (cast the value, as in CAST(${...} AS %s)); retrying will not help.",
			param, describeArg(args[i]), sqlTypeName(typ), pgSQLName(typ)), true
	}
	return fmt.Sprintf("A value does not fit: %s cannot be sent as %s (%s). Check the arguments.", param, sqlTypeName(typ), clipQuoted(why, valueQuote)), true
}

// paramName names the i-th bound parameter for the model: the argument it
// is, or the one it is computed from.
func (a *Action) paramName(i int) string {
	if i < len(a.Query.argNames) && a.Query.argNames[i] != "" {
		return fmt.Sprintf("the argument %q", a.Query.argNames[i])
	}
	if i < len(a.Query.Params) {
		var names []string
		for _, t := range a.Query.Params[i].Variables() {
			if t.RootName() != "args" || len(t) < 2 {
				continue
			}
			if attr, ok := t[1].(hcl.TraverseAttr); ok && !slices.Contains(names, attr.Name) {
				names = append(names, attr.Name)
			}
		}
		if len(names) == 1 {
			return fmt.Sprintf("the value computed from the argument %q", names[0])
		}
	}
	return fmt.Sprintf("the value of query parameter %d", i+1)
}

// sqlTypeName names a pgx type for a message: "integer (int4)", or
// "integer[]" for the array type "_int4".
func sqlTypeName(t string) string {
	if name := pgSQLName(t); name != t && !strings.HasSuffix(name, "[]") {
		return name + " (" + t + ")"
	}
	return pgSQLName(t)
}

// pgSQLName spells a pgx type name as SQL does: "integer" for "int4".
func pgSQLName(t string) string {
	if elem, ok := strings.CutPrefix(t, "_"); ok {
		return pgSQLName(elem) + "[]"
	}
	if name, ok := pgTypeNames[t]; ok {
		return name
	}
	return t
}

// showArg renders a bound value for a message, a long one cut short.
func showArg(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		text, note := clipText(v, valueQuote)
		return strconv.Quote(text) + note
	}
	return fmt.Sprint(v)
}

// describeArg says what kind of value v is, and which.
func describeArg(v any) string {
	switch v.(type) {
	case bool:
		return "the boolean " + showArg(v)
	case string:
		return "the text " + showArg(v)
	case nil:
		return "null"
	}
	return "the number " + showArg(v)
}
