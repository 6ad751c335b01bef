package juju

import (
	"encoding/json"
	"errors"

	"github.com/jujutools/juju/sdk/abi"
)

// errNoHost is what host function wrappers return outside a wasm plugin.
var errNoHost = errors.New("juju: host functions are available only inside a plugin run by juju")

// result is what every host function response header is: a Status and
// fields around it.
type result interface{ Err() *abi.Error }

// roundTrip sends one request frame to host function fn and decodes the
// response header into Res. A failure reported by the host comes back as
// its *abi.Error, ready to be returned by a handler.
func roundTrip[Res result](fn string, req any, body []byte) (*Res, []byte, error) {
	return roundTripVia[Res](nil, fn, req, body)
}

// roundTripVia is roundTrip through the wasm import imp (nil: the one
// exchange knows for fn).
func roundTripVia[Res result](imp func(uint64) uint64, fn string, req any, body []byte) (*Res, []byte, error) {
	header, ok := marshalFast(req)
	if !ok {
		var err error
		if header, err = json.Marshal(req); err != nil {
			return nil, nil, Errorf(abi.Internal, "the plugin could not encode a request to %s", fn)
		}
	}
	var resp []byte
	var err error
	if imp != nil {
		resp, err = exchangeVia(imp, fn, abi.EncodeFrame(header, body))
	} else {
		resp, err = exchange(fn, abi.EncodeFrame(header, body))
	}
	if err != nil {
		return nil, nil, err
	}
	rh, rb, err := abi.DecodeFrame(resp)
	if err != nil {
		return nil, nil, Errorf(abi.Internal, "the host answered %s with a malformed frame", fn)
	}
	res := new(Res)
	if !unmarshalFast(rh, res) {
		res = new(Res)
		if err := json.Unmarshal(rh, res); err != nil {
			return nil, nil, Errorf(abi.Internal, "the host answered %s with a malformed header", fn)
		}
	}
	if e := (*res).Err(); e != nil {
		return nil, nil, e
	}
	return res, rb, nil
}

// ReadFile reads a file, by bytes or by lines (see abi.ReadRequest). The
// returned bytes are the content; the result describes them.
func ReadFile(req abi.ReadRequest) (*abi.ReadResult, []byte, error) {
	return roundTrip[abi.ReadResult](abi.FnFSRead, req, nil)
}

// ListDir lists one folder, sorted by name.
func ListDir(req abi.ListRequest) (*abi.ListResult, error) {
	res, _, err := roundTrip[abi.ListResult](abi.FnFSList, req, nil)
	return res, err
}

// Stat describes one path; req.Hash asks for a file's sha256.
func Stat(req abi.StatRequest) (*abi.StatResult, error) {
	res, _, err := roundTrip[abi.StatResult](abi.FnFSStat, req, nil)
	return res, err
}

// Glob walks a folder and returns the entries matching a doublestar pattern.
func Glob(req abi.GlobRequest) (*abi.GlobResult, error) {
	res, _, err := roundTrip[abi.GlobResult](abi.FnFSGlob, req, nil)
	return res, err
}
