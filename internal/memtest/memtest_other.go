//go:build !linux

package memtest

import "errors"

func resident([]byte) (int, int, error) {
	return 0, 0, errors.New("memtest: no pagemap on this system")
}

func machineCode(int) (int64, error) {
	return 0, errors.New("memtest: no /proc/PID/maps on this system")
}
