//go:build unix

package audit

import "syscall"

// errQuota is a write refused by a disk quota.
const errQuota = syscall.EDQUOT
