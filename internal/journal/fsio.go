package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/jujutools/juju/internal/policy"
)

// Modes of what a change creates: as a shell's > and mkdir -p make them,
// less the umask juju started with (an owner who keeps 077 keeps new
// files private on a shared machine).
var (
	newFileMode = 0o666 &^ startUmask
	newDirMode  = 0o777 &^ startUmask
)

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// errTooLarge is returned by readState for a file over the size bound.
var errTooLarge = errors.New("file too large")

// errSwapped reports a folder on a change's path that is no longer the
// folder the path names: swapped for a symbolic link (or moved) since the
// change was checked.
var errSwapped = errors.New("a folder on the path was swapped for a link")

// folder is a folder of a root, opened by openFolder; the root itself when
// the path lies at its top.
type folder struct {
	*os.Root
	owned bool
}

func (f folder) close() {
	if f.owned {
		f.Root.Close()
	}
}

// openFolder opens dir (slash-separated, clean, relative) beneath root
// name by name, without following a symbolic link on the way.
//
// The policy resolved every path a change names, links included, so a
// link on the way now is a swap made since, and os.Root follows a link
// that stays inside the root: a folder swapped for a link to .git or a
// secret folder would take the write there. So each folder opened is
// checked to be the very folder its parent holds under that name (lstat:
// a folder, the same device and inode), and every operation then works
// beneath the opened folder, whatever happens to the names above it.
func openFolder(root *os.Root, dir string) (folder, error) {
	cur := folder{Root: root}
	if dir == "." || dir == "" {
		return cur, nil
	}
	for name := range strings.SplitSeq(dir, "/") {
		sub, err := openChild(cur.Root, name)
		cur.close()
		if err != nil {
			return folder{}, err
		}
		cur = folder{Root: sub, owned: true}
	}
	return cur, nil
}

// openChild opens the folder name of parent, refusing a link.
func openChild(parent *os.Root, name string) (*os.Root, error) {
	if name == "" || name == "." || name == ".." {
		return nil, errSwapped
	}
	sub, err := openRoot(parent, name)
	if err != nil {
		if swappedOpen(parent, name, err) {
			return nil, errSwapped
		}
		return nil, err
	}
	at, err := sub.Stat(".")
	if err != nil {
		sub.Close()
		return nil, err
	}
	named, err := parent.Lstat(name)
	if err == nil && (!named.IsDir() || !os.SameFile(at, named)) {
		err = errSwapped
	}
	if err != nil {
		sub.Close()
		return nil, err
	}
	return sub, nil
}

// openRoot is (*os.Root).OpenRoot; a test races a swap through it.
var openRoot = (*os.Root).OpenRoot

// swappedOpen reports whether err, the failure to open the folder name of
// parent, says the folder was swapped. The policy resolved name as a
// folder free of links, so a link there at the open is a swap, even one
// undone before anyone looks again (a folder exchanged with a link and
// back, by renameat2): os.Root's open refuses a link (ELOOP, when the
// link is gone before it reads it, or loops) or follows it and refuses
// where it leads out of the root. A file or nothing at the open is a swap
// when a folder is there again. Any other failure (permission, EMFILE,
// ENOMEM …) is what it says, and answered so.
func swappedOpen(parent *os.Root, name string, err error) bool {
	if errors.Is(err, syscall.ELOOP) || rootRefused(err, rootEscapes) {
		return true
	}
	fi, lerr := parent.Lstat(name)
	if lerr != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return true
	}
	notDir := errors.Is(err, syscall.ENOTDIR) || rootRefused(err, rootNotDir)
	return fi.IsDir() && (notDir || errors.Is(err, fs.ErrNotExist))
}

// The texts of os.Root's own refusals, which package os does not export
// as errors: a path, or a link on it, that leads out of the root; and a
// name opened as a root that is not a folder (TestOpenChildSeesASwapUndone
// meets both, so a Go release that rewords them fails it).
const (
	rootEscapes = "path escapes from parent"
	rootNotDir  = "not a directory"
)

// rootRefused reports whether err is os.Root's refusal of the given text
// (not the system's errno of the same words).
func rootRefused(err error, text string) bool {
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Err == nil {
		return false
	}
	var errno syscall.Errno
	return !errors.As(pe.Err, &errno) && pe.Err.Error() == text
}

// notAFolder reports whether err, the failure to open a folder on the
// way to a path, says a file is there: then nothing is at the path, as a
// change that moved a folder away and put a file at its name has it.
func notAFolder(err error) bool {
	return errors.Is(err, syscall.ENOTDIR) || rootRefused(err, rootNotDir)
}

// readLink reads the link name of dir, which was a link when looked at:
// not a link now (EINVAL) is a swap since.
func readLink(dir *os.Root, name string) (string, error) {
	t, err := dir.Readlink(name)
	if errors.Is(err, syscall.EINVAL) {
		return "", errSwapped
	}
	return t, err
}

// readState returns the state of rel inside root, without following a
// symlink, and a file's content.
func readState(root *os.Root, rel string, max int64) (image, []byte, error) {
	return state(root, rel, max, true)
}

