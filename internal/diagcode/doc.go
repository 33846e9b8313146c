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
// It is a leaf: it imports hcl and the standard library only.
package diagcode
