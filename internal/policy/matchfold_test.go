package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jujutools/juju/sdk/abi"
)

// TestGlobsFoldLongS: the globs ignore letter case as Unicode folds it, as
// the .git rule and juju's own folders do. strings.ToLower left ſ (U+017F,
// whose upper case is S) as it was, so id_rſa, .ſsh or credentialſ.json
// was no secret, while a file system that ignores case (NTFS upper-cases
// names, and ſ becomes S) opens the secret's own file by it. A glob of
// the tail and a glob with a slash were compared byte by byte from the
// end or the start, and ſ, two bytes for s's one, made them miss.
func TestGlobsFoldLongS(t *testing.T) {
	p, err := New(Config{Roots: []string{t.TempDir()}, Deny: []string{"build/secret-data/**", "**/vault/token"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, rel := range []string{"id_r\u017fa", "keys/ID_R\u017fA.pub", ".\u017f\u017fh/config", "a/.\u017fsh", "credential\u017f.json", "x/.aw\u017f/credentials", ".aws/credential\u017f", "server.\u212aey", "app.pe\u039c"} {
		if rel == "app.pe\u039c" { // Greek capital mu is no M
			if p.Secret(rel) {
				t.Errorf("Secret(%q) = true, want false", rel)
			}
			continue
		}
		if !p.Secret(rel) {
			t.Errorf("Secret(%q) = false, want true", rel)
		}
	}
	for _, rel := range []string{"build/\u017fecret-data/x", "BUILD/Secret-Data/x", "a/vault/to\u212aen", "a/VAULT/TOKEN"} {
		if !p.Denied(rel) {
			t.Errorf("Denied(%q) = false, want true", rel)
		}
	}
	for _, rel := range []string{"id_rs", "build/secret-dat/x", "a/vault/tokens"} {
		if p.Secret(rel) || p.Denied(rel) {
			t.Errorf("%q is withheld, want visible", rel)
		}
	}
}

// TestDotlessIFoldsToI: NTFS upper-cases ı (U+0131) to I, so on Windows
// .gıt/hooks/pre-commit is .git/hooks/pre-commit, ıd_rsa is id_rsa and
// Lıbrary/Application Support/juju is juju's own folder. Every name rule
// folds ı to i: the secret globs, juju's own folders and the .git rule of
// Writable.
func TestDotlessIFoldsToI(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "Library", "juju")
	mustDo(t, os.MkdirAll(own, 0o700))
	p, err := New(Config{Roots: []string{dir}, Private: []string{own}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r := p.Roots()[0]
	for _, rel := range []string{"\u0131d_rsa", "credent\u0131als.json", ".g\u0131t/conf\u0131g"} {
		if !p.Secret(rel) {
			t.Errorf("Secret(%q) = false, want true", rel)
		}
	}
	if e := p.Check(r, "L\u0131brary/juju/token"); e == nil || e.Code != abi.SecretDenied {
		t.Errorf("Check(Lıbrary/juju/token) = %v, want SECRET_DENIED", e)
	}
	for _, rel := range []string{".g\u0131t/hooks/pre-commit", "sub/.G\u0131T"} {
		if e := p.Writable(&Resolved{Root: r, Rel: rel, Display: rel}); e == nil || e.Code != abi.PathDenied {
			t.Errorf("Writable(%q) = %v, want PATH_DENIED", rel, e)
		}
	}
}

// TestGlobsIgnoreNormalization: a deny or secret glob written with é as one
// character (NFC) held back nothing under a folder whose name holds e and a
// combining accent (NFD, as macOS writes names and as they stay when copied
// to Linux), and the other way round: read_file "Prive\u0301/notes.md"
// returned a file the owner's deny = ["Privé/**"] was meant to withhold. On
// macOS both spellings open the same folder. The globs now match names
// composed, whichever form either side is written in.
func TestGlobsIgnoreNormalization(t *testing.T) {
	p, err := New(Config{
		Roots:   []string{t.TempDir()},
		Deny:    []string{"Priv\u00e9/**", "**/Re\u0301sume\u0301.md"},
		Secrets: []string{"cl\u00e9*.txt"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, rel := range []string{"Priv\u00e9/notes.md", "Prive\u0301/notes.md", "PRIVE\u0301/a/b", "docs/R\u00e9sum\u00e9.md", "docs/RE\u0301SUME\u0301.md"} {
		if !p.Denied(rel) {
			t.Errorf("Denied(%q) = false, want true", rel)
		}
	}
	for _, rel := range []string{"cl\u00e9.txt", "cle\u0301-prod.txt", "a/CLE\u0301.TXT"} {
		if !p.Secret(rel) {
			t.Errorf("Secret(%q) = false, want true", rel)
		}
	}
	for _, rel := range []string{"Prive/notes.md", "Priv\u00e8/notes.md", "docs/Resume.md", "cle.txt"} {
		if p.Denied(rel) || p.Secret(rel) {
			t.Errorf("%q is withheld, want visible", rel)
		}
	}
}
