//go:build linux

package lsp

import (
	"io/fs"
	"syscall"
)

func sysStamp(fi fs.FileInfo) stamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return stamp{}
	}
	return stamp{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, mode: st.Mode,
		mod: st.Mtim.Nano(), chg: st.Ctim.Nano(), valid: true}
}
