package plugin

import (
	"context"
	"fmt"

	extism "github.com/extism/go-sdk"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// hostFunctions wraps every hostfns.Func for this plugin: the grant is
// checked first, the request frame decoded, the handler run with panics
// contained, and the response frame written back.
func (p *Plugin) hostFunctions() []extism.HostFunction {
	out := make([]extism.HostFunction, 0, len(p.fns))
	for _, f := range p.fns {
		f := f
		hf := extism.NewHostFunctionWithStack(f.Name, func(ctx context.Context, cp *extism.CurrentPlugin, stack []uint64) {
			stack[0] = p.serve(ctx, cp, f, stack[0])
		}, []extism.ValueType{extism.ValueTypePTR}, []extism.ValueType{extism.ValueTypePTR})
		hf.SetNamespace(abi.HostNamespace)
		out = append(out, hf)
	}
	return out
}

func (p *Plugin) serve(ctx context.Context, cp *extism.CurrentPlugin, f hostfns.Func, offset uint64) uint64 {
	header, body := p.handle(ctx, cp, f, offset)
	resp := abi.EncodeFrame(header, body)
	off, err := cp.WriteBytes(resp)
	if err != nil {
		// The guest's memory is exhausted: trap, so the call fails and the
		// instance is replaced.
		panic(fmt.Errorf("juju: writing the %s response: %w", f.Name, err))
	}
	return off
}

func (p *Plugin) handle(ctx context.Context, cp *extism.CurrentPlugin, f hostfns.Func, offset uint64) (header, body []byte) {
	caller, _ := hostfns.CallerFrom(ctx)
	if f.Capability != "" && !p.Granted(f.Capability) {
		p.rt.log.Warn("capability denied", "plugin", p.Name(), "tool", caller.Tool, "hostfn", f.Name, "capability", f.Capability)
		return hostfns.ErrorHeader(abi.Errorf(abi.CapabilityDenied,
			"the plugin %s was not granted %q; the owner can grant it with `juju plugins grant %s %s`", p.Name(), f.Capability, p.Name(), f.Capability)), nil
	}
	in, err := cp.ReadBytes(offset)
	if err != nil {
		return hostfns.ErrorHeader(abi.Errorf(abi.InvalidArgument, "the request to %s is not a valid memory block", f.Name)), nil
	}
	h, b, err := abi.DecodeFrame(in)
	if err != nil {
		return hostfns.ErrorHeader(abi.Errorf(abi.InvalidArgument, "the request to %s is not a valid frame", f.Name)), nil
	}
	defer func() {
		if r := recover(); r != nil {
			p.rt.log.Error("host function panicked", "plugin", p.Name(), "hostfn", f.Name, "panic", r)
			header, body = hostfns.ErrorHeader(abi.Errorf(abi.Internal, "juju hit an internal error in %s; tell the owner", f.Name)), nil
		}
	}()
	return f.Handle(callContext(ctx), h, b)
}
