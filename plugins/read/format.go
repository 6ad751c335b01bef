package read

import (
	"fmt"
	"math"
	"strconv"
)

// size says a byte count the way people read it: "812 B", "4.2 KB", "3.1 MB".
func size(n int64) string { return string(appendSize(nil, n)) }

// appendSize appends size(n) to b: "812 B", "1.2 KB", "3.0 GB" (one
// decimal, rounded as fmt's %.1f rounds, computed in integers: a float
// formatted inside wasm costs more than the rest of a listing's line).
func appendSize(b []byte, n int64) []byte {
	const unit = 1024
	if n < unit {
		return append(strconv.AppendInt(b, n, 10), " B"...)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	if n > math.MaxInt64/10 {
		return fmt.Appendf(b, "%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
	}
	// n/div to one decimal: div is a power of two, so n/div is exact in a
	// float64 and %.1f rounds a tie to the even digit.
	tenths, r := n*10/div, n*10%div
	if 2*r > div || 2*r == div && tenths%2 == 1 {
		tenths++
	}
	b = strconv.AppendInt(b, tenths/10, 10)
	b = append(b, '.', byte('0'+tenths%10), ' ', "KMGTP"[exp], 'B')
	return b
}

// exactSize says a byte count exactly, and roughly when that helps:
// "812 bytes", "48213 bytes (47.1 KB)".
func exactSize(n int64) string {
	if n < 1024 {
		return plural(int(n), "byte", "bytes")
	}
	return fmt.Sprintf("%d bytes (%s)", n, size(n))
}

// plural returns "1 file" or "3 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
