package main

import (
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	tests := []struct {
		args    []string
		code    int
		stdout  string // must contain
		stderr  string // must contain
		noInOut bool   // nothing on stdout
	}{
		{args: nil, code: 0, stdout: "Available Commands"},
		{args: []string{"--help"}, code: 0, stdout: "juju stdio"},
		{args: []string{"--help"}, code: 0, stdout: "Exit status: 0 on success, 1 when the command fails"},
		{args: []string{"stdio", "--help"}, code: 0, stdout: "--allow-web-fetch"},
		{args: []string{"plugins"}, code: 0, stdout: "list"},
		{args: []string{"version"}, code: 0, stdout: "plugin abi"},
		{args: []string{"tols"}, code: 2, stderr: `unknown command "tols" for "juju"; did you mean tools?`, noInOut: true},
		{args: []string{"plugins", "lst"}, code: 2, stderr: "did you mean list?", noInOut: true},
		{args: []string{"plugins", "instal"}, code: 2, stderr: `unknown command "instal"`, noInOut: true},
		{args: []string{"plugins", "install"}, code: 2, stderr: "usage: juju plugins install PATH|URL (got 0 arguments)", noInOut: true},
		{args: []string{"plugins", "install", "a", "b"}, code: 2, stderr: "usage: juju plugins install PATH|URL (got 2 arguments)", noInOut: true},
		{args: []string{"plugins", "grant"}, code: 2, stderr: "usage: juju plugins grant NAME CAPABILITY... (got 0 arguments)", noInOut: true},
		{args: []string{"plugins", "grant", "x"}, code: 2, stderr: "usage: juju plugins grant NAME CAPABILITY... (got 1 argument)\n", noInOut: true},
		{args: []string{"plugins", "grant", "x"}, code: 2, stderr: "usage: juju plugins grant NAME CAPABILITY...", noInOut: true},
		{args: []string{"version", "--jsn"}, code: 2, stderr: "unknown flag: --jsn\nRun 'juju version --help' for usage.", noInOut: true},
		{args: []string{"version", "extra"}, code: 2, stderr: `juju version takes no arguments, got "extra"`, noInOut: true},
		{args: []string{"stdio", "--log-level", "loud"}, code: 2, stderr: `--log-level "loud"`, noInOut: true},
		{args: []string{"stdio", "--config", "/nonexistent/juju.toml"}, code: 1, stderr: "juju: config file: open /nonexistent/juju.toml", noInOut: true},
		{args: []string{"stdio", "--mode", "yolo"}, code: 2, stderr: "juju: --mode \"yolo\" must be one of inspect, edit, trusted\nRun 'juju stdio --help' for usage.", noInOut: true},
		{args: []string{"serve", "--addr", "nonsense"}, code: 2, stderr: "juju: --addr \"nonsense\" must be HOST:PORT, such as 127.0.0.1:7777\nRun 'juju serve --help' for usage.", noInOut: true},
		{args: []string{"serve", "--addr", "127.0.0.1:77777"}, code: 2, stderr: "juju: --addr \"127.0.0.1:77777\" must be HOST:PORT, such as 127.0.0.1:7777", noInOut: true},
		{args: []string{"serve", "--sandbox", "on"}, code: 2, stderr: "juju: --sandbox \"on\" must be one of off, prefer, require\nRun 'juju serve --help' for usage.", noInOut: true},
		// A flag value juju does not take is a wrong command line (2),
		// whatever command it is given to, before anything is read.
		{args: []string{"plugins", "install", "https://example.com/p.tar.gz"}, code: 2, stderr: "--sha256 is required when installing from a URL", noInOut: true},
		{args: []string{"plugins", "install", "./p", "--sha256", "zz"}, code: 2, stderr: `--sha256 "zz" is not 64 hex digits`, noInOut: true},
		{args: []string{"plugins", "install", "./p", "--grant", "fs.raed"}, code: 2, stderr: `unknown capability "fs.raed" (juju knows fs.read`, noInOut: true},
		{args: []string{"plugins", "grant", "p", "fs.read,nett"}, code: 2, stderr: `unknown capability "nett"`, noInOut: true},
		{args: []string{"plugins", "revoke", "p", "everything"}, code: 2, stderr: `unknown capability "everything"`, noInOut: true},
		{args: []string{"lsp", "add", "Go Pls", "--command", "gopls", "--languages", "go"}, code: 2, stderr: `name "Go Pls" must match`, noInOut: true},
		{args: []string{"lsp", "add", "gopls", "--command", "gopls", "--languages", "golang"}, code: 2, stderr: `unknown language "golang"`, noInOut: true},
		{args: []string{"lsp", "add", "gopls", "--command", "gopls", "--languages", "go", "--init-options", "[1]"}, code: 2, stderr: "init options must be a JSON object", noInOut: true},
		{args: []string{"rollback", "latest"}, code: 2, stderr: `"latest" is not a change id; ids look like c000042 (c42 and 42 work too), and juju rollback alone lists them`, noInOut: true},
		{args: []string{"rollback", "c0"}, code: 2, stderr: `"c0" is not a change id`, noInOut: true},
		{args: []string{"stdio", "--root", "/nonexistent/juju-root"}, code: 1, stderr: "a workspace root must be a folder that exists; create it, or name another", noInOut: true},
		{args: []string{"audit", "--root", "/nonexistent/juju-root"}, code: 1, stderr: "a workspace root must be a folder that exists", noInOut: true},
		{args: []string{"stdio", "--root", "root_test.go"}, code: 1, stderr: `root_test.go" is not a folder: a workspace root is a folder, such as "`, noInOut: true},
		{args: []string{"plugins", "grant", "p", "fs.read"}, code: 1, stderr: "p: no installed plugin has that name", noInOut: true},
		// A command line right in form that names nothing there fails (1),
		// and is not sent to the usage (2).
		{args: []string{"clients", "revoke", "c_nope"}, code: 1, stderr: `no OAuth client "c_nope"; juju clients list shows them`, noInOut: true},
		{args: []string{"serve", "--public-url", "https://t.example/mcp"}, code: 2, stderr: "give https://t.example (the tunnel's address", noInOut: true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			jujuHome(t)
			var out, errw strings.Builder
			code := run(t.Context(), tt.args, strings.NewReader(""), &out, &errw)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, errw.String())
			}
			if !strings.Contains(out.String(), tt.stdout) {
				t.Errorf("stdout %q does not contain %q", out.String(), tt.stdout)
			}
			if !strings.Contains(errw.String(), tt.stderr) {
				t.Errorf("stderr %q does not contain %q", errw.String(), tt.stderr)
			}
			if tt.noInOut && out.Len() > 0 {
				t.Errorf("stdout holds %q, want nothing", out.String())
			}
		})
	}
}

// brokenPipe is a stdout whose reader went away, as head's after its lines.
type brokenPipe struct{}

func (brokenPipe) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}
}

// A command whose output is cut off by its reader (juju audit | head)
// stops without a word on stderr, as a program killed by SIGPIPE would.
func TestRunBrokenPipeIsQuiet(t *testing.T) {
	jujuHome(t)
	var errw strings.Builder
	code := run(t.Context(), []string{"version", "--json"}, strings.NewReader(""), brokenPipe{}, &errw)
	if code == 0 || errw.Len() > 0 {
		t.Errorf("exit %d, stderr %q; want a failure without a word", code, errw.String())
	}
}
