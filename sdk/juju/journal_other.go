//go:build !wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

// Outside wasm the journal and state functions go to the test host, like
// the fs ones.

func sendFSApply(f []byte) ([]byte, error)       { return exchange(abi.FnFSApply, f) }
func sendFSPlan(f []byte) ([]byte, error)        { return exchange(abi.FnFSPlan, f) }
func sendFSPlanApply(f []byte) ([]byte, error)   { return exchange(abi.FnFSPlanApply, f) }
func sendFSPlanDiscard(f []byte) ([]byte, error) { return exchange(abi.FnFSPlanDiscard, f) }
func sendFSHistory(f []byte) ([]byte, error)     { return exchange(abi.FnFSHistory, f) }
func sendFSRollback(f []byte) ([]byte, error)    { return exchange(abi.FnFSRollback, f) }
func sendStateGet(f []byte) ([]byte, error)      { return exchange(abi.FnStateGet, f) }
func sendStatePut(f []byte) ([]byte, error)      { return exchange(abi.FnStatePut, f) }
