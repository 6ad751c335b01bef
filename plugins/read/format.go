package read

import (
	"fmt"
	"strconv"
)

// size says a byte count the way people read it: "812 B", "4.2 KB", "3.1 MB".
func size(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "KMGTP"[exp])
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
