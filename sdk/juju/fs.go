package juju

import (
	"encoding/json"

	"github.com/jujutools/juju/sdk/abi"
)

// ReadFile reads a file, by bytes or by lines (see abi.ReadRequest; needs
// fs.read). The returned bytes are the content; the result describes them.
func ReadFile(req abi.ReadRequest) (*abi.ReadResult, []byte, error) {
	return send[abi.ReadResult](hostFSRead, abi.FnFSRead, appendReadRequest(make([]byte, 0, 64+len(req.Path)), &req), nil, decodeReadResult)
}

// ReadOutcome is one read of ReadFiles: what ReadFile returns for it.
type ReadOutcome struct {
	Result *abi.ReadResult
	Bytes  []byte
	Err    error
}

// ReadFiles reads several files in one host call (needs fs.read; at most
// abi.MaxReads), which the host may serve at once: each outcome, in the
// order asked, is what ReadFile would return for its request, except that
// the reads share the host's cap on the bytes of one read. The error is
// the call's own; a read that fails has its Err.
func ReadFiles(reqs []abi.ReadRequest) ([]ReadOutcome, error) {
	header := make([]byte, 0, 16+len(reqs)*80)
	header = append(header, `{"reads":[`...)
	for i := range reqs {
		if i > 0 {
			header = append(header, ',')
		}
		header = appendReadRequest(header, &reqs[i])
	}
	header = append(header, "]}"...)
	res, body, err := send[abi.ReadsResult](hostFSReads, abi.FnFSReads, header, nil,
		func(rh []byte, r *abi.ReadsResult) bool { return unmarshalFast(rh, r) })
	if err != nil {
		return nil, err
	}
	outs, ok := splitReads(body, res.Reads)
	if !ok || len(outs) != len(reqs) {
		return nil, Errorf(abi.Internal, "the host answered %s with a malformed frame", abi.FnFSReads)
	}
	return outs, nil
}

// splitReads decodes the n read frames of a juju_fs_reads answer's body,
// or reports false when the body is not exactly that.
func splitReads(body []byte, n int) ([]ReadOutcome, bool) {
	if n < 0 || n > abi.MaxReads {
		return nil, false
	}
	outs := make([]ReadOutcome, n)
	for i := range outs {
		h, b, rest, err := abi.NextFramed(body)
		if err != nil {
			return nil, false
		}
		body = rest
		r := new(abi.ReadResult)
		if !decodeReadResult(h, r) {
			*r = abi.ReadResult{}
			if json.Unmarshal(h, r) != nil {
				return nil, false
			}
		}
		if e := r.Err(); e != nil {
			outs[i].Err = e
			continue
		}
		outs[i].Result, outs[i].Bytes = r, b
	}
	return outs, len(body) == 0
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
