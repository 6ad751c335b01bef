//go:build unix

package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// checkPrivate reports why dir cannot hold what juju keeps, or nil: dir,
// and every folder above it, must belong to the user juju runs as or to
// root, and no other user may write to one (a sticky folder such as /tmp
// excepted, where no user can rename or remove another's entries). A
// folder another user made or can write to is theirs to fill: machine code
// in the compilation cache that juju runs, lsp.toml naming the programs it
// starts, grants.json, plugins, config.toml setting trusted mode and the
// sandbox off, the journal and approvals. Links on the way are followed
// only when the owner or root made them. A part of dir not yet made, under
// a folder every user can write to, juju makes now, private, and checks
// again, so that no other user can make it first.
func checkPrivate(dir string) error {
	dir = filepath.Clean(dir)
	p := dir
	for {
		if _, err := os.Lstat(p); err == nil || !errors.Is(err, fs.ErrNotExist) {
			break
		}
		up := filepath.Dir(p)
		if up == p {
			break
		}
		p = up
	}
	if err := checkChain(p); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	if real != p {
		if err := checkChain(real); err != nil {
			return err
		}
	}
	if p == dir {
		return nil
	}
	if st, err := os.Stat(real); err == nil && st.Mode().Perm()&0o022 != 0 {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		return checkPrivate(dir)
	}
	return nil
}

// checkChain checks p and each folder above it, as written.
func checkChain(p string) error {
	for {
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if err := checkOne(p, st); err != nil {
			return err
		}
		up := filepath.Dir(p)
		if up == p {
			return nil
		}
		p = up
	}
}

// checkOne reports why the file p, of st, could be changed by another
// user, or nil.
func checkOne(p string, st fs.FileInfo) error {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := int(s.Uid); uid != os.Geteuid() && uid != 0 {
		return fmt.Errorf("%s belongs to another user (uid %d)", p, uid)
	}
	if st.Mode()&fs.ModeSymlink != 0 || st.Mode()&fs.ModeSticky != 0 {
		return nil
	}
	perm := st.Mode().Perm()
	if perm&0o002 != 0 {
		return fmt.Errorf("%s can be written by every user", p)
	}
	// A group of the owner's own (the user private group most systems make)
	// may write; another group's members are other users.
	if perm&0o020 != 0 && int(s.Gid) != os.Getegid() {
		return fmt.Errorf("%s can be written by the members of group %d", p, s.Gid)
	}
	return nil
}

// checkFileOwner reports why the config file of st, named path, may not
// be read, or nil: another user who owns it, or may write it, chose what
// is in it.
func checkFileOwner(path string, st fs.FileInfo) error {
	if err := checkOne(path, st); err != nil {
		return fmt.Errorf("%w, who chose what it holds; use a config file of your own", err)
	}
	return nil
}
