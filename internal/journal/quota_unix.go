//go:build unix

package journal

import "syscall"

// errQuota is a write refused by a disk quota.
const errQuota = syscall.EDQUOT
