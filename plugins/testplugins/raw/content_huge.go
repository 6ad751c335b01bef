//go:build rawhugecontent

package main

// contentItems is how many empty text items test_raw_echo answers.
const contentItems = 17 << 15

// test_raw_echo answers 17 MiB of text content items, each of 32 bytes
// ({"type":"text","text":"      "},), as a plugin that returns every line
// of a file as an item of its own would: a result past the 16 MiB juju
// reads of a call.
func init() {
	echoResult = func(string) (uint64, uint64) {
		const item = `{"type":"text","text":"      "},`
		head, tail := `{"content":[`, `{"type":"text","text":"end"}]}`
		n := len(head) + contentItems*len(item) + len(tail)
		off := alloc(uint64(n))
		for i := 0; i < len(head); i++ {
			storeU8(off+uint64(i), uint32(head[i]))
		}
		var words [len(item) / 8]uint64
		for w := range words {
			for b := 7; b >= 0; b-- {
				words[w] = words[w]<<8 | uint64(item[w*8+b])
			}
		}
		for i := 0; i < contentItems; i++ {
			at := off + uint64(len(head)+i*len(item))
			for w, v := range words {
				storeU64(at+uint64(w*8), v)
			}
		}
		for i := 0; i < len(tail); i++ {
			storeU8(off+uint64(len(head)+contentItems*len(item)+i), uint32(tail[i]))
		}
		return off, uint64(n)
	}
}
