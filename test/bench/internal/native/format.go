package native

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// size says a byte count the way people read it: "812 B", "4.2 KB".
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

// plural returns "1 file" or "3 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// pad right-aligns a line number in six columns, as cat -n does.
func pad(n int) string {
	s := strconv.Itoa(n)
	if len(s) < 6 {
		s = strings.Repeat(" ", 6-len(s)) + s
	}
	return s
}

// modTime formats a modification time as juju's entries carry it.
func modTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
