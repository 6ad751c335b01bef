package main

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 tools", 1: "1 tool", 2: "2 tools"} {
		if got := count(n, "tool"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
}
