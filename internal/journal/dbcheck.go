package journal

import (
	bin "encoding/binary"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
)

// Header of a bbolt file (go.etcd.io/bbolt/internal/common): each page
// starts with id (8 bytes), flags (2), count (2), overflow (4); a meta page
// then holds magic, version, page size, flags (4 bytes each), the root
// bucket (root page, sequence: 8 each), the free-list page, the high-water
// mark (pages in use), the transaction id and an FNV-64a checksum of what
// precedes it (8 each), in the machine's byte order.
const (
	boltPageHeader   = 16
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	boltMetaSum      = 56 // bytes of the meta the checksum covers
	boltBranch       = 0x01
	boltLeaf         = 0x02
	boltFreelistPage = 0x10
	boltNoFreelist   = ^uint64(0)
)

type boltMeta struct {
	pageSize uint64
	root     uint64
	freelist uint64
	pgid     uint64
	txid     uint64
}

// readMeta reads the meta page at off, false when it is not valid.
func readMeta(f *os.File, off int64) (boltMeta, bool) {
	buf := make([]byte, boltPageHeader+boltMetaSum+8)
	if _, err := f.ReadAt(buf, off); err != nil {
		return boltMeta{}, false
	}
	m := buf[boltPageHeader:]
	ne := bin.NativeEndian
	h := fnv.New64a()
	h.Write(m[:boltMetaSum])
	if ne.Uint32(m[0:]) != boltMagic || ne.Uint32(m[4:]) != boltVersion || ne.Uint64(m[boltMetaSum:]) != h.Sum64() {
		return boltMeta{}, false
	}
	mt := boltMeta{pageSize: uint64(ne.Uint32(m[8:])), root: ne.Uint64(m[16:]), freelist: ne.Uint64(m[32:]), pgid: ne.Uint64(m[40:]), txid: ne.Uint64(m[48:])}
	if mt.pageSize < 512 || mt.pageSize > 1<<20 || mt.pageSize&(mt.pageSize-1) != 0 {
		return boltMeta{}, false
	}
	return mt, true
}

// checkFile says what is wrong with the database file f ("" when it looks
// whole): bbolt maps the file and trusts the pages its header names, so a
// file cut short faults and a page overwritten panics. kindOnly (tests)
// checks only that f is a regular file that is not empty.
func checkFile(f *os.File, kindOnly bool) string {
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	if !fi.Mode().IsRegular() {
		return fmt.Sprintf("it is not a regular file but a %s", kindOf(fi.Mode()))
	}
	size := fi.Size()
	if size == 0 {
		return "the file is empty (juju never leaves a journal empty)"
	}
	if kindOnly {
		return ""
	}
	m0, ok0 := readMeta(f, 0)
	at := int64(os.Getpagesize())
	if ok0 {
		at = int64(m0.pageSize)
	}
	m1, ok1 := readMeta(f, at)
	m := m0
	switch {
	case !ok0 && !ok1:
		return fmt.Sprintf("neither of its two header pages is valid (the file is %d bytes)", size)
	case !ok0 || ok1 && m1.txid > m0.txid:
		m = m1
	}
	ps := m.pageSize
	if m.pgid < 2 || m.root >= m.pgid || m.freelist != boltNoFreelist && m.freelist >= m.pgid || m.pgid > uint64(1<<62)/ps {
		return "its header names pages past its own end"
	}
	if want := m.pgid * ps; uint64(size) < want {
		return fmt.Sprintf("the file is %d bytes but its header says it holds %d: it was cut short", size, want)
	}
	page := func(id uint64, flags ...uint16) bool {
		buf := make([]byte, boltPageHeader)
		if _, err := f.ReadAt(buf, int64(id*ps)); err != nil {
			return false
		}
		if bin.NativeEndian.Uint64(buf) != id {
			return false
		}
		got := bin.NativeEndian.Uint16(buf[8:])
		for _, fl := range flags {
			if got == fl {
				return true
			}
		}
		return false
	}
	if !page(m.root, boltLeaf, boltBranch) {
		return fmt.Sprintf("its root page (page %d) was overwritten", m.root)
	}
	if m.freelist != boltNoFreelist && (!page(m.freelist, boltFreelistPage) || !freelistFits(f, m)) {
		return fmt.Sprintf("its free-page list (page %d) was overwritten", m.freelist)
	}
	return ""
}

// freelistFits reads the free-page list bbolt loads as it opens a file
// for writing, and says whether it lies within its pages and names only
// pages of the file (bbolt trusts both).
func freelistFits(f *os.File, m boltMeta) bool {
	ps := m.pageSize
	head := make([]byte, boltPageHeader+8)
	if _, err := f.ReadAt(head, int64(m.freelist*ps)); err != nil {
		return false
	}
	ne := bin.NativeEndian
	overflow := uint64(ne.Uint32(head[12:]))
	if m.freelist+overflow+1 > m.pgid {
		return false
	}
	idx, count := uint64(0), uint64(ne.Uint16(head[10:]))
	if count == 0xFFFF {
		idx, count = 1, ne.Uint64(head[boltPageHeader:])
	}
	span := (overflow + 1) * ps
	if count > span/8 || boltPageHeader+(idx+count)*8 > span {
		return false
	}
	ids := make([]byte, count*8)
	if _, err := f.ReadAt(ids, int64(m.freelist*ps+boltPageHeader+idx*8)); err != nil {
		return false
	}
	for i := uint64(0); i < count; i++ {
		if id := ne.Uint64(ids[i*8:]); id < 2 || id >= m.pgid {
			return false
		}
	}
	return true
}

func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}
