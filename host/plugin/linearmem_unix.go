//go:build linux || darwin

package plugin

import (
	"sync"

	"github.com/tetratelabs/wazero/experimental"
	"golang.org/x/sys/unix"
)

// Linear memories live outside the Go heap: each is one anonymous mapping
// of the module's maximum size, reserved when the module is instantiated
// (virtual address space only) and touched page by page as the module
// grows. Compared with wazero's default, a []byte in the Go heap that is
// copied whole on every growth:
//
//   - the Go heap holds only the host's own objects, so its collector (and
//     juju stdio's soft memory limit) no longer counts megabytes of guest
//     memory per instance, nor paces itself on them;
//   - growing copies nothing;
//   - a closed instance's pages go back to the operating system at once.
//
// wazero calls Free when it closes a module, which the call deadline does
// from a timer while guest code may still be running until its next
// termination check: Free therefore only discards the pages (the guest
// would read zeros, never fault), and the mapping is removed by unmap,
// which the pool calls once no call can be running in the instance.
type mmapMemory struct {
	mu    sync.Mutex
	buf   []byte // the whole mapping; nil once unmapped
	used  int    // the memory's current size: what wazero last asked for
	freed bool
}

var _ experimental.LinearMemory = (*mmapMemory)(nil)

// linearMemory reserves a linear memory of at most limit bytes, or returns
// nil (wazero then keeps the memory in the Go heap) when the mapping
// fails.
func linearMemory(limit uint64) *mmapMemory {
	const page = 64 << 10
	size := max(limit, page)
	if size > 1<<32 {
		size = 1 << 32 // wasm32
	}
	buf, err := unix.Mmap(-1, 0, int(size), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON|mapNoReserve)
	if err != nil {
		return nil
	}
	return &mmapMemory{buf: buf}
}

// Reallocate implements experimental.LinearMemory: the first size bytes
// of the mapping, which never moves.
func (m *mmapMemory) Reallocate(size uint64) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buf == nil || m.freed || size > uint64(len(m.buf)) {
		return nil
	}
	m.used = int(size)
	return m.buf[:size:size]
}

// size is the memory's current size.
func (m *mmapMemory) size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.used
}

// Free implements experimental.LinearMemory: the pages go back to the
// system; the mapping stays until unmap.
func (m *mmapMemory) Free() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buf != nil && !m.freed {
		m.freed = true
		unix.Madvise(m.buf, unix.MADV_DONTNEED)
	}
}

// unmap removes the mapping. No call may be running in the module.
func (m *mmapMemory) unmap() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.buf != nil {
		unix.Munmap(m.buf)
		m.buf = nil
	}
}
