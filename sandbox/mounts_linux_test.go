package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The mount table a sandbox of root /w with .git and .git/objects pinned
// shows (from a real one, trimmed), and what a raced bind leaves instead.
const mountsHead = `69 45 254:0 / / ro,nosuid,nodev,relatime - ext4 /dev/vda rw
84 69 0:5 / /dev rw,nosuid - tmpfs tmpfs rw
100 69 0:40 / /tmp rw,nosuid,nodev,relatime - tmpfs tmpfs rw
101 69 254:0 /w /w rw,nosuid,nodev,relatime - ext4 /dev/vda rw
`

func TestCheckMountTable(t *testing.T) {
	p := Policy{Write: []string{"/w"}, Pinned: []string{"/w/.git", "/w/.git/objects"}}
	tests := []struct {
		name, table, err string
	}{
		{"pinned", `102 101 254:0 /w/.git /w/.git rw - ext4 /dev/vda rw
103 102 254:0 /w/.git/objects /w/.git/objects rw - ext4 /dev/vda rw
104 102 254:0 /w/.git/hooks /w/.git/hooks ro - ext4 /dev/vda rw
`, ""},
		// The source was a link to /home/o/.ssh when bwrap resolved it.
		{"source swapped", `102 101 254:0 /home/o/.ssh /w/.git rw - ext4 /dev/vda rw
103 102 254:0 /w/.git/objects /w/.git/objects rw - ext4 /dev/vda rw
`, "/w/.git is not pinned: the sandbox bound /home/o/.ssh there"},
		// The destination was a link when bwrap mounted on it.
		{"destination swapped", `102 69 254:0 /home/o/.ssh /home/o/.ssh rw - ext4 /dev/vda rw
103 101 254:0 /w/.git/objects /w/.git/objects rw - ext4 /dev/vda rw
`, "/w/.git is not pinned: it changed"},
		// The source was a link to the same path on another file system
		// (another disk mounted with the same layout): the path within its
		// file system is the one expected, its device is not.
		{"other file system", `102 101 254:7 /w/.git /w/.git rw - ext4 /dev/vdc rw
103 102 254:7 /w/.git/objects /w/.git/objects rw - ext4 /dev/vdc rw
`, "/w/.git is not pinned"},
		{"missing", `102 101 254:0 /w/.git /w/.git rw - ext4 /dev/vda rw
`, "/w/.git/objects is not pinned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mounts, err := parseMountInfo(strings.NewReader(mountsHead + tt.table))
			if err != nil {
				t.Fatal(err)
			}
			err = checkMountTable(mounts, p)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("err = %v, want %q", err, tt.err)
			}
		})
	}
}

func TestCheckMountTableOwnFileSystem(t *testing.T) {
	table := `69 45 254:0 / / ro - ext4 /dev/vda rw
70 69 254:1 / /home ro - ext4 /dev/vdb rw
101 70 254:1 /o/my\040src /home/o/my\040src rw - ext4 /dev/vdb rw
102 101 254:1 /o/my\040src/.git /home/o/my\040src/.git rw - ext4 /dev/vdb rw
`
	mounts, err := parseMountInfo(strings.NewReader(table))
	if err != nil {
		t.Fatal(err)
	}
	if mounts[2].point != "/home/o/my src" {
		t.Errorf("point = %q", mounts[2].point)
	}
	if err := checkMountTable(mounts, Policy{Write: []string{"/home/o/my src"}, Pinned: []string{"/home/o/my src/.git"}}); err != nil {
		t.Error(err)
	}
}

func TestParseMountInfo(t *testing.T) {
	for _, bad := range []string{"1 2 3\n", "x 1 0:1 / / rw\n"} {
		if _, err := parseMountInfo(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got := unescapeMount(`a\040b\134c\011\01`); got != "a b\\c\t\\01" {
		t.Errorf("unescapeMount = %q", got)
	}
}

// TestHelperRefusesRacedPins builds, with the real bubblewrap, the two
// sandboxes a pin raced by a concurrent command would give, and checks
// that the helper runs nothing in either and the folder outside the
// roots stays as it was.
func TestHelperRefusesRacedPins(t *testing.T) {
	needBubblewrap(t)
	outside := outsideDir(t)
	secret := filepath.Join(outside, "authorized_keys")
	os.WriteFile(secret, []byte("mine\n"), 0o600)
	script := `echo evil > .git/authorized_keys; echo ran`
	helper := testHelper(t)
	bw := Bubblewrap{Path: DetectBubblewrap(t.Context()).Path}

	t.Run("destination is a link", func(t *testing.T) {
		root := t.TempDir()
		// Relative: bwrap mounts from a root of its own, where an absolute
		// link leads nowhere.
		rel, err := filepath.Rel(root, outside)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rel, filepath.Join(root, ".git")); err != nil {
			t.Fatal(err)
		}
		// GuardGit never pins a link; this policy is what a swap between
		// its look and bwrap's mount would amount to.
		p := Policy{Write: []string{root}, Pinned: []string{filepath.Join(root, ".git")}}.clean()
		inner := slices.Concat(helper, HelperArgs(p, 0), []string{"--", "bash", "-c", script})
		got, code := runArgv(t, bw.Args(p, root, helper[0], inner), root)
		if code != HelperExitCode || strings.Contains(got, "ran") || !strings.Contains(got, "is not pinned") {
			t.Errorf("exit %d:\n%s", code, got)
		}
	})
	t.Run("source was a link", func(t *testing.T) {
		root := t.TempDir()
		dotgit := filepath.Join(root, ".git")
		os.Mkdir(dotgit, 0o755)
		p := Policy{Write: []string{root}, Pinned: []string{dotgit}}.clean()
		inner := slices.Concat(helper, HelperArgs(p, 0), []string{"--", "bash", "-c", script})
		argv := bw.Args(p, root, helper[0], inner)
		// bwrap resolved the source while .git was a link to outside.
		i := slices.Index(argv, dotgit)
		if i < 0 || argv[i-1] != "--bind-try" {
			t.Fatalf("no pin bind in %q", argv)
		}
		argv[i] = outside
		got, code := runArgv(t, argv, root)
		if code != HelperExitCode || strings.Contains(got, "ran") || !strings.Contains(got, "the sandbox bound") {
			t.Errorf("exit %d:\n%s", code, got)
		}
	})
	if b, _ := os.ReadFile(secret); string(b) != "mine\n" {
		t.Errorf("the folder outside was written: %q", b)
	}
}
