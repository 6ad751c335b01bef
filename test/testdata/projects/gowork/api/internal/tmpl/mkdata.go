//go:build ignore

// mkdata writes the tables; go run mkdata.go, never built with the package.
package main

func main() {}
