// Package lazyregexp holds a regular expression compiled on its first use,
// not when the program starts: the package-level patterns of the adapters,
// the language and lint add up to thousands of allocations and hundreds of
// kilobytes that every process paid at start-up, `mcpdecl version` and a
// served echo tool included, although most runs never match most of them.
package lazyregexp

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled by its first method call. Its methods are
// those of regexp.Regexp that mcpdecl calls, and are safe for concurrent
// use.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// New returns the pattern uncompiled. A pattern that does not compile
// panics on its first use, as regexp.MustCompile would at start-up; call
// New only to initialise package variables (see Declared).
func New(pattern string) *Regexp {
	r := &Regexp{pattern: pattern}
	declared = append(declared, r)
	return r
}

// declared lists every pattern made by New, which package variables call
// while the program initialises, one goroutine at a time.
var declared []*Regexp

// Declared returns every pattern declared so far, for a test of a program
// that imports them all to compile each: a typo in a rarely used pattern
// then fails a test instead of a late call.
func Declared() []*Regexp { return declared }

// Regexp is the compiled pattern.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

func (r *Regexp) String() string { return r.pattern }

func (r *Regexp) MatchString(s string) bool { return r.Regexp().MatchString(s) }

func (r *Regexp) Match(b []byte) bool { return r.Regexp().Match(b) }

func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }

func (r *Regexp) FindStringIndex(s string) []int { return r.Regexp().FindStringIndex(s) }

func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }

func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}

func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }

func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}

func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}

func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}

func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}

func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}

func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }

func (r *Regexp) SubexpNames() []string { return r.Regexp().SubexpNames() }

func (r *Regexp) Split(s string, n int) []string { return r.Regexp().Split(s, n) }

func (r *Regexp) FindIndex(b []byte) []int { return r.Regexp().FindIndex(b) }

func (r *Regexp) FindAllIndex(b []byte, n int) [][]int { return r.Regexp().FindAllIndex(b, n) }
