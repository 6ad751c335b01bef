package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jujutools/juju/sdk/abi"
)

// Tests of SECURITY.md's "rg runs with … a cap on its memory": the fakes
// are this test binary, as in claims_test.go.

const (
	fakeRGLimit = "juju-claims-fake-rg-limit"
	fakeRGDies  = "juju-claims-fake-rg-dies"
)

func init() {
	switch filepath.Base(os.Args[0]) {
	case fakeRGLimit:
		fakeRGReportLimit(filepath.Join(filepath.Dir(os.Args[0]), "limit.json"))
		os.Exit(1) // rg's "no match"
	case fakeRGDies:
		// One genuine match, then an end by a signal juju did not send,
		// as rg's end at its memory cap (an abort).
		fmt.Fprintf(os.Stdout, "a.txt\x001:1:needle here\n")
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}

// fakeRGReportLimit writes its RLIMIT_DATA once it is set (the host sets
// it just after the start), or what it is after 10 s.
func fakeRGReportLimit(out string) {
	var rl syscall.Rlimit
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Getrlimit(syscall.RLIMIT_DATA, &rl) == nil && rl.Cur != ^uint64(0) {
			break
		}
	}
	b, _ := json.Marshal(rl)
	os.WriteFile(out, b, 0o644)
}

// TestClaimRGMemoryCap: rg's data memory is capped at rgMaxData.
func TestClaimRGMemoryCap(t *testing.T) {
	rg := claimsRG(t, fakeRGLimit)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, newPolicy(t, root), Options{RG: rg}, abi.SearchRequest{Pattern: "needle"})
	if res.Error != nil || res.Engine != "ripgrep" {
		t.Fatalf("search: %+v", res)
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(rg), "limit.json"))
	if err != nil {
		t.Fatalf("the fake rg wrote no report: %v", err)
	}
	var rl syscall.Rlimit
	if err := json.Unmarshal(raw, &rl); err != nil {
		t.Fatal(err)
	}
	if rl.Cur != rgMaxData || rl.Max != rgMaxData {
		t.Errorf("rg's RLIMIT_DATA is %d (max %d), want %d", rl.Cur, rl.Max, rgMaxData)
	}
}

// TestClaimRGAbortSaid: an rg that ends by a signal the host did not send
// (an abort at its memory cap) gives what it printed, and the result says
// it was aborted rather than passing for complete.
func TestClaimRGAbortSaid(t *testing.T) {
	rg := claimsRG(t, fakeRGDies)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := call(t, newPolicy(t, root), Options{RG: rg}, abi.SearchRequest{Pattern: "needle"})
	if res.Error != nil || !res.Aborted || len(res.Files) != 1 {
		t.Errorf("want a.txt and aborted: %+v", res)
	}
}
