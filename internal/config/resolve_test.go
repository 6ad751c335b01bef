package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jujutools/juju/sandbox"
)

func TestResolve(t *testing.T) {
	cwd := filepath.FromSlash("/work/repo")
	file := &File{
		Mode: ptr(ModeInspect), Sandbox: ptr(sandbox.Require), AllowWebFetch: ptr(true),
		Policy:    PolicyTable{Deny: []string{"build/**"}, Secrets: []string{"*.vault"}},
		Fetch:     FetchTable{Allow: []string{"127.0.0.1:8443"}},
		Exec:      ExecTable{BackgroundAfterMs: ptr(int64(1500)), StandbyIdleMs: ptr(int64(750))},
		Approvals: ApprovalsTable{TimeoutMs: ptr(int64(2500))},
		Journal:   JournalTable{MaxAgeDays: ptr(int64(7)), MaxSizeMiB: ptr(int64(0))},
		Plugins:   PluginsTable{UnloadAfterMs: ptr(int64(0))},
		Path:      "/cfg/config.toml",
	}
	defaults := Settings{
		Roots: []string{cwd}, Mode: ModeEdit, Sandbox: sandbox.Prefer,
		AllowWebFetch: false, BackgroundAfter: 50 * time.Second, ApprovalTimeout: 45 * time.Second,
		JournalMaxAge: 30 * 24 * time.Hour, JournalMaxSize: 256 << 20, UnloadAfter: 2 * time.Minute, StandbyIdle: 2 * time.Minute,
	}
	fromFile := Settings{
		Roots: []string{cwd}, Mode: ModeInspect, Sandbox: sandbox.Require, AllowWebFetch: true,
		Deny: []string{"build/**"}, Secrets: []string{"*.vault"}, FetchAllow: []string{"127.0.0.1:8443"},
		BackgroundAfter: 1500 * time.Millisecond, ApprovalTimeout: 2500 * time.Millisecond, ConfigFile: "/cfg/config.toml",
		JournalMaxAge: 7 * 24 * time.Hour, JournalMaxSize: 0, UnloadAfter: 0, StandbyIdle: 750 * time.Millisecond,
	}
	with := func(s Settings, f func(*Settings)) Settings {
		f(&s)
		return s
	}
	tests := []struct {
		name  string
		flags Flags
		file  *File
		want  Settings
	}{
		{name: "no file, no flags: defaults", want: defaults},
		{name: "empty file: defaults", file: &File{}, want: defaults},
		{name: "file over defaults", file: file, want: fromFile},
		{
			name:  "flags over defaults",
			flags: Flags{Mode: ptr(ModeTrusted), Sandbox: ptr(sandbox.Off), AllowWebFetch: ptr(true)},
			want: with(defaults, func(s *Settings) {
				s.Mode, s.Sandbox, s.AllowWebFetch = ModeTrusted, sandbox.Off, true
			}),
		},
		{
			name:  "flags over file",
			flags: Flags{Mode: ptr(ModeTrusted), Sandbox: ptr(sandbox.Off), AllowWebFetch: ptr(false)},
			file:  file,
			want: with(fromFile, func(s *Settings) {
				s.Mode, s.Sandbox, s.AllowWebFetch = ModeTrusted, sandbox.Off, false
			}),
		},
		{
			name:  "a flag set to its default still overrides the file",
			flags: Flags{Mode: ptr(ModeEdit)},
			file:  file,
			want:  with(fromFile, func(s *Settings) { s.Mode = ModeEdit }),
		},
		{
			name:  "one flag given, the rest from the file",
			flags: Flags{Sandbox: ptr(sandbox.Prefer)},
			file:  file,
			want:  with(fromFile, func(s *Settings) { s.Sandbox = sandbox.Prefer }),
		},
		{
			name:  "roots: relative taken from cwd, cleaned, deduplicated",
			flags: Flags{Roots: []string{"sub/../sub", filepath.FromSlash("/other/"), "sub", "."}},
			want: with(defaults, func(s *Settings) {
				s.Roots = []string{filepath.Join(cwd, "sub"), filepath.FromSlash("/other"), cwd}
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(tt.flags, tt.file, cwd)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	cwd := filepath.FromSlash("/work/repo")
	tests := []struct {
		name  string
		flags Flags
		file  *File
		cwd   string
		want  string
	}{
		{name: "bad --mode", flags: Flags{Mode: ptr(Mode("fast"))}, want: `invalid configuration: --mode "fast" must be one of inspect, edit, trusted`},
		{name: "bad --sandbox", flags: Flags{Sandbox: ptr(sandbox.Mode("on"))}, want: `invalid configuration: --sandbox "on" must be one of off, prefer, require`},
		{name: "bad --mode beats a good file", flags: Flags{Mode: ptr(Mode(""))}, file: &File{Mode: ptr(ModeEdit)}, want: `--mode ""`},
		{name: "bad mode in a File not decoded", file: &File{Mode: ptr(Mode("x"))}, want: `mode "x"`},
		{name: "empty --root", flags: Flags{Roots: []string{""}}, want: "--root is empty"},
		{name: "relative cwd", cwd: "rel", want: `the working folder "rel" is not absolute`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cwd == "" {
				tt.cwd = cwd
			}
			_, err := Resolve(tt.flags, tt.file, tt.cwd)
			if err == nil {
				t.Fatal("Resolve succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestResolveOwnsItsSlices(t *testing.T) {
	file := &File{Policy: PolicyTable{Deny: []string{"a"}}}
	s, err := Resolve(Flags{}, file, filepath.FromSlash("/w"))
	if err != nil {
		t.Fatal(err)
	}
	file.Policy.Deny[0] = "changed"
	if s.Deny[0] != "a" {
		t.Error("Settings shares its Deny slice with the File")
	}
}

func TestParse(t *testing.T) {
	for _, m := range Modes {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	for _, s := range sandbox.Modes {
		if got, err := sandbox.ParseMode(string(s)); err != nil || got != s {
			t.Errorf("sandbox.ParseMode(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseMode("Edit"); !errors.Is(err, ErrInvalid) {
		t.Errorf("ParseMode(Edit) = %v, want ErrInvalid", err)
	}
	if _, err := sandbox.ParseMode(""); !errors.Is(err, sandbox.ErrMode) {
		t.Errorf("sandbox.ParseMode(\"\") = %v, want sandbox.ErrMode", err)
	}
}
