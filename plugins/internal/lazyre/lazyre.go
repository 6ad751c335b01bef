// Package lazyre holds regular expressions that compile on first use.
// Inside wasm the regexp compiler is slow, and every instance of a plugin
// runs its package initialisation: an expression compiled there costs each
// instance's start whether or not the code that uses it runs. It is a type
// rather than a sync.OnceValue closure, which the compiler copies into
// every package variable made with it.
package lazyre

import (
	"regexp"
	"sync"
)

// A Regexp is an expression compiled the first time Get is called.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled on first use; an expression that does
// not compile panics then, as regexp.MustCompile does.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Get returns the compiled expression.
func (r *Regexp) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}
