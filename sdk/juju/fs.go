package juju

import "github.com/jujutools/juju/sdk/abi"

// ReadFile reads a file, by bytes or by lines (see abi.ReadRequest; needs
// fs.read). The returned bytes are the content; the result describes them.
func ReadFile(req abi.ReadRequest) (*abi.ReadResult, []byte, error) {
	return roundTrip[abi.ReadResult](hostFSRead, abi.FnFSRead, req, nil)
}

// ListDir lists one folder, sorted by name (needs fs.read).
func ListDir(req abi.ListRequest) (*abi.ListResult, error) {
	res, _, err := roundTrip[abi.ListResult](hostFSList, abi.FnFSList, req, nil)
	return res, err
}

// Stat describes one path; req.Hash asks for a file's sha256 (needs
// fs.read).
func Stat(req abi.StatRequest) (*abi.StatResult, error) {
	res, _, err := roundTrip[abi.StatResult](hostFSStat, abi.FnFSStat, req, nil)
	return res, err
}

// Glob walks a folder and returns the entries matching a doublestar pattern
// (needs fs.read).
func Glob(req abi.GlobRequest) (*abi.GlobResult, error) {
	res, _, err := roundTrip[abi.GlobResult](hostFSGlob, abi.FnFSGlob, req, nil)
	return res, err
}
