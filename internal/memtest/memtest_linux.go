package memtest

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
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

func machineCode(pid int) (int64, error) {
	name := "/proc/self/maps"
	if pid != 0 {
		name = "/proc/" + strconv.Itoa(pid) + "/maps"
	}
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 5 || fields[1] != "r-xp" { // no path: anonymous
			continue
		}
		lo, hi, _ := strings.Cut(fields[0], "-")
		a, err1 := strconv.ParseUint(lo, 16, 64)
		b, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("%s: %q is not a mapping", name, fields[0])
		}
		n += int64(b - a)
	}
	return n, sc.Err()
}
