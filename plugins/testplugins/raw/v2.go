//go:build rawv2

package main

func init() { echoPrefix = "raw v2: " }
