package sandbox

import (
	"runtime"
	"testing"
)

// NewDefault finds its helper when the sandbox is first used, not when it
// is made: finding the standalone helper runs it, and juju makes its
// sandbox while it starts.
func TestNewDefaultFindsTheHelperOnFirstUse(t *testing.T) {
	found := 0
	s := NewDefault()
	s.find = func() []string { found++; return []string{"/nowhere/juju-sandbox"} }
	if found != 0 {
		t.Fatal("the helper was looked for before any use")
	}
	s.Available()
	s.Reaper()
	s.Report()
	if found != 1 {
		t.Fatalf("the helper was looked for %d times, want once", found)
	}
	if got := s.Reaper(); runtime.GOOS == "linux" && (len(got) != 1 || got[0] != "/nowhere/juju-sandbox") {
		t.Fatalf("Reaper after first use: %v, want the helper found", got)
	}
}
