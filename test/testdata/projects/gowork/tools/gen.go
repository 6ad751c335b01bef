package tools

//go:generate stringer -type=Kind
