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
	if len(header) > abi.MaxHeader {
		// The guest could not decode it (abi.ErrFrame): say what happened.
		p.rt.log.Warn("host function answer too large", "plugin", p.Name(), "hostfn", f.Name, "bytes", len(header))
		header, body = hostfns.ErrorHeader(abi.Errorf(abi.TooLarge,
			"the answer of %s is larger than the %d MiB a host function may return; ask for less at once (a narrower path or pattern, a limit or an offset)",
			f.Name, abi.MaxHeader>>20)), nil
	}
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
	if e := tierAllows(caller, f); e != nil {
		p.rt.log.Warn("capability denied by tier", "plugin", p.Name(), "tool", caller.Tool, "tier", caller.Tier, "hostfn", f.Name, "capability", f.Capability)
		return hostfns.ErrorHeader(e), nil
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

// minTier is the least tier a tool must declare to use a capability: the
// trust mode gate decides by a tool's declared tier, so a tool declared R
// must not write, and one not declared X must not run commands or reach the
// network. (git is checked by its host function, per subcommand.)
var minTier = map[abi.Capability]string{
	abi.CapFSWrite:   abi.TierEdit,
	abi.CapExec:      abi.TierExec,
	abi.CapExecShell: abi.TierExec,
	abi.CapNetFetch:  abi.TierExec,
}

// tierRank orders the tiers; an unknown tier ranks as R.
func tierRank(tier string) int {
	switch tier {
	case abi.TierEdit:
		return 1
	case abi.TierExec:
		return 2
	}
	return 0
}

// tierAllows refuses a host function whose capability is above the calling
// tool's declared tier.
func tierAllows(c hostfns.Caller, f hostfns.Func) *abi.Error {
	need, ok := minTier[f.Capability]
	if !ok || tierRank(c.Tier) >= tierRank(need) {
		return nil
	}
	what := "change files"
	if need == abi.TierExec {
		what = "run commands or reach the network"
	}
	tier := c.Tier
	if tier == "" {
		tier = "unknown"
	}
	return abi.Errorf(abi.CapabilityDenied,
		"the tool %s is declared tier %s, and a tool of that tier may not %s (%s needs tier %s); the plugin's author must declare the tool's real tier so the trust mode can hold it for approval",
		c.Tool, tier, what, f.Capability, need)
}
