//go:build rawhugestructured

package main

// structuredBytes is the size of test_raw_echo's structured content.
const structuredBytes = 64 << 20

// test_raw_echo declares an output schema and answers a structured content
// of 64 MiB that fits it, {"n":[0,0,0,…]}, as a plugin that returns a
// whole listing does.
func init() {
	echoOutput = `"outputSchema":{"type":"object","properties":{"n":{"type":"array","items":{"type":"integer"}}}},`
	echoResult = func(string) (uint64, uint64) {
		head, tail := `{"content":[{"type":"text","text":"many"}],"structured":{"n":[`, `0]}}`
		n := len(head) + structuredBytes + len(tail)
		off := alloc(uint64(n))
		for i := 0; i < len(head); i++ {
			storeU8(off+uint64(i), uint32(head[i]))
		}
		const zeros = 0x2c30_2c30_2c30_2c30 // "0,0,0,0," in little-endian
		for i := 0; i < structuredBytes; i += 8 {
			storeU64(off+uint64(len(head)+i), zeros)
		}
		for i := 0; i < len(tail); i++ {
			storeU8(off+uint64(len(head)+structuredBytes+i), uint32(tail[i]))
		}
		return off, uint64(n)
	}
}
