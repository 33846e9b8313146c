package sqladapter

import (
	"database/sql"
	"strconv"
)

// columnInfo is what readRows derives from a result set's columns: the
// names the rows use and how each column's values are converted. It is
// read-only once made, and shared by the calls that see the same columns.
type columnInfo struct {
	dialect Dialect
	// names and types are the columns as the driver described them: the
	// key that tells whether a later result set has the same columns.
	names, types []string
	// columns are the names the rows use (a repeated name numbered).
	columns []string
	kinds   []colKind
}

// columnsOf returns the columns' info, reusing last when the driver
// describes the same names and database types (a schema change that
// alters a column's type, or a statement whose columns vary, gives new
// info); fresh is set when it is new.
func columnsOf(types []*sql.ColumnType, d Dialect, last *columnInfo) (info *columnInfo, fresh bool) {
	if last != nil && last.describes(types, d) {
		return last, false
	}
	info = &columnInfo{
		dialect: d,
		names:   make([]string, len(types)),
		types:   make([]string, len(types)),
		kinds:   make([]colKind, len(types)),
	}
	for i, t := range types {
		info.names[i], info.types[i] = t.Name(), t.DatabaseTypeName()
		info.kinds[i] = kindOf(d, info.types[i])
	}
	info.columns = columnNames(info.names)
	return info, true
}

func (c *columnInfo) describes(types []*sql.ColumnType, d Dialect) bool {
	if c.dialect != d || len(c.names) != len(types) {
		return false
	}
	for i, t := range types {
		if t.Name() != c.names[i] || t.DatabaseTypeName() != c.types[i] {
			return false
		}
	}
	return true
}

// columnNames returns the result's column names, with a repeated name
// (SELECT a.id, b.id) numbered from its second use on: id, id_2.
func columnNames(names []string) []string {
	out := make([]string, len(names))
	seen := make(map[string]bool, len(names))
	for i, name := range names {
		if seen[name] {
			for n := 2; ; n++ {
				alt := name + "_" + strconv.Itoa(n)
				if !seen[alt] {
					name = alt
					break
				}
			}
		}
		seen[name] = true
		out[i] = name
	}
	return out
}