// hashState is readState for a caller that only compares states: a file
// is hashed as it is read, and its content is not kept.
func hashState(root *os.Root, rel string, max int64) (image, error) {
	img, _, err := state(root, rel, max, false)
	return img, err
}

// state is readState, keeping a file's content when keep.
func state(root *os.Root, rel string, max int64, keep bool) (image, []byte, error) {
	dir, err := openFolder(root, path.Dir(rel))
	if errors.Is(err, fs.ErrNotExist) || notAFolder(err) {
		return image{Kind: kindAbsent}, nil, nil
	}
	if err != nil {
		return image{}, nil, err
	}
	defer dir.close()
	name := path.Base(rel)
	fi, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return image{Kind: kindAbsent}, nil, nil
	}
	if err != nil {
		return image{}, nil, err
	}
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		t, err := readLink(dir.Root, name)
		if err != nil {
			return image{}, nil, err
		}
		return image{Kind: kindSymlink, Target: t}, nil, nil
	case m.IsDir():
		img := image{Kind: kindDir, Mode: m.Perm()}
		if keep {
			img.Meta = folderMeta(dir.Root, name)
		}
		return img, nil, nil
	case m.IsRegular():
		if fi.Size() > max {
			return image{}, nil, errTooLarge
		}
		// os.Root follows a final link that stays inside dir: the file
		// opened must be the one just seen, not a link swapped in since
		// (to a secret, whose bytes would become the pre-image).
		f, err := dir.OpenFile(name, os.O_RDONLY|syscallNonblock, 0)
		if err != nil {
			return image{}, nil, err
		}
		defer f.Close()
		at, err := f.Stat()
		if err != nil {
			return image{}, nil, err
		} else if !os.SameFile(at, fi) {
			return image{}, nil, errSwapped
		}
		img := image{Kind: kindFile, Mode: fileMode(m), OtherLinks: otherLinks(at), id: fileID(at)}
		if keep {
			img.Meta = fileMeta(f, at)
		}
		if !keep {
			h := sha256.New()
			buf := make([]byte, min(fi.Size()+1, 64<<10)) // a small file takes a small buffer
			n, err := io.CopyBuffer(h, io.LimitReader(f, max+1), buf)
			if err != nil {
				return image{}, nil, err
			}
			if n > max {
				return image{}, nil, errTooLarge
			}
			img.SHA256 = hex.EncodeToString(h.Sum(nil))
			return img, nil, nil
		}
		// Room for the size just seen, and one read more to see the end:
		// io.ReadAll's growing from 512 bytes allocated 2-3 times each
		// file, and a large change reads hundreds.
		buf := bytes.NewBuffer(make([]byte, 0, min(at.Size(), max)+bytes.MinRead))
		_, err = buf.ReadFrom(io.LimitReader(f, max+1))
		b := buf.Bytes()
		if err != nil {
			return image{}, nil, err
		}
		if int64(len(b)) > max {
			return image{}, nil, errTooLarge
		}
		if policy.LinkedKey(at, b) {
			return image{}, nil, errLinkedKey
		}
		img.SHA256 = sum(b)
		return img, b, nil
	}
	return image{}, nil, errSpecial
}

// errLinkedKey is a hard link to a private key where a change would keep
// the file's content (policy.LinkedKey).
var errLinkedKey = errors.New("a hard link to a private key")

// errSpecial is a FIFO, socket or device where a change wants a file.
var errSpecial = errors.New("not a regular file, folder or symlink")

// names opens the folder of rel and temp (a temporary name beside it) and
// returns their last names in it.
func names(root *os.Root, rel, temp string) (folder, string, string, error) {
	if temp != "" && path.Dir(temp) != path.Dir(rel) {
		return folder{}, "", "", fmt.Errorf("temporary name %q is not beside %q", temp, rel)
	}
	dir, err := openFolder(root, path.Dir(rel))
	if err != nil {
		return folder{}, "", "", err
	}
	return dir, path.Base(rel), path.Base(temp), nil
}

