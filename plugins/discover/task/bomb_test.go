package task

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// quick fails the test when f takes longer than limit: a bound far above
// what the linear parse takes (milliseconds) and far below what the
// quadratic one took (minutes), so a noisy machine does not flip it.
func quick(t *testing.T, limit time.Duration, f func()) {
	t.Helper()
	start := time.Now()
	f()
	if d := time.Since(start); d > limit {
		t.Fatalf("took %v, over %v: the parse is not linear in its input", d, limit)
	}
}

func TestLinesAt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = "ab\n"[r.IntN(3)]
		}
		l := NewLines(b)
		for off := -1; off <= len(b)+1; off++ {
			if got, want := l.At(off), LineAt(b, off); got != want {
				t.Fatalf("NewLines(%q).At(%d) = %d, LineAt says %d", b, off, got, want)
			}
		}
	}
}

// Members numbers the keys of an object of 200,000 members in one pass
// over the file (it counted lines from the start for each: a package.json
// of 20,000 scripts timed out).
func TestMembersManyKeys(t *testing.T) {
	const n = 200_000
	var b bytes.Buffer
	b.WriteString("{\n")
	for i := range n {
		fmt.Fprintf(&b, "  \"s%d\": \"echo %d\",\n", i, i)
	}
	b.WriteString("  \"last\": 0\n}\n")
	var ms []Member
	quick(t, 15*time.Second, func() {
		var err error
		if ms, err = Members(b.Bytes(), 0); err != nil {
			t.Fatal(err)
		}
	})
	if len(ms) != n+1 || ms[0].Line != 2 || ms[n-1].Line != n+1 || ms[n].Line != n+2 {
		t.Fatalf("%d members, lines %d %d %d", len(ms), ms[0].Line, ms[n-1].Line, ms[n].Line)
	}
}

// ParseINI joins a million continuation lines and looks up 100,000 keys
// in time linear in the file (it concatenated with += and searched the
// keys of a section one by one).
func TestParseINIBombs(t *testing.T) {
	cont := "[tox]\nenvlist =\n" + strings.Repeat("    py\n", 1_000_000) + "[last]\nk = v\n"
	quick(t, 10*time.Second, func() {
		ini := ParseINI([]byte(cont))
		s, ok := ini.Section("tox")
		if !ok || len(s.Keys) != 1 || strings.Count(s.Keys[0].Value, "\n") != 1_000_000 {
			t.Fatalf("tox section %+v", ok)
		}
		if got := ini.KeyLine("last", "k"); got != 1_000_004 {
			t.Errorf("KeyLine(last, k) = %d, want 1000004", got)
		}
	})
	const n = 100_000
	var b strings.Builder
	b.WriteString("[tasks]\n")
	for i := range n {
		fmt.Fprintf(&b, "t%d = \"x\"\n", i)
	}
	data := []byte(b.String())
	quick(t, 10*time.Second, func() {
		ini := ParseINI(data)
		for i := range n {
			if got := ini.KeyLine("tasks", fmt.Sprintf("t%d", i)); got != i+2 {
				t.Fatalf("KeyLine(tasks, t%d) = %d, want %d", i, got, i+2)
			}
		}
	})
}

// A line longer than a bufio.Scanner's largest is read, and the lines
// after it too.
func TestParseINILongLine(t *testing.T) {
	ini := ParseINI([]byte("a = " + strings.Repeat("x", 2<<20) + "\n[b]\nc = 1\n"))
	if ini.KeyLine("b", "c") != 3 {
		t.Errorf("KeyLine(b, c) = %d, want 3", ini.KeyLine("b", "c"))
	}
}

// The first section of a name and the first line of a key are found, and
// a key that is not on a line of its own gives its header's line.
func TestParseINIFirst(t *testing.T) {
	ini := ParseINI([]byte("top = 1\n[a]\nk = 1\nk = 2\n  more\n[a]\nk = 3\n[b]\n"))
	for _, c := range []struct {
		sec, key string
		want     int
	}{{"", "top", 1}, {"a", "k", 3}, {"a", "nope", 2}, {"b", "k", 8}, {"c", "k", 0}} {
		if got := ini.KeyLine(c.sec, c.key); got != c.want {
			t.Errorf("KeyLine(%q, %q) = %d, want %d", c.sec, c.key, got, c.want)
		}
	}
	if s, _ := ini.Section("a"); s.Keys[1].Value != "2\nmore" {
		t.Errorf("continued value %q", s.Keys[1].Value)
	}
}
