package plugin

import (
	"context"
	"fmt"
	"slices"

	extism "github.com/extism/go-sdk"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// hostFunctions wraps every hostfns.Func for this plugin: the grant is
// checked first, the request frame read and decoded, the handler run with
// panics contained, and the response frame handed back. Each function is
// linked under HostNamespace (Extism kernel blocks, ABI 1) and, for an
// ABI 2 plugin, under ChannelNamespace too, beside ChannelOutput.
func (p *Plugin) hostFunctions() []extism.HostFunction {
	out := make([]extism.HostFunction, 0, 2*len(p.fns)+1)
	for _, f := range p.fns {
		hf := extism.NewHostFunctionWithStack(f.Name, func(ctx context.Context, cp *extism.CurrentPlugin, stack []uint64) {
			stack[0] = p.serveKernel(ctx, cp, f, stack[0])
		}, []extism.ValueType{extism.ValueTypePTR}, []extism.ValueType{extism.ValueTypePTR})
		hf.SetNamespace(abi.HostNamespace)
		out = append(out, hf)
		if !p.channel {
			continue
		}
		hf = extism.NewHostFunctionWithStack(f.Name, func(ctx context.Context, _ *extism.CurrentPlugin, stack []uint64) {
			stack[0] = p.serveChannel(ctx, f, stack[0])
		}, []extism.ValueType{extism.ValueTypeI64}, []extism.ValueType{extism.ValueTypeI64})
		hf.SetNamespace(abi.ChannelNamespace)
		out = append(out, hf)
	}
	if p.channel {
		hf := extism.NewHostFunctionWithStack(abi.ChannelOutput, func(ctx context.Context, _ *extism.CurrentPlugin, stack []uint64) {
			stack[0] = takeOutput(ctx, stack[0])
		}, []extism.ValueType{extism.ValueTypeI64}, []extism.ValueType{extism.ValueTypeI64})
		hf.SetNamespace(abi.ChannelNamespace)
		out = append(out, hf)
	}
	return out
}

// serveKernel answers a host function call of the Extism convention: the
// request frame is the kernel block at offset, the response a new block.
func (p *Plugin) serveKernel(ctx context.Context, cp *extism.CurrentPlugin, f hostfns.Func, offset uint64) uint64 {
	header, body := p.handle(ctx, f, func() ([]byte, *abi.Error) {
		in, err := cp.ReadBytes(offset)
		if err != nil {
			return nil, abi.Errorf(abi.InvalidArgument, "the request to %s is not a valid memory block", f.Name)
		}
		return in, nil
	})
	header, body = p.bound(f, header, body)
	off, err := cp.WriteBytes(abi.EncodeFrame(header, body))
	if err != nil {
		// The guest's memory is exhausted: trap, so the call fails and the
		// instance is replaced.
		panic(fmt.Errorf("juju: writing the %s response: %w", f.Name, err))
	}
	return off
}

// serveChannel answers a host function call through the channel: the
// request frame is the last n bytes the guest wrote, the response is staged
// for its reads, and its length returned.
func (p *Plugin) serveChannel(ctx context.Context, f hostfns.Func, n uint64) uint64 {
	c := callFrom(ctx)
	if c == nil || c.ch == nil {
		return 0
	}
	return p.serveChannelIn(ctx, c, f, n)
}

// serveDirect is the host function of index i of a module run directly:
// it serves the plugin whose instance made the call (plugins that share the
// module link the same functions in the same order), and answers nothing
// outside a call.
func serveDirect(ctx context.Context, i int, n uint64) uint64 {
	c := callFrom(ctx)
	if c == nil || c.ch == nil || c.p == nil || i >= len(c.p.fns) {
		return 0
	}
	return c.p.serveChannelIn(ctx, c, c.p.fns[i], n)
}

func (p *Plugin) serveChannelIn(ctx context.Context, c *call, f hostfns.Func, n uint64) uint64 {
	in, err := c.ch.take(n)
	header, body := p.handle(ctx, f, func() ([]byte, *abi.Error) {
		if err != nil {
			return nil, abi.Errorf(abi.InvalidArgument, "the request to %s is shorter than the %d bytes announced", f.Name, n)
		}
		return in, nil
	})
	header, body = p.bound(f, header, body)
	return c.ch.stage(header, body)
}

// takeOutput is ChannelOutput: the last n bytes the guest wrote are the
// call's output.
func takeOutput(ctx context.Context, n uint64) uint64 {
	c := callFrom(ctx)
	if c == nil || c.ch == nil {
		return 1
	}
	out, err := c.ch.takeOutput(n)
	if err != nil {
		c.output = nil
		return 1
	}
	c.output = out
	return 0
}

// bound replaces an answer whose header the guest could not decode
// (abi.ErrFrame) by a TOO_LARGE error that says what happened.
func (p *Plugin) bound(f hostfns.Func, header, body []byte) ([]byte, []byte) {
	if len(header) <= abi.MaxHeader {
		return header, body
	}
	p.rt.log.Warn("host function answer too large", "plugin", p.Name(), "hostfn", f.Name, "bytes", len(header))
	return hostfns.ErrorHeader(abi.Errorf(abi.TooLarge,
		"the answer of %s is larger than the %d MiB a host function may return; ask for less at once (a narrower path or pattern, a limit or an offset)",
		f.Name, abi.MaxHeader>>20)), nil
}

// handle checks the grant and the tier, reads the request frame with read,
// decodes it and runs the handler with panics contained.
func (p *Plugin) handle(ctx context.Context, f hostfns.Func, read func() ([]byte, *abi.Error)) (header, body []byte) {
	caller, _ := hostfns.CallerFrom(ctx)
	if f.Capability != "" && !p.Granted(f.Capability) {
		p.rt.log.Warn("capability denied", "plugin", p.Name(), "tool", caller.Tool, "hostfn", f.Name, "capability", f.Capability)
		if !slices.Contains(p.Manifest.Capabilities, f.Capability) {
			// juju plugins grant refuses a capability the manifest does not
			// ask for: pointing the owner at it would only fail again.
			return hostfns.ErrorHeader(abi.Errorf(abi.CapabilityDenied,
				"the plugin %s calls %s, which needs %q, and its manifest does not ask for %q, so no grant can give it; the plugin's author must add it to the manifest's capabilities (juju plugins build warns of this)", p.Name(), f.Name, f.Capability, f.Capability)), nil
		}
		return hostfns.ErrorHeader(abi.Errorf(abi.CapabilityDenied,
			"the plugin %s was not granted %q; the owner can grant it with `juju plugins grant %s %s`", p.Name(), f.Capability, p.Name(), f.Capability)), nil
	}
	if e := tierAllows(caller, f); e != nil {
		p.rt.log.Warn("capability denied by tier", "plugin", p.Name(), "tool", caller.Tool, "tier", caller.Tier, "hostfn", f.Name, "capability", f.Capability)
		return hostfns.ErrorHeader(e), nil
	}
	in, aerr := read()
	if aerr != nil {
		return hostfns.ErrorHeader(aerr), nil
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
// tool's declared tier, and a language server to a task discoverer: a
// server may run the project's code (rust-analyzer its build scripts),
// and discovery never does.
func tierAllows(c hostfns.Caller, f hostfns.Func) *abi.Error {
	if c.Discovery && f.Capability == abi.CapLSP {
		return abi.Errorf(abi.CapabilityDenied,
			"the discoverer %s may not ask a language server (%s): a server may run the project's code, and task discovery only reads build files", c.Tool, f.Capability)
	}
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
