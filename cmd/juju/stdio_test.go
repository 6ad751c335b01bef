package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/jujutools/juju/host/core"
	"github.com/jujutools/juju/internal/config"
)

// TestStdioSettings checks the precedence flags > file > defaults through
// the real flag parsing: a flag counts when given, even set to its default.
func TestStdioSettings(t *testing.T) {
	cwd := filepath.FromSlash("/work/repo")
	fileBody := "mode = \"inspect\"\nsandbox = \"require\"\nallowWebFetch = true\n[exec]\nbackgroundAfterMs = 2000\n"
	tests := []struct {
		name    string
		args    []string
		file    string // the default config file's content; "" for none
		want    config.Settings
		wantErr string
	}{
		{
			name: "defaults",
			want: config.Settings{Roots: []string{cwd}, Mode: "edit", Sandbox: "prefer", BackgroundAfter: 50 * time.Second, ApprovalTimeout: 45 * time.Second, JournalMaxAge: config.DefaultJournalMaxAge, JournalMaxSize: config.DefaultJournalMaxSize, UnloadAfter: config.DefaultUnloadAfter, StandbyIdle: config.DefaultStandbyIdle},
		},
		{
			name: "file over defaults",
			file: fileBody,
			want: config.Settings{Roots: []string{cwd}, Mode: "inspect", Sandbox: "require", AllowWebFetch: true, BackgroundAfter: 2 * time.Second, ApprovalTimeout: 45 * time.Second, JournalMaxAge: config.DefaultJournalMaxAge, JournalMaxSize: config.DefaultJournalMaxSize, UnloadAfter: config.DefaultUnloadAfter, StandbyIdle: config.DefaultStandbyIdle},
		},
		{
			name: "flags over file",
			args: []string{"--mode", "trusted", "--sandbox=off", "--allow-web-fetch=false", "--root", "a", "--root", "/b"},
			file: fileBody,
			want: config.Settings{
				Roots: []string{filepath.Join(cwd, "a"), filepath.FromSlash("/b")},
				Mode:  "trusted", Sandbox: "off", AllowWebFetch: false, BackgroundAfter: 2 * time.Second, ApprovalTimeout: 45 * time.Second,
				JournalMaxAge: config.DefaultJournalMaxAge, JournalMaxSize: config.DefaultJournalMaxSize, UnloadAfter: config.DefaultUnloadAfter, StandbyIdle: config.DefaultStandbyIdle,
			},
		},
		{
			name: "a flag given its default value still wins",
			args: []string{"--mode=edit"},
			file: fileBody,
			want: config.Settings{Roots: []string{cwd}, Mode: "edit", Sandbox: "require", AllowWebFetch: true, BackgroundAfter: 2 * time.Second, ApprovalTimeout: 45 * time.Second, JournalMaxAge: config.DefaultJournalMaxAge, JournalMaxSize: config.DefaultJournalMaxSize, UnloadAfter: config.DefaultUnloadAfter, StandbyIdle: config.DefaultStandbyIdle},
		},
		{
			name: "--allow-web-fetch alone",
			args: []string{"--allow-web-fetch"},
			want: config.Settings{Roots: []string{cwd}, Mode: "edit", Sandbox: "prefer", AllowWebFetch: true, BackgroundAfter: 50 * time.Second, ApprovalTimeout: 45 * time.Second, JournalMaxAge: config.DefaultJournalMaxAge, JournalMaxSize: config.DefaultJournalMaxSize, UnloadAfter: config.DefaultUnloadAfter, StandbyIdle: config.DefaultStandbyIdle},
		},
		{name: "bad --mode", args: []string{"--mode", "yolo"}, wantErr: `--mode "yolo" must be one of inspect, edit, trusted`},
		{name: "bad --sandbox", args: []string{"--sandbox", "on"}, wantErr: `--sandbox "on"`},
		{name: "bad file", file: "mode = \"edit\"\nmdoe = \"x\"\n", wantErr: `config.toml:2: unknown key "mdoe"`},
		{name: "missing --config file", args: []string{"--config", "/nonexistent/juju.toml"}, wantErr: "/nonexistent/juju.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dirs := jujuHome(t)
			if tt.file != "" {
				if err := os.MkdirAll(dirs.Config, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(dirs.ConfigFile(), []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
				tt.want.ConfigFile = dirs.ConfigFile()
			}
			got, err := parseStdio(t, tt.args).settings(dirs, cwd)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalSettings(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestStdioExplicitConfig(t *testing.T) {
	dirs := jujuHome(t)
	path := filepath.Join(t.TempDir(), "juju.toml")
	if err := os.WriteFile(path, []byte("mode = \"trusted\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := parseStdio(t, []string{"--config", path}).settings(dirs, filepath.FromSlash("/w"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode != config.ModeTrusted || got.ConfigFile != path {
		t.Errorf("got %+v", got)
	}
	if _, err := parseStdio(t, []string{"--config", path + ".missing"}).settings(dirs, "/w"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing --config: %v, want fs.ErrNotExist", err)
	}
}

// parseStdio parses juju stdio's flags as the command does.
func parseStdio(t *testing.T, args []string) *stdioOptions {
	t.Helper()
	o := &stdioOptions{}
	f := pflag.NewFlagSet("stdio", pflag.ContinueOnError)
	o.bind(f)
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	o.given = f.Changed
	return o
}

func equalSettings(a, b config.Settings) bool {
	aj, _ := json.Marshal(a)
	bj, _ := json.Marshal(b)
	return string(aj) == string(bj)
}

func TestNewLogger(t *testing.T) {
	var errw strings.Builder
	log, closeLog, err := newLogger(&errw, "", "warn")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("hidden")
	log.Warn("shown")
	closeLog()
	if strings.Contains(errw.String(), "hidden") || !strings.Contains(errw.String(), "shown") {
		t.Errorf("log = %q", errw.String())
	}

	file := filepath.Join(t.TempDir(), "juju.log")
	log, closeLog, err = newLogger(&errw, file, "debug")
	if err != nil {
		t.Fatal(err)
	}
	log.Debug("to the file")
	closeLog()
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), "to the file") {
		t.Errorf("log file = %q", data)
	}

	// A value as long as a call can send is cut, its start and end kept:
	// a 10 MB path, logged as it was given and again inside the error,
	// made a 20 MB line.
	errw.Reset()
	log, closeLog, _ = newLogger(&errw, "", "warn")
	huge := strings.Repeat("y", 10<<20)
	log.Error("journal: file system error", "path", huge, "err", &os.PathError{Op: "statat", Path: huge, Err: syscall.ENAMETOOLONG}, "args", []string{huge})
	closeLog()
	if line := errw.String(); len(line) > 4*maxLogValue+200 || !strings.Contains(line, "file name too long") || !strings.Contains(line, "bytes left out") {
		t.Errorf("a line of %d bytes: %.300s…", len(line), line)
	}

	var u usageError
	if _, _, err := newLogger(&errw, "", "verbose"); !errors.As(err, &u) {
		t.Errorf("bad level: %v, want a usage error", err)
	}
}

func TestServe(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	t.Run("end of input is a clean exit", func(t *testing.T) {
		if err := serve(t.Context(), log, time.Second, func(context.Context) error { return io.EOF }); err != nil {
			t.Error(err)
		}
	})
	t.Run("a server error is returned", func(t *testing.T) {
		boom := errors.New("boom")
		if err := serve(t.Context(), log, time.Second, func(context.Context) error { return boom }); !errors.Is(err, boom) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("a signal is a clean exit", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		err := serve(ctx, log, time.Second, func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		if err != nil {
			t.Error(err)
		}
	})
	t.Run("a server stuck after a signal is left behind", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		stuck := make(chan struct{})
		defer close(stuck)
		start := time.Now()
		err := serve(ctx, log, 50*time.Millisecond, func(context.Context) error { <-stuck; return nil })
		if err != nil || time.Since(start) > 5*time.Second {
			t.Errorf("err = %v after %v", err, time.Since(start))
		}
	})
}

// TestStdioSession serves a real session over pipes: initialize, then
// tools/list, then end of input. stdout must hold only JSON-RPC.
func TestStdioSession(t *testing.T) {
	jujuHome(t)
	root := t.TempDir()
	t.Chdir(root)
	o := parseStdio(t, []string{"--root", root, "--log-level", "debug"})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`)
	pr, pw := io.Pipe()
	var errw strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- runStdio(t.Context(), o, in, pw, &errw)
		pw.Close()
	}()
	var lines []string
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	err := <-done
	if errors.Is(err, core.ErrNotBuilt) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("runStdio: %v\nstderr: %s", err, errw.String())
	}
	ids := map[float64]bool{}
	for _, l := range lines {
		var msg struct {
			JSONRPC string   `json:"jsonrpc"`
			ID      *float64 `json:"id"`
			Result  struct {
				Tools []any `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Fatalf("stdout holds something else than JSON-RPC: %q", l)
		}
		if msg.ID != nil {
			ids[*msg.ID] = true
			if *msg.ID == 2 && len(msg.Result.Tools) == 0 {
				t.Errorf("tools/list is empty: %s", l)
			}
		}
	}
	if !ids[1] || !ids[2] {
		t.Errorf("answers missing: %q", lines)
	}
	if !strings.Contains(errw.String(), "juju serving over stdio") {
		t.Errorf("stderr = %q, want the start log", errw.String())
	}
}
