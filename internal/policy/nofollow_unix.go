//go:build unix

package policy

import "syscall"

const oNoFollow = syscall.O_NOFOLLOW
