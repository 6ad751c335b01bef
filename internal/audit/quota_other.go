//go:build !unix

package audit

import "syscall"

// errQuota is a write refused by a disk quota (none here: ENOSPC covers it).
const errQuota = syscall.ENOSPC
