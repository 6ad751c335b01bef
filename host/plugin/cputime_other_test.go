//go:build !unix

package plugin_test

// cpuTime is not measured here: cpu-ns/op reads 0.
func cpuTime() int64 { return 0 }
