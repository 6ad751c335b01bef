package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/sys"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/sdk/abi"
)

// Call runs one tool in a pooled instance and returns its result. It never
// returns a Go error: every failure, the plugin's or the host's, is an
// abi.Error inside the result.
func (p *Plugin) Call(ctx context.Context, caller hostfns.Caller, tool string, args json.RawMessage) *abi.CallResult {
	in, err := json.Marshal(abi.CallRequest{Tool: tool, Arguments: args})
	if err != nil {
		return failure(abi.Errorf(abi.InvalidArgument, "the arguments are not valid JSON"))
	}
	out, aerr := p.Invoke(ctx, caller, abi.ExportCall, in)
	if aerr != nil {
		return failure(aerr)
	}
	var res abi.CallResult
	if err := json.Unmarshal(out, &res); err != nil {
		p.rt.log.Warn("plugin returned a malformed result", "plugin", p.Name(), "tool", tool, "err", err)
		return failure(abi.Errorf(abi.PluginFailed, "the plugin %s returned a malformed result; report it to the plugin's author", p.Name()))
	}
	if res.Error != nil && !res.Error.Code.Valid() {
		res.Error = abi.Errorf(abi.PluginFailed, "the plugin %s failed: %s", p.Name(), res.Error.Message)
	}
	return &res
}

func failure(e *abi.Error) *abi.CallResult { return &abi.CallResult{Error: e} }

// Invoke calls an export of the plugin with raw input and returns its raw
// output. Failures are abi errors: TIMEOUT when the call ran out of time,
// PLUGIN_FAILED for a trap, a memory blow-up or a compile failure.
func (p *Plugin) Invoke(ctx context.Context, caller hostfns.Caller, export string, input []byte) ([]byte, *abi.Error) {
	if err := p.Warm(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, abi.Errorf(abi.Timeout, "the call was cancelled while the plugin %s was compiling", p.Name())
		}
		return nil, abi.Errorf(abi.PluginFailed, "the plugin %s could not be loaded; run `juju doctor` and tell the owner", p.Name())
	}
	select {
	case p.tokens <- struct{}{}:
	case <-ctx.Done():
		return nil, abi.Errorf(abi.Timeout, "the call was cancelled while waiting for a free instance of %s", p.Name())
	}
	defer func() { <-p.tokens }()

	return p.run(ctx, caller, export, input)
}

// run calls export in a pooled (or new) instance; the caller holds a token.
func (p *Plugin) run(ctx context.Context, caller hostfns.Caller, export string, input []byte) ([]byte, *abi.Error) {
	inst, err := p.acquire(ctx)
	if err != nil {
		p.rt.log.Error("plugin instance failed to start", "plugin", p.Name(), "err", err)
		return nil, abi.Errorf(abi.PluginFailed, "the plugin %s could not start an instance (%s); tell the owner if it persists", p.Name(), startCause(err))
	}

	// The deadline is enforced by closing the instance from a timer, not by
	// handing wazero a cancellable context: with one, wazero starts a
	// watcher goroutine for every nested call into the Extism kernel.
	// Host functions get the real, cancellable context (callContext).
	callCtx, cancel := context.WithTimeout(hostfns.WithCaller(ctx, caller), p.timeout)
	defer cancel()
	stop := context.AfterFunc(callCtx, func() { inst.Close(context.Background()) })
	wasmCtx := context.WithValue(context.WithoutCancel(callCtx), callCtxKey{}, callCtx)
	rc, out, err := inst.CallWithContext(wasmCtx, export, input)
	interrupted := !stop()
	if err != nil || rc != 0 || interrupted {
		// The instance may be half-way through anything: never reuse it.
		inst.Close(context.Background())
		if err == nil && rc == 0 && callCtx.Err() == nil {
			err = errors.New("interrupted")
		}
		return nil, p.callError(ctx, callCtx, export, rc, err)
	}
	p.release(inst)
	return out, nil
}

func (p *Plugin) callError(parent, callCtx context.Context, export string, rc uint32, err error) *abi.Error {
	switch {
	case parent.Err() != nil:
		return abi.Errorf(abi.Timeout, "the call was cancelled before the plugin %s finished", p.Name())
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		p.rt.log.Warn("plugin call timed out", "plugin", p.Name(), "export", export, "limit", p.timeout)
		return abi.Errorf(abi.PluginFailed, "the plugin %s did not finish within %s and was stopped; narrow the request or tell the owner", p.Name(), p.timeout)
	}
	p.rt.log.Warn("plugin call failed", "plugin", p.Name(), "export", export, "rc", rc, "err", err)
	return abi.Errorf(abi.PluginFailed, "the plugin %s failed (%s); the host replaced the instance, and other tools keep working", p.Name(), shortCause(rc, err))
}

// warmInput is the empty call prewarm makes: no tool, answered with an
// error, which starts the guest's runtime (and its init functions).
var warmInput = []byte(`{"tool":""}`)

