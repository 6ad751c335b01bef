package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/internal/audit"
	"github.com/jujutools/juju/internal/config"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		bad  bool
	}{
		{"", time.Time{}, false},
		{"90m", now.Add(-90 * time.Minute), false},
		{"2h", now.Add(-2 * time.Hour), false},
		{"3d", now.Add(-72 * time.Hour), false},
		{"200000d", time.Time{}, false}, // past what a Duration holds: all
		{"999999999999d", time.Time{}, false},
		{"2026-01-01T10:00:00Z", time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC), false},
		{"-2h", time.Time{}, true},
		{"yesterday", time.Time{}, true},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if tt.bad {
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("parseSince(%q) = %v, %v; want a usage error", tt.in, got, err)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestApprovalsEmpty(t *testing.T) {
	jujuHome(t)
	var out bytes.Buffer
	if err := runApprovalsList(&out, &approvalsOptions{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if out.String() != "Nothing waits for your approval.\n" {
		t.Errorf("empty list: %q", out.String())
	}
	out.Reset()
	if err := runApprovalsList(&out, &approvalsOptions{json: true}, time.Now()); err != nil || out.String() != "[]\n" {
		t.Errorf("empty JSON: %q %v", out.String(), err)
	}
	if err := runApprovalDecide(&out, "abcdefgh", true); err == nil {
		t.Error("approving an unknown id succeeded")
	}
}

// juju audit run in a subfolder of the workspace juju served finds no log
// there: it names the workspace it read and the one above, with the
// --root to give.
func TestAuditInSubfolderPointsAbove(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	l := audit.Open(audit.Path(dirs.Workspace([]string{root})))
	if err := l.Append(&audit.Record{Time: time.Now(), CallID: "c1", Plugin: "core", Tool: "read_file", Tier: "R", Outcome: "ok"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	sub := filepath.Join(root, "src")
	os.Mkdir(sub, 0o755)
	t.Chdir(sub)

	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"audit"}, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("audit: %d %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "No tool calls recorded for the workspace "+config.RealRoot(sub)+".") ||
		!strings.Contains(out.String(), "juju audit --root "+config.RealRoot(root)) {
		t.Errorf("juju audit in a subfolder does not point to the workspace above:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"audit", "--root", root}, strings.NewReader(""), &out, &errw); code != 0 || !strings.Contains(out.String(), "read_file") {
		t.Errorf("juju audit --root: %d\n%s", code, out.String())
	}
}

// The owner keeps juju's settings in a file of their own (juju stdio
// --config); config.toml is another, one juju refuses. Every command that
// reads the settings takes --config and reads that file, as juju stdio
// does, rather than fail on config.toml: juju audit had no --config.
func TestCommandsReadTheConfigFileStdioReads(t *testing.T) {
	dirs := jujuHome(t)
	root := t.TempDir()
	t.Chdir(root)
	if err := os.MkdirAll(dirs.Config, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dirs.ConfigFile(), []byte("mode = \"bogus\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(t.TempDir(), "juju.toml")
	if err := os.WriteFile(own, []byte("mode = \"trusted\"\n[journal]\nmaxAgeDays = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"audit"}, {"rollback"}, {"doctor", "--json"}} {
		var out, errw bytes.Buffer
		code := run(context.Background(), append(args, "--root", root), strings.NewReader(""), &out, &errw)
		if code != exitError || !strings.Contains(errw.String()+out.String(), "bogus") {
			t.Errorf("juju %s on a config.toml juju stdio refuses: status %d, %q", args[0], code, errw.String())
		}
		out.Reset()
		errw.Reset()
		code = run(context.Background(), append(args, "--root", root, "--config", own), strings.NewReader(""), &out, &errw)
		if args[0] == "doctor" {
			if !strings.Contains(out.String(), `"maxAgeDays": 7`) || strings.Contains(out.String(), "bogus") {
				t.Errorf("juju doctor --config %s did not read it (status %d)", own, code)
			}
			continue
		}
		if code != exitOK {
			t.Errorf("juju %s --config %s: status %d, %q %q", args[0], own, code, out.String(), errw.String())
		}
	}
}
