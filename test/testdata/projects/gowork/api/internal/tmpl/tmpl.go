// Package tmpl renders Go source; the line below is text, not a clause.
package tmpl

const Main = `
package main

func main() {}
`
