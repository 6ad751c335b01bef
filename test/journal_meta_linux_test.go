package test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// posixACL encodes a POSIX ACL as the kernel keeps it in
// system.posix_acl_access and system.posix_acl_default: a version, then
// (tag, permissions, id) entries sorted by tag and id.
func posixACL(entries ...[3]uint32) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, uint32(2))
	for _, e := range entries {
		binary.Write(&b, binary.LittleEndian, uint16(e[0]))
		binary.Write(&b, binary.LittleEndian, uint16(e[1]))
		binary.Write(&b, binary.LittleEndian, e[2])
	}
	return b.Bytes()
}

const (
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclMask     = 0x10
	aclOther    = 0x20
	aclNoID     = 0xffffffff
)

// TestWritesKeepOwnerAndAttributes holds juju to SECURITY.md, "Writes
// and the journal": a file juju writes anew (replaced by an edit, moved,
// put back by a rollback) keeps its owner, group and extended attributes,
// ACLs included, and a moved folder its owner and default ACL. An edit
// dropped an access ACL: the user it named lost access, and the owning
// group, which read only, could write, as the mode's group bits (the ACL's
// mask) became its own. A move or an undone delete made a user's file
// root's, which that user could no longer read under 0640.
func TestWritesKeepOwnerAndAttributes(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	root := workspace(t, map[string]string{
		"acl.txt":    "one\n",
		"own.txt":    "mine\n",
		"del.txt":    "kept\n",
		"team/a.txt": "a\n",
	})
	at := func(n string) string { return filepath.Join(root, n) }
	access := posixACL([3]uint32{aclUserObj, 6, aclNoID}, [3]uint32{aclUser, 6, 4321}, [3]uint32{aclGroupObj, 4, aclNoID}, [3]uint32{aclMask, 6, aclNoID}, [3]uint32{aclOther, 0, aclNoID})
	folderDefault := posixACL([3]uint32{aclUserObj, 7, aclNoID}, [3]uint32{aclUser, 7, 4321}, [3]uint32{aclGroupObj, 5, aclNoID}, [3]uint32{aclMask, 7, aclNoID}, [3]uint32{aclOther, 5, aclNoID})
	if err := unix.Setxattr(at("acl.txt"), "user.origin", []byte("owner"), 0); errors.Is(err, unix.ENOTSUP) {
		t.Skip("the file system holds no extended attributes")
	} else if err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(at("acl.txt"), "system.posix_acl_access", access, 0); errors.Is(err, unix.EOPNOTSUPP) {
		t.Skip("the file system holds no ACLs")
	} else if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"own.txt", "del.txt", "team"} {
		if err := os.Chown(at(n), 4321, 4322); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(at("own.txt"), 0o640)
	if err := unix.Setxattr(at("del.txt"), "user.origin", []byte("owner"), 0); err != nil {
		t.Fatal(err)
	}
	if err := unix.Setxattr(at("team"), "system.posix_acl_default", folderDefault, 0); err != nil {
		t.Fatal(err)
	}
	xattr := func(n, name string) string {
		t.Helper()
		b := make([]byte, 4096)
		k, err := unix.Lgetxattr(at(n), name, b)
		if err != nil {
			return "(none: " + err.Error() + ")"
		}
		return string(b[:k])
	}
	owner := func(n string) (uint32, uint32, os.FileMode) {
		t.Helper()
		fi, err := os.Lstat(at(n))
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		return st.Uid, st.Gid, fi.Mode()
	}
	keeps := func(when, n string, uid, gid uint32, mode os.FileMode, attrs map[string]string) {
		t.Helper()
		u, g, m := owner(n)
		if u != uid || g != gid || m != mode {
			t.Errorf("after %s, %s is %d:%d %v, want %d:%d %v", when, n, u, g, m, uid, gid, mode)
		}
		for name, want := range attrs {
			if got := xattr(n, name); got != want {
				t.Errorf("after %s, %s's %s is %q, want %q", when, n, name, got, want)
			}
		}
	}
	_, _, aclMode := owner("acl.txt") // 0660: the group bits are the mask
	aclAttrs := map[string]string{"system.posix_acl_access": string(access), "user.origin": "owner"}

	s := start(t, root)
	edit := changeID(t, s, "edit_file", map[string]any{"path": "acl.txt", "oldString": "one", "newString": "two"})
	keeps("edit_file", "acl.txt", 0, 0, aclMode, aclAttrs)
	s.ok("write_file", map[string]any{"path": "acl.txt", "content": "three\n"})
	keeps("write_file", "acl.txt", 0, 0, aclMode, aclAttrs)
	s.ok("rollback_changes", map[string]any{"changeId": edit, "force": true})
	keeps("rollback_changes", "acl.txt", 0, 0, aclMode, aclAttrs)

	move := changeID(t, s, "move_path", map[string]any{"path": "own.txt", "destination": "moved.txt"})
	keeps("move_path", "moved.txt", 4321, 4322, 0o640, nil)
	s.ok("rollback_changes", map[string]any{"changeId": move})
	keeps("rolling back move_path", "own.txt", 4321, 4322, 0o640, nil)

	del := changeID(t, s, "delete_path", map[string]any{"path": "del.txt"})
	s.ok("rollback_changes", map[string]any{"changeId": del})
	keeps("rolling back delete_path", "del.txt", 4321, 4322, 0o644, map[string]string{"user.origin": "owner"})

	s.ok("move_path", map[string]any{"path": "team", "destination": "team2"})
	keeps("moving a folder", "team2", 4321, 4322, os.ModeDir|0o755, map[string]string{"system.posix_acl_default": string(folderDefault)})
}

