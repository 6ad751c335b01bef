//go:build unix

package token

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A token file another user planted, where the owner pointed --token-file
// (a shared folder such as /tmp), holds a token that user chose: juju run
// as root, which can read it whatever its mode, must refuse it rather than
// let that user in. Only root can give a file to another user, so the test
// needs it.
func TestLoadRefusesAnotherUsersFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o1777)
	p := filepath.Join(dir, "planted")
	if err := os.WriteFile(p, []byte(New()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const nobody = 65534
	if err := os.Chown(p, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	if tok, err := Load(p); !errors.Is(err, ErrForeign) {
		t.Fatalf("Load of another user's token file = %q, %v; want ErrForeign", tok, err)
	}
	if tok, err := LoadOrCreate(p); !errors.Is(err, ErrForeign) {
		t.Fatalf("LoadOrCreate of another user's token file = %q, %v; want ErrForeign", tok, err)
	}
}
