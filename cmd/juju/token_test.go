package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A --token-file in a folder that does not exist is refused by juju token
// and juju serve alike, which say what to do and create no folder; juju
// token run in a workspace refuses a token file inside it, as juju serve
// there would.
func TestTokenFileFolderAndRoot(t *testing.T) {
	jujuHome(t)
	missing := filepath.Join(t.TempDir(), "x", "y")
	for _, args := range [][]string{
		{"token", "--token-file", filepath.Join(missing, "tok")},
		{"serve", "--root", t.TempDir(), "--addr", "127.0.0.1:0", "--token-file", filepath.Join(missing, "tok")},
	} {
		// Without the check juju serve would serve: the deadline ends it.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var out, errw strings.Builder
		code := run(ctx, args, strings.NewReader(""), &out, &errw)
		cancel()
		if code != exitError || out.Len() > 0 ||
			!strings.Contains(errw.String(), "the folder "+missing+" does not exist; create it (mkdir -p -m 700 "+missing+") or name a file in a folder that exists") {
			t.Errorf("juju %s: exit %d, stdout %q, stderr %q", args[0], code, out.String(), errw.String())
		}
		if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
			t.Errorf("juju %s made the token file's folders: %v", args[0], err)
			os.RemoveAll(filepath.Dir(missing))
		}
	}

	ws := t.TempDir()
	t.Chdir(ws)
	var out, errw strings.Builder
	code := run(context.Background(), []string{"token", "--token-file", "./intok"}, strings.NewReader(""), &out, &errw)
	if code != exitUsage || out.Len() > 0 || !strings.Contains(errw.String(), "is inside the workspace root") {
		t.Errorf("juju token --token-file inside the current folder: exit %d, stdout %q, stderr %q", code, out.String(), errw.String())
	}
	if _, err := os.Stat(filepath.Join(ws, "intok")); !os.IsNotExist(err) {
		t.Errorf("juju token wrote a token inside the workspace: %v", err)
	}
	// One that exists there (juju serve --root elsewhere made it, and
	// prints this command for clients) is printed.
	os.WriteFile(filepath.Join(ws, "made"), []byte("juju_0123456789abcdef0123456789abcdef\n"), 0o600)
	out.Reset()
	errw.Reset()
	if code := run(context.Background(), []string{"token", "--token-file", "made"}, strings.NewReader(""), &out, &errw); code != 0 ||
		out.String() != "juju_0123456789abcdef0123456789abcdef\n" {
		t.Errorf("juju token --token-file of an existing file: exit %d, %q %q", code, out.String(), errw.String())
	}
	// Outside the workspace it is made, in a folder that exists.
	out.Reset()
	errw.Reset()
	outside := filepath.Join(t.TempDir(), "tok")
	if code := run(context.Background(), []string{"token", "--token-file", outside}, strings.NewReader(""), &out, &errw); code != 0 ||
		!strings.HasPrefix(out.String(), "juju_") {
		t.Errorf("juju token --token-file outside: exit %d, %q %q", code, out.String(), errw.String())
	}
}