// prewarm readies one instance for the first real call: it instantiates the
// module and makes one empty call. It does nothing when calls already hold
// every token: they warm instances themselves.
func (p *Plugin) prewarm() {
	select {
	case p.tokens <- struct{}{}:
	default:
		return
	}
	defer func() { <-p.tokens }()
	if _, err := p.run(context.Background(), hostfns.Caller{Plugin: p.Name()}, abi.ExportCall, warmInput); err != nil {
		p.rt.log.Debug("plugin warm-up call failed", "plugin", p.Name(), "err", err)
	}
}

// shortCause names the kind of failure without host paths or stack traces:
// a trap, a missing export, or the plugin's own error (Extism's error_set),
// whose message is the plugin's and is kept, cut short.
func shortCause(rc uint32, err error) string {
	switch {
	case err == nil:
		return fmt.Sprintf("it returned the failure code %d", rc)
	case strings.Contains(err.Error(), "out of memory"):
		return "it ran out of memory"
	case strings.HasPrefix(err.Error(), "unknown function: "):
		return "it exports no " + strings.TrimPrefix(err.Error(), "unknown function: ")
	case trapped(err):
		return "it trapped"
	}
	msg := []rune(strings.Join(strings.Fields(err.Error()), " "))
	if len(msg) > 200 {
		msg = append(msg[:200], '…')
	}
	return fmt.Sprintf("it reported an error: %q", string(msg))
}

func (p *Plugin) acquire(ctx context.Context) (*extism.Plugin, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		inst := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return inst, nil
	}
	p.mu.Unlock()
	inst, err := p.compiled.Instance(ctx, extism.PluginInstanceConfig{
		ModuleConfig: wazero.NewModuleConfig().WithSysWalltime().WithSysNanotime().WithRandSource(randReader{}),
	})
	if err != nil {
		return nil, fmt.Errorf("instance: %w", err)
	}
	if err := p.initialize(inst); err != nil {
		return nil, err
	}
	return inst, nil
}

// initAllowance bounds a fresh instance's start (the guest runtime's
// initialisation, run by Extism on the first call), apart from the call's
// own limit.
const initAllowance = 10 * time.Second

// initialize runs the guest runtime's start on a fresh instance with an
// empty call, under its own limit, so that a call's deadline never closes
// the module during the start, whose WASI calls wazero's close would race.
// The call is juju_call with no tool, or, in a module without juju_call
// (discoverers only), juju_describe. Its answer does not matter, an error
// included (a plugin may answer the unknown tool with error_set and a
// non-zero return); a trap does, since it leaves the instance unusable.
func (p *Plugin) initialize(inst *extism.Plugin) error {
	ctx, cancel := context.WithTimeout(context.Background(), max(initAllowance, p.timeout))
	defer cancel()
	export, input := abi.ExportCall, warmInput
	if !inst.FunctionExists(export) {
		export, input = abi.ExportDescribe, nil
	}
	stop := context.AfterFunc(ctx, func() { inst.Close(context.Background()) })
	rc, _, err := inst.CallWithContext(context.WithoutCancel(ctx), export, input)
	if !stop() {
		return fmt.Errorf("the instance did not start within %s", max(initAllowance, p.timeout))
	}
	if err != nil && (trapped(err) || strings.HasPrefix(err.Error(), "failed to initialize runtime")) {
		inst.Close(context.Background())
		return fmt.Errorf("start (the warm-up call of %s): %w", export, err)
	}
	if err != nil || rc != 0 {
		p.rt.log.Debug("plugin answered the warm-up call with an error", "plugin", p.Name(), "rc", rc, "err", err)
	}
	return nil
}

// trapped reports a call that ended in a trap or an exit, after which the
// instance is unusable.
func trapped(err error) bool {
	var exit *sys.ExitError
	return errors.As(err, &exit) || strings.Contains(err.Error(), "wasm error:") || strings.Contains(err.Error(), "module closed")
}

// startCause says why an instance did not start, without host paths: an
// import juju does not provide (wazero names it), or the start's failure.
func startCause(err error) string {
	msg := err.Error()
	for _, mark := range []string{"is not exported in module", "not instantiated"} {
		if i := strings.Index(msg, mark); i >= 0 {
			return "it imports a function juju does not provide: " + lastLine(msg)
		}
	}
	if strings.Contains(msg, "did not start within") {
		return "its start did not finish in time"
	}
	return shortCause(1, errors.Unwrap(err))
}

// lastLine is the last line of s, cut at 200 bytes.
func lastLine(s string) string {
	if i := strings.LastIndexByte(strings.TrimSpace(s), '\n'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func (p *Plugin) release(inst *extism.Plugin) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) < cap(p.tokens) {
		p.idle = append(p.idle, inst)
		return
	}
	go inst.Close(context.Background())
}

// Idle reports how many instances wait in the pool.
func (p *Plugin) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// callCtxKey carries a call's cancellable context through wazero, which
// sees only an uncancellable one.
type callCtxKey struct{}

// callContext returns the cancellable context of the call ctx belongs to.
func callContext(ctx context.Context) context.Context {
	if c, ok := ctx.Value(callCtxKey{}).(context.Context); ok {
		return c
	}
	return ctx
}
