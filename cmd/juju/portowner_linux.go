package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// portListener is the user id of a TCP listener on port, from
// /proc/net/tcp and tcp6, or -1 when none is found.
func portListener(port int) int {
	for _, name := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 8 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, ok := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); !ok || err != nil || int(p) != port {
				continue
			}
			if uid, err := strconv.Atoi(fields[7]); err == nil {
				f.Close()
				return uid
			}
		}
		f.Close()
	}
	return -1
}
