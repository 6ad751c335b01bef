//go:build !wasip1

package juju

import "github.com/jujutools/juju/sdk/abi"

func viaExec(frame []byte) ([]byte, error)      { return exchange(abi.FnExec, frame) }
func viaExecShell(frame []byte) ([]byte, error) { return exchange(abi.FnExecShell, frame) }
func viaJob(frame []byte) ([]byte, error)       { return exchange(abi.FnJob, frame) }
func viaGit(frame []byte) ([]byte, error)       { return exchange(abi.FnGit, frame) }
