// Package fastschema is a fast checker for the subset of JSON Schema
// (2020-12) that mcpdecl's compiler writes: [Compile] builds a [Schema]
// beside the schema library's own compilation, and [Schema.Accepts]
// answers "certainly valid" or "cannot tell" for a decoded JSON value
// (numbers as json.Number), so that only the values it cannot vouch for
// go to the library, whose messages stay the ones users see.
//
// It is a leaf: it imports the standard library and the JSON Schema
// library only, and no mcpdecl package.
package fastschema
