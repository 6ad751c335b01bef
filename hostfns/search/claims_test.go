//go:build unix

package search

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// Tests of the claims of docs/SECURITY.md, "rg runs with nothing of the
// owner's": an empty environment, an empty stdin, and a bound on the
// output read, past which rg is killed and the answer says truncated.
//
// The fake rg is this test binary, run through a symlink whose name picks
// its behaviour (the host passes rg no argument the test controls, and an
// environment variable could not be used without defeating the check).
// It is picked in init, before any test runs.

const (
	fakeRGEnv   = "juju-claims-fake-rg-env"
	fakeRGFlood = "juju-claims-fake-rg-flood"
)

func init() {
	switch filepath.Base(os.Args[0]) {
	case fakeRGEnv:
		fakeRGReport(filepath.Join(filepath.Dir(os.Args[0]), "report.json"))
		os.Exit(1) // rg's "no match"
	case fakeRGFlood:
		fakeRGFloodOut()
		os.Exit(0)
	}
}

// fakeRGReportT is what the env fake writes next to itself.
type fakeRGReportT struct {
	Env       []string `json:"env"`
	StdinEOF  bool     `json:"stdinEOF"`  // stdin ended at once
	StdinRead int      `json:"stdinRead"` // bytes it held
}

// fakeRGReport records the environment it was given and whether stdin
// is empty (read to EOF within a second, nothing in it).
func fakeRGReport(out string) {
	rep := fakeRGReportT{Env: os.Environ()}
	got := make(chan int, 1)
	go func() {
		n, _ := io.Copy(io.Discard, os.Stdin)
		got <- int(n)
	}()
	select {
	case n := <-got:
		rep.StdinEOF, rep.StdinRead = true, n
	case <-time.After(time.Second):
	}
	b, _ := json.Marshal(rep)
	if err := os.WriteFile(out, b, 0o644); err != nil {
		os.Exit(4)
	}
}

// fakeRGFloodOut prints one genuine match (a.txt line 1) and then records
// of files that do not exist, without end: only the host's output bound
// (or the kill that follows it) stops it.
func fakeRGFloodOut() {
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	fmt.Fprintf(w, "a.txt\x001:1:needle here\n")
	for i := 0; ; i++ {
		if _, err := fmt.Fprintf(w, "missing-%08d.txt\x001:1:needle %s\n", i, strings.Repeat("x", 100)); err != nil {
			return
		}
	}
}

// claimsRG makes a symlink named name to this test binary in a fresh folder
// and returns its path, for Options.RG.
func claimsRG(t *testing.T, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.Symlink(exe, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClaimRGEmptyEnvironment checks SECURITY.md: "rg runs with nothing
// of the owner's. An empty environment, an empty stdin …". juju's own
// environment holds secrets and an ordinary variable; the fake rg must
// see no variable at all, and a stdin that is empty.
func TestClaimRGEmptyEnvironment(t *testing.T) {
	t.Setenv("GITHUB_TOKEN", "ghp_claimsTokenValue")
	t.Setenv("DATABASE_URL", "postgres://user:pw@db.example/app")
	t.Setenv("JUJU_HOME", "/claims/juju/home")
	t.Setenv("RIPGREP_CONFIG_PATH", "/claims/rgrc")
	t.Setenv("CLAIMS_PLAIN", "visible")
	rg := claimsRG(t, fakeRGEnv)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, newPolicy(t, root), Options{RG: rg}, abi.SearchRequest{Pattern: "needle"})
	if res.Error != nil {
		t.Fatalf("search: %v", res.Error)
	}
	if res.Engine != "ripgrep" {
		t.Fatalf("the fake rg was not used: engine %q", res.Engine)
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(rg), "report.json"))
	if err != nil {
		t.Fatalf("the fake rg did not run or wrote no report: %v", err)
	}
	var rep fakeRGReportT
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatalf("report %s: %v", raw, err)
	}
	if len(rep.Env) != 0 {
		t.Errorf("rg got an environment, want none: %q", rep.Env)
	}
	if !rep.StdinEOF || rep.StdinRead != 0 {
		t.Errorf("rg's stdin is not empty: ended %v, %d bytes", rep.StdinEOF, rep.StdinRead)
	}
}

// TestClaimRGOutputBound checks SECURITY.md: rg's output is read up to a
// bound ("64 MiB", DefaultMaxOutput), "past either, rg is killed and the
// answer says … truncated". With MaxOutput at 64 KiB, a fake rg that
// writes without end must be stopped: the call returns well before the
// time cap, truncated (not partial), with the genuine match it printed
// first.
func TestClaimRGOutputBound(t *testing.T) {
	if DefaultMaxOutput != 64<<20 {
		t.Errorf("DefaultMaxOutput = %d, SECURITY.md says 64 MiB", DefaultMaxOutput)
	}
	rg := claimsRG(t, fakeRGFlood)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := call(t, newPolicy(t, root), Options{RG: rg, MaxOutput: 64 << 10, Timeout: 20 * time.Second},
		abi.SearchRequest{Pattern: "needle"})
	took := time.Since(start)
	if res.Error != nil {
		t.Fatalf("search: %v", res.Error)
	}
	if res.Engine != "ripgrep" {
		t.Fatalf("the fake rg was not used: engine %q", res.Engine)
	}
	if !res.Truncated || res.Partial {
		t.Errorf("want truncated and not partial: truncated %v, partial %v", res.Truncated, res.Partial)
	}
	if took > 10*time.Second {
		t.Errorf("the search took %s: rg was not killed at the output bound", took)
	}
	if len(res.Files) != 1 || res.Files[0].Path != "a.txt" || len(res.Files[0].Matches) != 1 {
		t.Errorf("want the one genuine match in a.txt, got %+v", res.Files)
	}
}
