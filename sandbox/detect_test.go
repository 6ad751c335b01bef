package sandbox

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDetectBubblewrap holds on any machine: with bwrap absent, or present
// and working, or present and refused its namespaces.
func TestDetectBubblewrap(t *testing.T) {
	a := DetectBubblewrap(context.Background())
	t.Logf("%+v", a)
	if a.Name != "bubblewrap" {
		t.Errorf("Name = %q", a.Name)
	}
	path, err := exec.LookPath("bwrap")
	switch {
	case err != nil:
		if a.Available || a.Path != "" || !strings.Contains(a.Reason, "not on PATH") {
			t.Errorf("bwrap is absent, got %+v", a)
		}
	case a.Available:
		if a.Path != path || a.Reason != "" {
			t.Errorf("available, got %+v", a)
		}
	default:
		if a.Path != path || a.Reason == "" || a.Version != "" {
			t.Errorf("unavailable, got %+v", a)
		}
	}
}

func TestDetectBubblewrapNotOnPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	a := DetectBubblewrap(context.Background())
	if a.Available || !strings.Contains(a.Reason, "bwrap is not on PATH") {
		t.Errorf("got %+v", a)
	}
}

// TestProbeBubblewrap runs stand-ins for bwrap: presence is not proof.
func TestProbeBubblewrap(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell stand-ins")
	}
	tests := []struct {
		name    string
		script  string
		timeout time.Duration
		want    Availability // Path is filled in
		reason  string       // Reason must contain it
	}{
		{
			name: "works",
			script: `if [ "$1" = --version ]; then echo "bubblewrap 9.9.9"; exit 0; fi
[ "$*" = "` + strings.Join(BubblewrapProbe, " ") + `" ] && exit 0
[ "$*" = "` + strings.Join(BubblewrapUserNSProbe, " ") + `" ] && exit 0
echo "unexpected args: $*" >&2; exit 2`,
			want: Availability{Name: "bubblewrap", Available: true, Version: "9.9.9", UserNS: true},
		},
		{
			name: "works without a user namespace",
			script: `if [ "$1" = --version ]; then echo "bubblewrap 9.9.9"; exit 0; fi
[ "$*" = "` + strings.Join(BubblewrapProbe, " ") + `" ] && exit 0
echo "bwrap: setting up uid map: Permission denied" >&2; exit 1`,
			want: Availability{Name: "bubblewrap", Available: true, Version: "9.9.9"},
		},
		{
			name:   "no namespaces",
			script: `echo "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2; exit 1`,
			want:   Availability{Name: "bubblewrap"},
			reason: "exit status 1: bwrap: No permissions to create new namespace",
		},
		{
			name:    "hangs",
			script:  `exec sleep 30`,
			timeout: 200 * time.Millisecond,
			want:    Availability{Name: "bubblewrap"},
			reason:  "no answer within 200ms",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bwrap")
			if err := os.WriteFile(path, []byte("#!/bin/sh\n"+tt.script+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = ProbeTimeout
			}
			got := probeBubblewrap(context.Background(), path, timeout)
			tt.want.Path = path
			reason := got.Reason
			got.Reason = ""
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if tt.reason == "" && reason != "" || !strings.Contains(reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", reason, tt.reason)
			}
		})
	}
}

func TestLandlockABI(t *testing.T) {
	abi, err := LandlockABI()
	t.Logf("abi=%d err=%v", abi, err)
	if err != nil {
		if abi != 0 || !errors.Is(err, ErrLandlockUnavailable) {
			t.Errorf("LandlockABI() = %d, %v", abi, err)
		}
	} else if abi < 1 {
		t.Errorf("LandlockABI() = %d without an error", abi)
	}
	if runtime.GOOS != "linux" && err == nil {
		t.Errorf("Landlock reported on %s", runtime.GOOS)
	}

	a := DetectLandlock()
	if a.Name != "landlock" || a.Available != (err == nil) {
		t.Errorf("DetectLandlock() = %+v, disagrees with LandlockABI", a)
	}
	if err == nil && a.Version != strconv.Itoa(abi) {
		t.Errorf("Version = %q, want %d", a.Version, abi)
	}
	if err != nil && a.Reason != err.Error() {
		t.Errorf("Reason = %q, want %q", a.Reason, err)
	}
}

func TestDetectProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell stand-ins")
	}
	dir := t.TempDir()
	write := func(name, script string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("good", `echo "good version 2.39.5"; echo second line`)
	write("bad", `echo "good: cannot start" >&2; exit 3`)
	t.Setenv("PATH", dir)

	tests := []struct {
		name   string
		want   Availability
		reason string
	}{
		{"good", Availability{Name: "good", Available: true, Path: filepath.Join(dir, "good"), Version: "2.39.5"}, ""},
		{"bad", Availability{Name: "bad", Path: filepath.Join(dir, "bad")}, "exit status 3: good: cannot start"},
		{"absent", Availability{Name: "absent"}, "absent is not on PATH"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DetectProgram(context.Background(), tt.name, "--version")
			reason := got.Reason
			got.Reason = ""
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if tt.reason == "" && reason != "" || !strings.Contains(reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", reason, tt.reason)
			}
		})
	}
}

func TestVersionIn(t *testing.T) {
	for in, want := range map[string]string{
		"git version 2.39.5\n":                "2.39.5",
		"ripgrep 14.1.0 (rev e50df40a19)\n+x": "14.1.0",
		"bubblewrap 0.8.0":                    "0.8.0",
		"weird output":                        "weird output",
		"":                                    "",
	} {
		if got := versionIn(in); got != want {
			t.Errorf("versionIn(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKernelRelease(t *testing.T) {
	if runtime.GOOS == "linux" && KernelRelease() == "" {
		t.Error("no kernel release on Linux")
	}
}
