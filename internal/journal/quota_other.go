//go:build !unix

package journal

import "syscall"

// errQuota is a write refused by a disk quota (none here: ENOSPC covers it).
const errQuota = syscall.ENOSPC
