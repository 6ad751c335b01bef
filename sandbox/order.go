package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// An order is the command juju hands a standby reaper (see ReaperMain):
// the program, its arguments (Args[0] included), environment and working
// folder. Its descriptors travel beside it (HandOrder).
type order struct {
	Path string
	Dir  string
	Args []string
	Env  []string
}

// Limits of an order: its encoded size, and how many descriptors come
// with it (stdout, stderr and up to 16 kept, as --keep allows).
const (
	maxOrderBytes = 8 << 20
	maxOrderFiles = 2 + 16
)

// encode writes the order as its length, then each string as its length
// and its bytes: Path, Dir, the count of Args and each, the count of Env
// and each. Lengths are little-endian uint32.
func (o order) encode() []byte {
	n := 4 + 4 + len(o.Path) + 4 + len(o.Dir) + 4 + 4
	for _, s := range o.Args {
		n += 4 + len(s)
	}
	for _, s := range o.Env {
		n += 4 + len(s)
	}
	b := make([]byte, 4, n)
	put := func(s string) {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	put(o.Path)
	put(o.Dir)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(o.Args)))
	for _, s := range o.Args {
		put(s)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(o.Env)))
	for _, s := range o.Env {
		put(s)
	}
	binary.LittleEndian.PutUint32(b, uint32(len(b)-4))
	return b
}

var errBadOrder = errors.New("a malformed order")

// decodeOrder reads an order's body (what follows its length) and checks
// it: every string whole and free of NUL bytes, nothing after the last,
// an absolute program path and at least its own name in Args.
func decodeOrder(b []byte) (order, error) {
	str := func() (string, bool) {
		if len(b) < 4 {
			return "", false
		}
		n := binary.LittleEndian.Uint32(b)
		if uint64(n) > uint64(len(b)-4) {
			return "", false
		}
		s := string(b[4 : 4+n])
		b = b[4+n:]
		return s, !strings.ContainsRune(s, 0)
	}
	list := func() ([]string, bool) {
		if len(b) < 4 {
			return nil, false
		}
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		if uint64(n)*4 > uint64(len(b)) { // each string takes 4 bytes at least
			return nil, false
		}
		l := make([]string, 0, n)
		for range n {
			s, ok := str()
			if !ok {
				return nil, false
			}
			l = append(l, s)
		}
		return l, true
	}
	var o order
	var ok bool
	if o.Path, ok = str(); !ok {
		return order{}, errBadOrder
	}
	if o.Dir, ok = str(); !ok {
		return order{}, errBadOrder
	}
	if o.Args, ok = list(); !ok {
		return order{}, errBadOrder
	}
	if o.Env, ok = list(); !ok || len(b) != 0 {
		return order{}, errBadOrder
	}
	if !strings.HasPrefix(o.Path, "/") || len(o.Args) == 0 {
		return order{}, fmt.Errorf("%w: the program must be an absolute path, with its name as the first argument", errBadOrder)
	}
	return o, nil
}
