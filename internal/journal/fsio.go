package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
)

// Modes of what a change creates.
const (
	newFileMode fs.FileMode = 0o644
	newDirMode  fs.FileMode = 0o755
)

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// errTooLarge is returned by readState for a file over the size bound.
var errTooLarge = errors.New("file too large")

// readState returns the state of rel inside root, without following a
// final symlink, and a file's content.
func readState(root *os.Root, rel string, max int64) (image, []byte, error) {
	fi, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return image{Kind: kindAbsent}, nil, nil
	}
	if err != nil {
		return image{}, nil, err
	}
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		t, err := root.Readlink(rel)
		if err != nil {
			return image{}, nil, err
		}
		return image{Kind: kindSymlink, Target: t}, nil, nil
	case m.IsDir():
		return image{Kind: kindDir, Mode: m.Perm()}, nil, nil
	case m.IsRegular():
		if fi.Size() > max {
			return image{}, nil, errTooLarge
		}
		f, err := root.OpenFile(rel, os.O_RDONLY|syscallNonblock, 0)
		if err != nil {
			return image{}, nil, err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, max+1))
		if err != nil {
			return image{}, nil, err
		}
		if int64(len(b)) > max {
			return image{}, nil, errTooLarge
		}
		return image{Kind: kindFile, SHA256: sum(b), Mode: m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)}, b, nil
	}
	return image{}, nil, errSpecial
}

// errSpecial is a FIFO, socket or device where a change wants a file.
var errSpecial = errors.New("not a regular file, folder or symlink")

// place makes rel inside root hold the state img (content for a file),
// atomically for files and symlinks: a temporary name in the same folder,
// synced, then renamed over rel. The caller syncs the folder (syncDir),
// once for all the names it placed there.
// mid, when not nil, runs after the temporary file is made and before the
// rename (the crash tests stop there).
func place(root *os.Root, rel, temp string, img image, content []byte, mid func()) error {
	switch img.Kind {
	case kindAbsent:
		if err := root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	case kindFile:
		if err := writeTemp(root, temp, content, img.Mode); err != nil {
			return err
		}
		if mid != nil {
			mid()
		}
		if err := replaceWith(root, temp, rel); err != nil {
			return err
		}
	case kindSymlink:
		root.Remove(temp)
		if err := root.Symlink(img.Target, temp); err != nil {
			return err
		}
		if err := replaceWith(root, temp, rel); err != nil {
			return err
		}
	case kindDir:
		fi, err := root.Lstat(rel)
		switch {
		case err == nil && fi.IsDir():
			if fi.Mode().Perm() != img.Mode.Perm() && img.Mode != 0 {
				if err := root.Chmod(rel, img.Mode.Perm()); err != nil {
					return err
				}
			}
			return nil
		case err == nil:
			if err := root.Remove(rel); err != nil {
				return err
			}
		}
		mode := img.Mode.Perm()
		if mode == 0 {
			mode = newDirMode
		}
		if err := root.Mkdir(rel, mode); err != nil {
			return err
		}
	}
	return nil
}

// placeUnnamed makes rel hold the file img with content, already written
// and synced in t: linked as temp, then renamed over rel. Where t cannot
// be linked (no /proc), temp is written again by name. mid runs before
// the rename.
func placeUnnamed(root *os.Root, rel, temp string, t *unnamedTemp, img image, content []byte, mid func()) error {
	if err := t.link(temp); err != nil {
		if err := writeTemp(root, temp, content, img.Mode); err != nil {
			return err
		}
	}
	if mid != nil {
		mid()
	}
	return replaceWith(root, temp, rel)
}

// replaceWith renames temp over rel; a folder at rel is removed first
// (it must be empty).
func replaceWith(root *os.Root, temp, rel string) error {
	err := root.Rename(temp, rel)
	if err == nil {
		return nil
	}
	if fi, lerr := root.Lstat(rel); lerr == nil && fi.IsDir() {
		if rerr := root.Remove(rel); rerr == nil {
			err = root.Rename(temp, rel)
		}
	}
	if err != nil {
		root.Remove(temp)
	}
	return err
}

// writeTemp writes content into a new file temp with mode, synced.
func writeTemp(root *os.Root, temp string, content []byte, mode fs.FileMode) error {
	if mode == 0 {
		mode = newFileMode
	}
	root.Remove(temp) // a leftover of an earlier attempt
	f, err := root.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(mode) // the umask may have narrowed it
	}
	if err == nil {
		err = datasync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		root.Remove(temp)
	}
	return err
}

// placeSynced is place followed by a sync of rel's folder.
func placeSynced(root *os.Root, rel, temp string, img image, content []byte) error {
	if err := place(root, rel, temp, img, content, nil); err != nil {
		return err
	}
	return syncDir(root, path.Dir(rel))
}

// syncDir makes a folder's entries durable.
func syncDir(root *os.Root, dir string) error {
	d, err := root.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return syncDirFile(d)
}
