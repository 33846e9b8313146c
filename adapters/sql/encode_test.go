package sqladapter

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestEncodeFailure reads pgx's messages for arguments it refuses to send,
// without a database; the Postgres runtime cases check them end to end.
func TestEncodeFailure(t *testing.T) {
	_, a := compileTestCall(t, &testDB{driver: "postgres", dsn: "postgres://u@localhost/db"}, "",
		"SELECT * FROM t WHERE a = ${args.n} AND b = ${args.n * 2} AND c = ${args.flag} AND d = ${args.query} AND e = ${args.n + args.limit}", "", false)
	args := []any{int64(2147483648), int64(-40000), true, "a very long text that goes on and on and on and on", int64(3)}
	tests := []struct {
		name string
		err  string
		want string // "" when the error is not an encode failure
	}{
		{
			name: "above int4",
			err:  "failed to encode args[0]: unable to encode 2147483648 into binary format for int4 (OID 23): 2147483648 is greater than maximum value for int4",
			want: `A value does not fit: the argument "n" is 2147483648, but the column type integer (int4) holds -2147483648 to 2147483647. Check the arguments: give a value in that range.`,
		},
		{
			name: "below int2, computed",
			err:  "failed to encode args[1]: unable to encode -40000 into binary format for int2 (OID 21): -40000 is less than minimum value for int2",
			want: `A value does not fit: the value computed from the argument "n" is -40000, but the column type smallint (int2) holds -32768 to 32767.`,
		},
		{
			name: "bool for an integer array",
			err:  "failed to encode args[2]: unable to encode true into binary format for _int4 (OID 1007): cannot find encode plan",
			want: `A value does not fit: the argument "flag" is the boolean true, but the query uses it where the database expects integer[]. The tool's query must be fixed in its configuration (cast the value, as in CAST(${...} AS integer[]))`,
		},
		{
			name: "text, cut in the message",
			err:  `failed to encode args[3]: unable to encode "a very long text that goes on and on and on and on" into text format for widget (OID 99999): something else`,
			want: `A value does not fit: the argument "query" cannot be sent as widget (something else). Check the arguments.`,
		},
		{
			name: "computed from two arguments",
			err:  "failed to encode args[4]: unable to encode 3 into binary format for timestamptz (OID 1184): cannot find encode plan",
			want: `the value of query parameter 5 is the number 3, but the query uses it where the database expects timestamp with time zone (timestamptz).`,
		},
		{name: "index out of range", err: "failed to encode args[9]: unable to encode 1 into binary format for int4 (OID 23): x"},
		{name: "another error", err: "conn closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := a.encodeFailure(fmt.Errorf("wrapped: %w", errors.New(tt.err)), args)
			if tt.want == "" {
				if ok {
					t.Errorf("got %q, want no message", got)
				}
				return
			}
			if !ok || !strings.Contains(got, tt.want) {
				t.Errorf("got %q (%v), want it to contain %q", got, ok, tt.want)
			}
		})
	}
}
