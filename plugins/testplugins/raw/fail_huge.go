//go:build rawhugefail

package main

import "strconv"

// failBytes is the size of test_raw_fail's error message, 64 MiB unless
// the build sets another (-ldflags -X main.failBytes=N).
var failBytes = "67108864"

// test_raw_fail sets an Extism error of failBytes bytes of short words, as
// a plugin that puts a whole file or a runaway loop's output into its
// error does.
func init() {
	failure = func(string) uint64 {
		n, _ := strconv.Atoi(failBytes)
		off := alloc(uint64(n))
		const words = 0x2061_2061_2061_2061 // "a a a a " in little-endian
		for i := 0; i+8 <= n; i += 8 {
			storeU64(off+uint64(i), words)
		}
		for i := n &^ 7; i < n; i++ {
			storeU8(off+uint64(i), 'a')
		}
		return off
	}
}
