package juju

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/jujutools/juju/sdk/abi"
)

// errNoHost is what host function wrappers return outside a wasm plugin.
var errNoHost = errors.New("juju: host functions are available only inside a plugin run by juju")

// result is what every host function response header is: a Status and
// fields around it.
type result interface{ Err() *abi.Error }

// roundTrip is every host function call: it sends req (and body, not
// copied) as one request frame through imp, the wasm import of host function fn (see
// imports_wasip1.go), and decodes the response header into Res. A failure
// reported by the host comes back as its *abi.Error, ready to be returned
// by a handler. Each wrapper names its own import, so that a plugin links
// only the imports it calls.
func roundTrip[Res result](imp func(uint64) uint64, fn string, req any, body []byte) (*Res, []byte, error) {
	header, err := encodeRequest(fn, req)
	if err != nil {
		return nil, nil, err
	}
	return send[Res](imp, fn, header, body, func(rh []byte, res *Res) bool { return unmarshalFast(rh, res) })
}

// send is roundTrip of a request already encoded; decode, when it does not
// report false, has decoded the response header into a fresh Res, and
// encoding/json decodes it otherwise.
//
// Go compiles send and roundTrip once per response type, so what does not
// depend on Res lives in encodeRequest and hostCall.
func send[Res result](imp func(uint64) uint64, fn string, header, body []byte, decode func([]byte, *Res) bool) (*Res, []byte, error) {
	rh, rb, err := hostCall(imp, fn, header, body)
	if err != nil {
		return nil, nil, err
	}
	res := new(Res)
	if !decode(rh, res) {
		res = new(Res)
		if json.Unmarshal(rh, res) != nil {
			return nil, nil, malformedHeader(fn)
		}
	}
	if e := (*res).Err(); e != nil {
		return nil, nil, e
	}
	return res, rb, nil
}

// encodeRequest is a request's header, by the SDK's codec when it knows
// the type, else by encoding/json.
func encodeRequest(fn string, req any) ([]byte, error) {
	if header, ok := marshalFast(req); ok {
		return header, nil
	}
	header, err := json.Marshal(req)
	if err != nil {
		return nil, Errorf(abi.Internal, "the plugin could not encode a request to %s", fn)
	}
	return header, nil
}

// hostCall makes the host call and splits its answer into header and body.
func hostCall(imp func(uint64) uint64, fn string, header, body []byte) (rh, rb []byte, err error) {
	resp, err := exchange(imp, fn, header, body)
	if err != nil {
		return nil, nil, err
	}
	rh, rb, err = abi.DecodeFrame(resp)
	if err != nil {
		return nil, nil, Errorf(abi.Internal, "the host answered %s with a malformed frame", fn)
	}
	return rh, rb, nil
}

// frameSize is the length of a request frame of header and body.
func frameSize(header, body []byte) uint64 {
	return 4 + uint64(len(header)) + uint64(len(body))
}

// refused is the error of a request frame of n bytes to host function fn
// that the host would not take: one past abi.MaxFrame, or one the channel
// refused, which it does for its size alone (the room the plugin's memory
// cap leaves beside what the plugin holds). Nothing was sent, so nothing
// was done: the request is too large, not the host broken.
func refused(fn string, n uint64) error {
	return Errorf(abi.TooLarge, "the plugin's request to %s is %s, more than the host takes at once (%d MiB at most, less when the plugin's memory is full); nothing was done. Ask for less in one call: a change of fewer or smaller files, made in several calls",
		fn, sizeText(n), abi.MaxFrame>>20)
}

// sizeText says n bytes in the unit that reads best.
func sizeText(n uint64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatUint(n>>20, 10) + " MiB"
	case n >= 1<<10:
		return strconv.FormatUint(n>>10, 10) + " KiB"
	}
	return strconv.FormatUint(n, 10) + " bytes"
}

func malformedHeader(fn string) error {
	return Errorf(abi.Internal, "the host answered %s with a malformed header", fn)
}
