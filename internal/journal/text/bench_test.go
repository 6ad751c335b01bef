package text

import (
	"fmt"
	"strings"
	"testing"
)

// largeFile is n lines of code-like text, each line different.
func largeFile(n int) string {
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"}
	for i := range n {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "func %s%d(x int) error {\n", words[i%8], i)
		case 1:
			fmt.Fprintf(&b, "\tv%d := compute(x, %d, %q)\n", i, i*7, words[(i/3)%8])
		case 2:
			fmt.Fprintf(&b, "\tif v%d > %d {\n", i-1, i%97)
		case 3:
			fmt.Fprintf(&b, "\t\treturn fmt.Errorf(\"%s %%d\", v%d)\n", words[(i/7)%8], i-2)
		default:
			b.WriteString("\t}\n\treturn nil\n}\n\n")
		}
	}
	return b.String()
}

// repetitiveFile is n lines that all look alike, the worst case for the
// candidate index (every line shares trigrams with every old line).
func repetitiveFile(n int) string {
	return strings.Repeat("\treturn nil\n", n)
}

// BenchmarkNoMatch measures the explanation of a failed edit on a large
// file (50,000 lines): it should stay well under 50 ms. cpu-ms/op is the
// process's CPU time per call, which a busy machine does not inflate.
func BenchmarkNoMatch(b *testing.B) {
	large := largeFile(50_000)
	lines := strings.Split(large, "\n")
	near := len(lines) - 200
	for near%5 != 1 {
		near++
	}
	window := strings.Join(lines[near-1:near+9], "\n")
	for _, c := range []struct{ name, content, old string }{
		{"one line", large, strings.Replace(lines[near], "compute(", "computer(", 1)},
		{"ten lines", large, strings.Replace(window, "compute(", "computer(", 1)},
		{"ten lines, one missing", large, strings.Replace(window, lines[near+1]+"\n", "", 1)},
		{"nothing alike", large, "zzzz qqqq"},
		{"repetitive one line", repetitiveFile(50_000), "\treturn nill"},
		{"repetitive forty lines", repetitiveFile(50_000), strings.Repeat("\treturn nil\n", 39) + "\treturn nill"},
	} {
		b.Run(c.name, func(b *testing.B) {
			content := []byte(c.content)
			cpu := cpuTime()
			for b.Loop() {
				if _, _, e := Edit("big.go", content, c.old, "x", false); e == nil || e.Code != "NO_MATCH" {
					b.Fatalf("got %v", e)
				}
			}
			if cpu := cpuTime() - cpu; cpu > 0 {
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
