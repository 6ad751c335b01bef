package memtest

import (
	"os"
	"syscall"
	"testing"
)

// Pages written are resident, and pages dropped with MADV_DONTNEED are not.
func TestResident(t *testing.T) {
	ps := os.Getpagesize()
	b, err := syscall.Mmap(-1, 0, 8*ps, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(b)
	if n, total, err := Resident(b); err != nil || n != 0 || total != 8 {
		t.Fatalf("fresh mapping: %d of %d resident (%v)", n, total, err)
	}
	for i := 0; i < 5*ps; i += ps {
		b[i] = 1
	}
	if n, total, err := Resident(b); err != nil || n != 5 || total != 8 {
		t.Fatalf("five pages written: %d of %d resident (%v)", n, total, err)
	}
	// Only whole pages inside the slice count.
	if n, total, err := Resident(b[1 : 3*ps+1]); err != nil || n != 2 || total != 2 {
		t.Fatalf("a slice over pages 0–3, whole pages 1 and 2: %d of %d (%v)", n, total, err)
	}
	if err := syscall.Madvise(b, syscall.MADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	if n, _, err := Resident(b); err != nil || n != 0 {
		t.Fatalf("after MADV_DONTNEED: %d resident (%v)", n, err)
	}
}

// MachineCode counts an anonymous executable mapping, and no other.
func TestMachineCodeCountsAnonymousExecutableMappings(t *testing.T) {
	before, err := MachineCode(0)
	if err != nil {
		t.Fatal(err)
	}
	const size = 16 << 12
	data, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	if n, _ := MachineCode(0); n != before {
		t.Fatalf("a writable mapping counted: %d → %d", before, n)
	}
	if err := syscall.Mprotect(data, syscall.PROT_READ|syscall.PROT_EXEC); err != nil {
		t.Fatal(err)
	}
	if n, _ := MachineCode(os.Getpid()); n != before+size {
		t.Fatalf("machine code %d, want %d + %d", n, before, size)
	}
}
