//go:build !linux

package policy

import "testing"

func withoutOpenat2(testing.TB) {}