// place makes rel inside root hold the state img (content for a file),
// atomically for files and symlinks: a temporary name in the same folder,
// synced, then renamed over rel. The caller syncs the folder (syncDir),
// once for all the names it placed there.
// mid, when not nil, runs after the temporary file is made and before the
// rename (the crash tests stop there).
func place(root *os.Root, rel, temp string, img image, content []byte, mid func()) error {
	dir, name, tname, err := names(root, rel, temp)
	if err != nil {
		return err
	}
	defer dir.close()
	switch img.Kind {
	case kindAbsent:
		if err := dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return notEmpty(dir.Root, name, err)
		}
	case kindFile:
		if err := writeTemp(dir.Root, tname, name, content, img); err != nil {
			return err
		}
		if mid != nil {
			mid()
		}
		if err := replaceWith(dir.Root, tname, name); err != nil {
			return err
		}
	case kindSymlink:
		if err := dir.Symlink(img.Target, tname); err != nil {
			return err
		}
		if err := replaceWith(dir.Root, tname, name); err != nil {
			return err
		}
	case kindDir:
		fi, err := dir.Lstat(name)
		switch {
		case err == nil && fi.IsDir():
			if fi.Mode().Perm() != img.Mode.Perm() && img.Mode != 0 {
				// Chmod follows a link: change the folder through a
				// handle of its own.
				sub, err := openChild(dir.Root, name)
				if err != nil {
					return err
				}
				defer sub.Close()
				if err := sub.Chmod(".", img.Mode.Perm()); err != nil {
					return err
				}
			}
			return nil
		case err == nil:
			if err := dir.Remove(name); err != nil {
				return err
			}
		}
		mode := img.Mode.Perm()
		if mode == 0 {
			mode = newDirMode
		}
		if err := dir.Mkdir(name, mode); err != nil {
			return err
		}
		if img.Meta != nil { // a folder moved or put back: its owner and ACLs
			sub, err := openChild(dir.Root, name)
			if err != nil {
				return err
			}
			defer sub.Close()
			d, err := sub.Open(".")
			if err != nil {
				return err
			}
			applyMeta(dir.Root, name, d, img.Meta)
			d.Close()
		}
	}
	return nil
}

// folderMeta is readMeta of the folder name of dir; nil when it cannot
// be opened as the folder it is.
func folderMeta(dir *os.Root, name string) *meta {
	sub, err := openChild(dir, name)
	if err != nil {
		return nil
	}
	defer sub.Close()
	d, err := sub.Open(".")
	if err != nil {
		return nil
	}
	defer d.Close()
	fi, err := d.Stat()
	if err != nil {
		return nil
	}
	return fileMeta(d, fi)
}

// notEmptyError is a folder a change removes that holds an entry the
// change did not expect (added since it was computed).
type notEmptyError struct {
	entry string // the entry's name in the folder
	err   error
}

func (e *notEmptyError) Error() string { return e.err.Error() }
func (e *notEmptyError) Unwrap() error { return e.err }

// notEmpty turns the failure err of removing name from dir into a
// notEmptyError naming one entry, when name is a folder that holds one.
func notEmpty(dir *os.Root, name string, err error) error {
	sub, oerr := openChild(dir, name)
	if oerr != nil {
		return err
	}
	defer sub.Close()
	entries, rerr := fs.ReadDir(sub.FS(), ".")
	if rerr != nil || len(entries) == 0 {
		return err
	}
	return &notEmptyError{entry: entries[0].Name(), err: err}
}

// placeUnnamed makes rel hold the file img with content, already written
// and synced in t: linked as temp, then renamed over rel. Where t cannot
// be linked (no /proc), temp is written again by name. mid runs before
// the rename. t must have been made in the folder rel's folder is now.
func placeUnnamed(root *os.Root, rel, temp string, t *unnamedTemp, img image, content []byte, mid func()) error {
	dir, name, tname, err := names(root, rel, temp)
	if err != nil {
		return err
	}
	defer dir.close()
	if !t.in(dir.Root) {
		return errSwapped
	}
	if err := t.link(tname); err != nil {
		if err := writeTemp(dir.Root, tname, name, content, img); err != nil {
			return err
		}
	} else if applyMeta(dir.Root, name, t.file(), img.Meta) && img.Mode != 0 {
		// A change of owner drops setuid and setgid, an ACL rewrites the
		// group bits.
		t.file().Chmod(img.Mode)
	}
	if mid != nil {
		mid()
	}
	return replaceWith(dir.Root, tname, name)
}

// removeTemp removes a temporary name a change may have left.
func removeTemp(root *os.Root, temp string) {
	if dir, err := openFolder(root, path.Dir(temp)); err == nil {
		dir.Remove(path.Base(temp))
		dir.close()
	}
}

// replaceWith renames temp over name, both in dir; a folder at name is
// removed first (it must be empty).
func replaceWith(dir *os.Root, temp, name string) error {
	err := dir.Rename(temp, name)
	if err == nil {
		return nil
	}
	if fi, lerr := dir.Lstat(name); lerr == nil && fi.IsDir() {
		if rerr := dir.Remove(name); rerr == nil {
			err = dir.Rename(temp, name)
		}
	}
	if err != nil {
		dir.Remove(temp)
	}
	return err
}

// writeTemp writes content into a new file temp of dir with img's mode,
// synced, owned and with the extended attributes img records or, without
// them, those of the file it replaces, name (applyMeta). Whatever is at
// temp already is not juju's (see pickTemp): it is left alone, and the
// write fails.
func writeTemp(dir *os.Root, temp, name string, content []byte, img image) error {
	mode := img.Mode
	if mode == 0 {
		mode = newFileMode
	}
	f, err := dir.OpenFile(temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	applyMeta(dir, name, f, img.Meta)
	if err == nil {
		// The umask may have narrowed it, a chown drops setuid, an ACL
		// rewrites the group bits.
		err = f.Chmod(mode)
	}
	if err == nil {
		err = datasync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		dir.Remove(temp)
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
	f, err := openFolder(root, dir)
	if err != nil {
		return err
	}
	defer f.close()
	d, err := f.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	return syncDirFile(d)
}
