package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that offers --json answers a failure, given --json, with
// one JSON object on stdout naming the error and the exit status, so a
// script piping it to jq reads JSON whatever happens; stderr keeps the
// message for a person.
func TestJSONCommandsFailInJSON(t *testing.T) {
	jujuHome(t)
	t.Chdir(t.TempDir())
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"plugins", "info", "nope", "--json"}, exitError, `no plugin is named "nope"`},
		{[]string{"plugins", "remove", "nope", "--json"}, exitError, "no installed plugin has that name"},
		{[]string{"plugins", "grant", "nope", "fs.read", "--json"}, exitError, "no installed plugin has that name"},
		{[]string{"plugins", "revoke", "nope", "fs.read", "--json"}, exitError, "no installed plugin has that name"},
		{[]string{"plugins", "verify", "nope", "--json"}, exitError, "no installed plugin has that name"},
		{[]string{"plugins", "install", "/nonexistent", "--json"}, exitError, "/nonexistent"},
		{[]string{"plugins", "build", "/nonexistent", "--json"}, exitError, "manifest.json"},
		{[]string{"approvals", "show", "zzz", "--json"}, exitError, `no approval "zzz"`},
		{[]string{"lsp", "remove", "nope", "--json"}, exitError, "nope"},
		{[]string{"lsp", "add", "x", "--json"}, exitUsage, "--command and --languages are required"},
		{[]string{"rollback", "c99", "--json"}, exitError, "there is no change c99"},
		{[]string{"audit", "--json", "--since", "xx"}, exitUsage, `--since "xx"`},
		{[]string{"tools", "--json", "--bogus"}, exitUsage, "unknown flag: --bogus"},
		{[]string{"version", "--json=true", "extra"}, exitUsage, "takes no arguments"},
		{[]string{"clients", "list", "--json", "extra"}, exitUsage, "takes no arguments"},
		{[]string{"doctor", "--json", "--warm=maybe"}, exitUsage, "--warm"},
	}
	for _, c := range cases {
		var out, errw bytes.Buffer
		code := run(context.Background(), c.args, strings.NewReader(""), &out, &errw)
		var got jsonError
		dec := json.NewDecoder(&out)
		if err := dec.Decode(&got); err != nil || dec.More() {
			t.Errorf("juju %s: stdout is not one JSON object (%v): %q; stderr %q", strings.Join(c.args, " "), err, out.String(), errw.String())
			continue
		}
		if code != c.code || got.Error.Status != code || !strings.Contains(got.Error.Message, c.msg) {
			t.Errorf("juju %s: status %d, JSON %+v; want status %d and a message with %q", strings.Join(c.args, " "), code, got, c.code, c.msg)
		}
		if !strings.Contains(errw.String(), "juju: "+got.Error.Message) {
			t.Errorf("juju %s: stderr %q lost the message", strings.Join(c.args, " "), errw.String())
		}
	}

	// Without --json (or with --json=false), stdout stays empty.
	for _, args := range [][]string{{"plugins", "info", "nope"}, {"plugins", "info", "nope", "--json=false"}, {"rollback", "--", "--json"}} {
		var out, errw bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errw); code == exitOK || out.Len() != 0 {
			t.Errorf("juju %s: status %d, stdout %q", strings.Join(args, " "), code, out.String())
		}
	}
}

// A command that printed its JSON answer and then exits 1 (doctor's report
// of a problem) prints no second JSON value after it.
func TestJSONAnswerIsNotFollowedByAnError(t *testing.T) {
	jujuHome(t)
	t.Chdir(t.TempDir())
	bad := filepath.Join(t.TempDir(), "juju.toml")
	if err := os.WriteFile(bad, []byte("mode = \"bogus\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"doctor", "--json", "--config", bad}, strings.NewReader(""), &out, &errw)
	var report map[string]any
	dec := json.NewDecoder(&out)
	if err := dec.Decode(&report); err != nil || dec.More() || code != exitError {
		t.Fatalf("juju doctor --json with a bad config: status %d, %v, more %v:\n%s", code, err, dec.More(), out.String())
	}
	if _, ok := report["problems"]; !ok || report["error"] != nil {
		t.Errorf("the report is not doctor's: %v", report)
	}
}
