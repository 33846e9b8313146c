// Package diagcode gives every error diagnostic of a configuration a
// stable code naming its class (a syntax error, an unknown name, a type
// mismatch...), so that tools reading the output of `mcpdecl validate`
// and `mcpdecl check` can tell kinds of errors apart.
//
// It owns the error classes ([Classes]) and the one table that maps a
// diagnostic to its class: the code its producer set in Extra ([Mark]),
// else its summary. lint lists the classes among its rules; diagtext
// prints the codes.
//
// A diagnostic's Extra may also carry a [Hint] for editors, the same
// facts its text gives in words: the replacement a "Did you mean"
// offers and the range it replaces, and the places the detail names
// (the first declaration of a duplicate). The language server makes its
// quick fixes and related locations from it.
//
// It is a leaf: it imports hcl and the standard library only.
package diagcode
