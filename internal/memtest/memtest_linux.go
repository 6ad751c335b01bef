package memtest

import (
	"encoding/binary"
	"os"
	"unsafe"
)

func resident(b []byte) (n, total int, err error) {
	if len(b) == 0 {
		return 0, 0, nil
	}
	ps := uintptr(os.Getpagesize())
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	first := (addr + ps - 1) / ps
	end := (addr + uintptr(len(b))) / ps
	if end <= first {
		return 0, 0, nil
	}
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	entries := make([]byte, 8*(end-first))
	if _, err := f.ReadAt(entries, int64(first*8)); err != nil {
		return 0, 0, err
	}
	for i := 0; i < len(entries); i += 8 {
		if binary.LittleEndian.Uint64(entries[i:])>>63 == 1 {
			n++
		}
	}
	return n, len(entries) / 8, nil
}