// TestNewFilesFollowADefaultACL holds juju to SECURITY.md, "Writes and
// the journal": a file or folder juju makes in a folder with a default
// ACL gets the mode and ACL a shell's > and mkdir get there, which the
// kernel gives from that ACL instead of the umask. juju took the umask
// alone, which made the ACL's mask r--, so a user the folder's ACL let
// write could not write what juju made; and a rollback of it still finds
// it as made.
func TestNewFilesFollowADefaultACL(t *testing.T) {
	root := workspace(t, map[string]string{"team/README": "shared\n"})
	at := func(n string) string { return filepath.Join(root, n) }
	folderDefault := posixACL([3]uint32{aclUserObj, 7, aclNoID}, [3]uint32{aclUser, 6, 4321}, [3]uint32{aclGroupObj, 5, aclNoID}, [3]uint32{aclMask, 7, aclNoID}, [3]uint32{aclOther, 5, aclNoID})
	if err := unix.Setxattr(at("team"), "system.posix_acl_default", folderDefault, 0); errors.Is(err, unix.EOPNOTSUPP) {
		t.Skip("the file system holds no ACLs")
	} else if err != nil {
		t.Fatal(err)
	}
	// What a shell makes there: open(0666) and mkdir(0777).
	f, err := os.OpenFile(at("team/shell.txt"), os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Mkdir(at("team/shelldir"), 0o777); err != nil {
		t.Fatal(err)
	}
	attrs := func(n string) (os.FileMode, string) {
		t.Helper()
		fi, err := os.Lstat(at(n))
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 4096)
		k, err := unix.Lgetxattr(at(n), "system.posix_acl_access", b)
		if err != nil {
			return fi.Mode(), "(none)"
		}
		return fi.Mode(), string(b[:k])
	}
	fileMode, fileACL := attrs("team/shell.txt")
	dirMode, dirACL := attrs("team/shelldir")

	s := start(t, root)
	write := changeID(t, s, "write_file", map[string]any{"path": "team/new.txt", "content": "new\n"})
	s.ok("write_file", map[string]any{"path": "team/sub/deep.txt", "content": "deep\n"})
	s.ok("make_directory", map[string]any{"path": "team/made"})
	for n, want := range map[string]os.FileMode{"team/new.txt": fileMode, "team/sub/deep.txt": fileMode, "team/sub": dirMode, "team/made": dirMode} {
		wantACL := fileACL
		if want.IsDir() {
			wantACL = dirACL
		}
		if m, acl := attrs(n); m != want || acl != wantACL {
			t.Errorf("%s: mode %v, access ACL %q; a shell makes %v, %q", n, m, acl, want, wantACL)
		}
	}
	s.ok("rollback_changes", map[string]any{"changeId": write})
	if _, err := os.Lstat(at("team/new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rollback left team/new.txt: %v", err)
	}
}
