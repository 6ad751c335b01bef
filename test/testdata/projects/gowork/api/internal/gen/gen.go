// Package gen holds generated tables.
package gen

//go:generate go run ../tmpl/mkdata.go
