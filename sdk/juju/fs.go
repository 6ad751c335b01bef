package juju

import "github.com/jujutools/juju/sdk/abi"

// ReadFile reads a file, by bytes or by lines (see abi.ReadRequest; needs
// fs.read). The returned bytes are the content; the result describes them.
func ReadFile(req abi.ReadRequest) (*abi.ReadResult, []byte, error) {
	return send[abi.ReadResult](hostFSRead, abi.FnFSRead, appendReadRequest(make([]byte, 0, 64+len(req.Path)), &req), nil, decodeReadResult)
}

// ListDir lists one folder, sorted by name (needs fs.read).
func ListDir(req abi.ListRequest) (*abi.ListResult, error) {
	res, _, err := ListDirPlain(req)
	return res, err
}

// ListDirPlain is ListDir, and whether no string of the entries needs JSON
// escaping (abi.JSONPlain), so that a plugin writing them into JSON may copy
// them between quotes as they are. The entries cross packed
// (abi.AppendEntries), whichever of the two is called.
func ListDirPlain(req abi.ListRequest) (*abi.ListResult, bool, error) {
	req.Packed = true
	res, body, err := roundTrip[abi.ListResult](hostFSList, abi.FnFSList, req, nil)
	if err != nil {
		return nil, false, err
	}
	ents, plain, err := unpack(abi.FnFSList, body)
	if err != nil {
		return nil, false, err
	}
	res.Entries = ents
	return res, plain, nil
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
	res, _, err := GlobPlain(req)
	return res, err
}

// GlobPlain is Glob, and whether no string of the entries needs JSON
// escaping, as ListDirPlain says of a listing.
func GlobPlain(req abi.GlobRequest) (*abi.GlobResult, bool, error) {
	req.Packed = true
	res, body, err := roundTrip[abi.GlobResult](hostFSGlob, abi.FnFSGlob, req, nil)
	if err != nil {
		return nil, false, err
	}
	ents, plain, err := unpack(abi.FnFSGlob, body)
	if err != nil {
		return nil, false, err
	}
	res.Entries = ents
	return res, plain, nil
}

// unpack decodes the packed entries host function fn answered with (never
// nil), and whether their strings are plain.
func unpack(fn string, body []byte) ([]abi.Entry, bool, error) {
	ents, plain, err := abi.DecodeEntries(body)
	if err != nil {
		return nil, false, Errorf(abi.Internal, "the host answered %s with malformed entries", fn)
	}
	return ents, plain, nil
}
