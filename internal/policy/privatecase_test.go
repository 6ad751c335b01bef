package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestPrivateIgnoresCase holds juju's own folders and files to the rule
// the secret and deny globs and .git already follow: matching ignores
// letter case. On a file system that ignores it too (macOS and Windows by
// default), a root holding the owner's home served Library/Application
// Support/JUJU/token, juju's own bearer token, and took writes to its
// approvals and its config file under a spelling of another case, and a
// root given in another case than juju's folders (cd ~/library) held none
// of them private. Check and the request's own precheck are judged by
// name, so the case variants are refused here on any file system.
func TestPrivateIgnoresCase(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	own := filepath.Join(home, "Library", "Application Support", "juju")
	mustDo(t, os.MkdirAll(own, 0o700))
	mustDo(t, os.WriteFile(filepath.Join(own, "token"), []byte("t"), 0o600))
	conf := filepath.Join(home, "work", "Juju.toml")
	mustDo(t, os.MkdirAll(filepath.Dir(conf), 0o700))
	mustDo(t, os.WriteFile(conf, []byte("x"), 0o600))

	p, err := New(Config{Roots: []string{home}, Private: []string{own, conf}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := p.Roots()[0]
	for _, rel := range []string{
		"Library/Application Support/juju/token",
		"library/application support/JUJU/token",
		"LIBRARY/Application Support/Juju",
		"Library/Application \u017fupport/juju/token", // ſ folds to s
		"work/JUJU.TOML",
	} {
		if e := p.Check(r, rel); e == nil || e.Code != abi.SecretDenied {
			t.Errorf("Check(%q) = %v, want SECRET_DENIED", rel, e)
		}
		abs := filepath.Join(home, filepath.FromSlash(rel))
		if e := p.precheck(abs); e == nil || e.Code != abi.SecretDenied {
			t.Errorf("precheck(%q) = %v, want SECRET_DENIED", abs, e)
		}
	}
	for _, rel := range []string{"Library/Application Support/juju2/x", "Library/Application Support/ju", "work/Juju.toml2"} {
		if e := p.Check(r, rel); e != nil {
			t.Errorf("Check(%q) = %v, want nil", rel, e)
		}
	}
}

// TestPrivateRootGivenInAnotherCase: on a file system that ignores letter
// case, a root given in another case than juju's folders (cd ~/library)
// still holds them private. Where the file system tells case apart no
// such root exists, and the test is skipped.
func TestPrivateRootGivenInAnotherCase(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	own := filepath.Join(home, "Library", "Application Support", "juju")
	mustDo(t, os.MkdirAll(own, 0o700))
	given := filepath.Join(filepath.Dir(home), strings.ToUpper(filepath.Base(home)))
	if _, err := os.Stat(given); err != nil {
		t.Skipf("the file system tells case apart (%v): the root cannot be given in another case", err)
	}
	q, err := New(Config{Roots: []string{given}, Private: []string{own}})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if e := q.Check(q.Roots()[0], "Library/Application Support/juju/token"); e == nil || e.Code != abi.SecretDenied {
		t.Errorf("root %q: Check = %v, want SECRET_DENIED", given, e)
	}
}
