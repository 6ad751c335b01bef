package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/sys"

	"github.com/jujutools/juju/hostfns"
	"github.com/jujutools/juju/internal/wasmstop"
	"github.com/jujutools/juju/sdk/abi"
)

// Call runs one tool in a pooled instance and returns its result. It never
// returns a Go error: every failure, the plugin's or the host's, is an
// abi.Error inside the result.
func (p *Plugin) Call(ctx context.Context, caller hostfns.Caller, tool string, args json.RawMessage) *abi.CallResult {
	in, err := p.callInput(tool, args)
	if err != nil {
		return failure(abi.Errorf(abi.InvalidArgument, "the arguments are not valid JSON"))
	}
	out, aerr := p.Invoke(ctx, caller, abi.ExportCall, in)
	if aerr != nil {
		return failure(aerr)
	}
	if !p.channel && len(out) > abi.MaxHeader {
		// ABI 1's output is as long as the plugin's memory allows, and
		// decoding it costs juju many times that: read no more of it
		// than an ABI 2 frame's header holds.
		p.rt.log.Warn("plugin returned a result past the size juju reads", "plugin", p.Name(), "tool", tool, "bytes", len(out))
		return failure(abi.Errorf(abi.PluginFailed, "the plugin %s returned a result of %.1f MiB from %s, more than the %d MiB juju reads of a call; report it to the plugin's author", p.Name(), float64(len(out))/(1<<20), tool, abi.MaxHeader>>20))
	}
	res, err := p.decodeResult(out)
	if err != nil {
		p.rt.log.Warn("plugin returned a malformed result", "plugin", p.Name(), "tool", tool, "err", err)
		return failure(abi.Errorf(abi.PluginFailed, "the plugin %s returned a malformed result; report it to the plugin's author", p.Name()))
	}
	if res.Error != nil && !res.Error.Code.Valid() {
		res.Error = abi.Errorf(abi.PluginFailed, "the plugin %s failed: %s", p.Name(), res.Error.Message)
	}
	if res.Error == nil && len(res.Structured) == 0 && p.declaresOutput(tool) {
		// MCP clients refuse a result without structured content from a
		// tool that declares an output schema (the TypeScript SDK throws),
		// so the model would get a protocol error instead of a tool's answer.
		p.rt.log.Warn("plugin returned no structured content for a tool with an output schema", "plugin", p.Name(), "tool", tool)
		return failure(abi.Errorf(abi.PluginFailed, "the plugin %s returned no structured content from %s, whose output schema promises it; report it to the plugin's author", p.Name(), tool))
	}
	if res.Error == nil {
		if e := p.checkOutput(tool, res.Structured); e != nil {
			p.rt.log.Warn("plugin returned structured content its output schema refuses", "plugin", p.Name(), "tool", tool)
			return failure(e)
		}
	}
	return res
}

// declaresOutput reports whether the manifest gives tool an output schema.
func (p *Plugin) declaresOutput(tool string) bool {
	for i := range p.Manifest.Tools {
		if p.Manifest.Tools[i].Name == tool {
			return len(p.Manifest.Tools[i].OutputSchema) > 0
		}
	}
	return false
}

// decodeResult decodes juju_call's output: a CallResult, or in ABI 2 a
// frame of one and the body its spans and splices refer to.
func (p *Plugin) decodeResult(out []byte) (*abi.CallResult, error) {
	header, body := out, []byte(nil)
	if p.channel {
		var err error
		if header, body, err = abi.DecodeFrame(out); err != nil {
			return nil, err
		}
	}
	var res abi.CallResult
	if !abi.DecodeCallResult(header, &res) {
		res = abi.CallResult{}
		if err := json.Unmarshal(header, &res); err != nil {
			return nil, err
		}
	}
	if err := res.Resolve(body); err != nil {
		return nil, err
	}
	if len(res.Structured) > 0 {
		switch res.Structured[skipJSONSpace(res.Structured)] {
		case '{':
		case 'n': // null, as a nil map is written: none
			res.Structured = nil
		default:
			return nil, errNotObject
		}
	}
	if !utf8.Valid(res.Structured) {
		res.Structured = replaceInvalidUTF8(res.Structured)
	}
	return &res, nil
}

// errNotObject reports a structured content that is not a JSON object:
// MCP's structuredContent is an object, and the clients' decoders (the
// TypeScript SDK's schema, the Python SDK's dict) refuse the whole message
// for an array, a string or a number, so the model got a protocol error
// instead of the tool's answer.
var errNotObject = errors.New("the structured content is not a JSON object")

// skipJSONSpace returns the index of b's first byte that is not JSON's
// white space (len(b)-1 when all are).
func skipJSONSpace(b []byte) int {
	for i, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return len(b) - 1
}

// replaceInvalidUTF8 returns the JSON value b with each byte that is not
// part of valid UTF-8 written \ufffd, as encoding/json writes it in a Go
// string. Structured content is copied into juju's answer as it is, and
// checking it for JSON's structure (abi.ValidJSON, as encoding/json's
// Valid) lets such bytes pass inside a string: the answer would be no JSON
// text (RFC 8259 requires UTF-8), and a client's strict decoder refuses
// the whole message (TestStructuredContentIsUTF8). Outside a string, valid
// JSON holds ASCII alone, so every such byte is inside one.
func replaceInvalidUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+64)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, `\ufffd`...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

func failure(e *abi.Error) *abi.CallResult { return &abi.CallResult{Error: e} }

// callInput is juju_call's input: in ABI 2 a frame of the tool's name and
// the arguments (abi.EncodeCall), in ABI 1 a CallRequest.
func (p *Plugin) callInput(tool string, args json.RawMessage) ([]byte, error) {
	if p.channel {
		return abi.EncodeCall(tool, args), nil
	}
	return json.Marshal(abi.CallRequest{Tool: tool, Arguments: args})
}

// Invoke calls an export of the plugin with raw input and returns its raw
// output. Failures are abi errors: TIMEOUT when the call ran out of time,
// PLUGIN_FAILED for a trap, a memory blow-up or a compile failure.
func (p *Plugin) Invoke(ctx context.Context, caller hostfns.Caller, export string, input []byte) ([]byte, *abi.Error) {
	// The slot comes first: while a call holds one, the plugin is not
	// unloaded under it (unload.go).
	select {
	case p.tokens <- struct{}{}:
	case <-ctx.Done():
		return nil, abi.Errorf(abi.Timeout, "the call was cancelled while waiting for a free instance of %s", p.Name())
	}
	defer p.giveBack()
	l, err := p.loaded(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, abi.Errorf(abi.Timeout, "the call was cancelled while the plugin %s was compiling", p.Name())
		}
		return nil, abi.Errorf(abi.PluginFailed, "the plugin %s could not be loaded; run `juju doctor` and tell the owner", p.Name())
	}
	return p.run(ctx, l, caller, export, input, true)
}

// run calls export in an idle instance of l, or a new one; the caller
// holds a slot. With waitWarm, a call that finds no idle instance while
// the warm-up is still making the first one waits for it (the warm-up
// itself does not). The call's deadline covers all of it: the wait, a new
// instance's start and the call itself.
func (p *Plugin) run(ctx context.Context, l *load, caller hostfns.Caller, export string, input []byte, waitWarm bool) ([]byte, *abi.Error) {
	// The deadline is enforced by stopping the instance from a timer, not
	// by handing wazero a cancellable context: with one, wazero starts a
	// watcher goroutine for every nested call into the Extism kernel.
	// Host functions get the real, cancellable context (callContext).
	caller.Space = p.space
	base, made := hostfns.WithMade(hostfns.WithCaller(ctx, caller))
	callCtx, cancel := context.WithTimeout(base, p.timeout)
	defer cancel()
	inst, err := p.acquire(callCtx, l, waitWarm)
	if err != nil {
		return nil, p.startError(ctx, callCtx, err)
	}
	stop := context.AfterFunc(callCtx, inst.stop)
	rc, out, err := p.exec(callCtx, inst, export, input)
	interrupted := !stop()
	if err != nil || rc != 0 || interrupted {
		// The instance may be half-way through anything: never reuse it.
		inst.dispose()
		if err == nil && rc == 0 && callCtx.Err() == nil {
			err = errors.New("interrupted")
		}
		return nil, p.callError(ctx, callCtx, export, rc, err, made.IDs())
	}
	if inst.exited.Load() {
		// An exit with status 0 ends the call as Extism's convention has it,
		// with whatever output the plugin gave, and closes the module:
		// pooled, the instance would fail the next call.
		inst.dispose()
	} else {
		p.release(inst)
	}
	return out, nil
}

// StartTimedOut is the message the runtime logs when an instance did not
// start within the call's limit, with the plugin, the limit and the error.
const StartTimedOut = "plugin instance did not start within the call's limit"

// startError is the error of a call that got no instance: cancelled or
// out of time while it waited for one or started one, or a start that
// failed.
func (p *Plugin) startError(parent, callCtx context.Context, err error) *abi.Error {
	switch {
	case parent.Err() != nil:
		return abi.Errorf(abi.Timeout, "the call was cancelled while an instance of the plugin %s was starting", p.Name())
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		p.rt.log.Warn(StartTimedOut, "plugin", p.Name(), "limit", p.timeout, "err", err)
		return abi.Errorf(abi.PluginFailed, "the plugin %s could not start an instance within its limit of %s and was stopped; tell the owner if it persists", p.Name(), p.timeout)
	}
	p.rt.log.Error("plugin instance failed to start", "plugin", p.Name(), "err", err)
	return abi.Errorf(abi.PluginFailed, "the plugin %s could not start an instance (%s); tell the owner if it persists", p.Name(), startCause(err))
}

// exec makes one call of export in inst under callCtx, whose deadline the
// caller enforces (inst.stop): wazero sees callCtx's values, not its end.
// An ABI 2 plugin gets its input through the instance's channel and hands
// its output back through juju_output; an ABI 1 plugin uses Extism's input
// and output.
func (p *Plugin) exec(callCtx context.Context, inst *instance, export string, input []byte) (uint32, []byte, error) {
	return p.execIn(context.WithoutCancel(callCtx), callCtx, inst, export, input)
}

// execIn is exec with wasmCtx, callCtx itself or without its end, as the
// context wazero runs the guest under.
func (p *Plugin) execIn(wasmCtx, callCtx context.Context, inst *instance, export string, input []byte) (uint32, []byte, error) {
	c := &call{ctx: callCtx, ch: inst.ch, p: p}
	wasmCtx = context.WithValue(wasmCtx, callKey{}, c)
	if inst.ch == nil {
		return inst.ext.CallWithContext(wasmCtx, export, input)
	}
	inst.ch.reset()
	defer inst.ch.reset()
	inst.ch.stageInput(input)
	if inst.mod != nil {
		rc, err := inst.callDirect(wasmCtx, export)
		return rc, c.output, err
	}
	rc, _, err := inst.ext.CallWithContext(wasmCtx, export, nil)
	return rc, c.output, err
}

// made names what the call's host functions made before it ended (journal
// changes): stopped or cancelled, the call says they are made.
func (p *Plugin) callError(parent, callCtx context.Context, export string, rc uint32, err error, made []string) *abi.Error {
	stopped := parent.Err() != nil || errors.Is(callCtx.Err(), context.DeadlineExceeded)
	if stopped && len(made) > 0 {
		p.rt.log.Warn("plugin call stopped after a change was made", "plugin", p.Name(), "export", export, "made", made)
		return abi.Errorf(abi.Timeout, "the plugin %s ran out of time after it made change %s, which is complete and recorded (see change_history with its id); only the tool's answer was lost, so do not make the change again", p.Name(), strings.Join(made, ", "))
	}
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
func (p *Plugin) warmInput() []byte {
	in, _ := p.callInput("", nil)
	return in
}

// prewarm readies one instance for the first real call: it instantiates the
// module and makes one empty call. It does nothing when calls already hold
// every token: they warm instances themselves.
func (p *Plugin) prewarm(l *load) {
	select {
	case p.tokens <- struct{}{}:
	default:
		return
	}
	defer p.giveBack()
	if _, err := p.run(context.Background(), l, hostfns.Caller{Plugin: p.Name()}, abi.ExportCall, p.warmInput(), false); err != nil {
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
	text, _, _ := strings.Cut(err.Error(), "wasm stack trace:") // wazero's, of a host function that panicked
	return fmt.Sprintf("it reported an error: %q", squeeze(text, maxCause))
}

// maxCause is how many characters of a plugin's own error message a
// PLUGIN_FAILED message quotes.
const maxCause = 200

// squeeze is text with its runs of white space made one space and none at
// either end, cut after n characters (a … then says so). It looks no
// further into text than it keeps, and allocates only what it keeps: the
// message is the plugin's, as long as its memory allows, and splitting it
// whole into words (strings.Fields) made 832 MB of garbage and 16 seconds
// of the host's time of an error_set of 64 MiB of "a a a …".
func squeeze(text string, n int) string {
	var b strings.Builder
	kept, space := 0, false
	for _, r := range text {
		if unicode.IsSpace(r) {
			space = kept > 0
			continue
		}
		if space {
			kept++
			space = false
			if kept > n {
				break
			}
			b.WriteByte(' ')
		}
		if kept++; kept > n {
			break
		}
		b.WriteRune(r) // a byte that is not UTF-8 is U+FFFD
	}
	if kept > n {
		b.WriteString("…")
	}
	return b.String()
}

// instance is one instantiated module, run through Extism (with the
// Extism kernel's) or directly on wazero, and, for an ABI 2 plugin, its
// channel (its WASI stdin and stdout).
type instance struct {
	ext    *extism.Plugin          // run through Extism
	mod    api.Module              // or run directly (runsDirect)
	halt   api.MutableGlobal       // mod's stop flag, when instrumented
	fns    map[string]api.Function // mod's exports called so far
	stack  [1]uint64               // callDirect's stack: an export takes nothing and returns at most one value
	exited atomic.Bool             // the module was closed: by its own exit (WASI proc_exit), or by dispose
	ch     *channel
	mems   []*mmapMemory // the modules' linear memories, outside the Go heap

	idleSince time.Time // when it last went back to the pool
}

// stop ends a call running in the instance: an instrumented module's stop
// flag is set, which the guest reads within 512 loop turns and calls
// (wasmstop); any other module is closed, which wazero checks at every
// loop turn. The instance is then disposed of, never reused.
func (inst *instance) stop() {
	if inst.halt != nil {
		inst.halt.Set(1)
		return
	}
	inst.close()
}

// close closes the instance's modules.
func (inst *instance) close() {
	switch {
	case inst.mod != nil:
		inst.mod.Close(context.Background())
	case inst.ext != nil:
		inst.ext.Close(context.Background())
	}
}

// has reports whether the instance's module exports the function name.
func (inst *instance) has(name string) bool {
	if inst.mod != nil {
		return inst.exported(name) != nil
	}
	return inst.ext.FunctionExists(name)
}

// allocate is the instance's wazero memory allocator: each linear memory
// is a mapping of its own, kept to be unmapped by dispose.
func (inst *instance) allocate(_, limit uint64) experimental.LinearMemory {
	m := linearMemory(limit)
	if m == nil {
		return nil
	}
	inst.mems = append(inst.mems, m)
	return m
}

// memoryInUse is how many bytes the instance's linear memories hold now
// (their current sizes; none where they stay in the Go heap).
func (inst *instance) memoryInUse() int {
	n := 0
	for _, m := range inst.mems {
		n += m.size()
	}
	return n
}

// dispose closes the instance and unmaps its memories. No call may be
// running in it (a call's deadline only closes it: see mmapMemory).
func (inst *instance) dispose() {
	inst.close()
	for _, m := range inst.mems {
		m.unmap()
	}
	inst.mems = nil
}

// acquire takes an idle instance or makes one of l. With waitWarm, a call
// that finds none while the warm-up is still making the first one waits
// for it: on a machine of few cores a second instance made beside it would
// only make both late.
func (p *Plugin) acquire(ctx context.Context, l *load, waitWarm bool) (*instance, error) {
	for {
		p.mu.Lock()
		if n := len(p.idle); n > 0 {
			inst := p.idle[n-1]
			p.idle = p.idle[:n-1]
			p.mu.Unlock()
			return inst, nil
		}
		p.mu.Unlock()
		if !waitWarm {
			break
		}
		waitWarm = false
		select {
		case <-l.warmed:
			continue // the warm instance, unless another call took it
		default:
		}
		select {
		case <-l.warmed:
			continue
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// The call's deadline covers the instantiation too. It runs no guest
	// code: a module with a start section is refused (ModuleInfo), and
	// _start is never called; wazero would close a module it does not
	// stop through its stop flag once ctx ends all the same.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	inst := &instance{}
	cfg := wazero.NewModuleConfig().WithSysWalltime().WithSysNanotime().WithRandSource(randReader{})
	if p.channel {
		inst.ch = newChannel(p.memMiB << 20)
		inst.ch.inUse = inst.memoryInUse
		cfg = cfg.WithStdin(inst.ch).WithStdout(inst.ch)
	}
	var err error
	allocCtx := experimental.WithMemoryAllocator(ctx, experimental.MemoryAllocatorFunc(inst.allocate))
	// A module that exits is closed by wazero, in Extism's modules as in
	// direct ones; Extism reports an exit with 0 as a success.
	allocCtx = experimental.WithCloseNotifier(allocCtx, experimental.CloseNotifyFunc(func(context.Context, uint32) { inst.exited.Store(true) }))
	if l.direct != nil {
		inst.mod, err = l.direct.instantiate(allocCtx, cfg)
		if err == nil && l.direct.stopGlobal {
			var ok bool
			if inst.halt, ok = inst.mod.ExportedGlobal(wasmstop.Export).(api.MutableGlobal); !ok {
				err = fmt.Errorf("the instrumented module exports no mutable %s", wasmstop.Export)
			}
		}
	} else {
		inst.ext, err = l.compiled.Instance(allocCtx, extism.PluginInstanceConfig{ModuleConfig: cfg})
	}
	if err != nil {
		inst.dispose()
		return nil, fmt.Errorf("instance: %w", err)
	}
	if err := p.initialize(ctx, inst); err != nil {
		return nil, err
	}
	return inst, nil
}

// initialize runs the guest runtime's start on a fresh instance with an
// empty call, within the deadline of callCtx, the call the instance is
// made for: no guest code runs without one, and a cancelled call stops its
// start. The call is juju_call with no tool, or, in a module without
// juju_call (discoverers only), juju_describe. Its answer does not matter,
// an error included (a plugin may answer the unknown tool with error_set
// and a non-zero return); a trap does, since it leaves the instance
// unusable.
//
// The start serves no tool: its host calls are the plugin's own
// (hostfns.Caller names the plugin, for juju_log and its budget among
// others) and carry no tier, so they are held to tier R's.
//
// An instrumented module is stopped through its stop flag, as a call is.
// Any other one is stopped by wazero itself (CloseOnContextDone), handed
// the cancellable context: closing the module from a timer, as a call's
// deadline does, raced inside wazero with the WASI calls of the guest
// runtime's start reading the module's file table, where wazero's own
// close leaves the files to the end of the call.
func (p *Plugin) initialize(callCtx context.Context, inst *instance) error {
	ctx := hostfns.WithCaller(callCtx, hostfns.Caller{Plugin: p.Name(), Space: p.space})
	export, input := abi.ExportCall, p.warmInput()
	if !inst.has(export) {
		export, input = abi.ExportDescribe, nil
	}
	stop := func() bool { return true }
	if inst.halt != nil {
		stop = context.AfterFunc(ctx, inst.stop)
	}
	var rc uint32
	var err error
	if inst.mod != nil { // Extism starts the guest in the first call
		err = inst.startGuest(ctx)
	}
	if err == nil {
		rc, _, err = p.execIn(ctx, ctx, inst, export, input)
	}
	stop()
	if ctx.Err() != nil {
		inst.dispose()
		return fmt.Errorf("the instance did not start within the call's limit: %w", ctx.Err())
	}
	if err != nil && (trapped(err) || strings.HasPrefix(err.Error(), "failed to initialize runtime")) {
		inst.dispose()
		return fmt.Errorf("start (the warm-up call of %s): %w", export, err)
	}
	if inst.exited.Load() { // an exit with 0, which neither start reports
		inst.dispose()
		return fmt.Errorf("start (the warm-up call of %s): the module exited", export)
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

func (p *Plugin) release(inst *instance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) < cap(p.tokens) {
		inst.idleSince = time.Now()
		p.idle = append(p.idle, inst)
		p.armTrim()
		return
	}
	go inst.dispose()
}

// Idle reports how many instances wait in the pool.
func (p *Plugin) Idle() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// call is what the host functions serving one call see of it, through the
// context wazero hands them: the call's cancellable context (wazero sees
// only an uncancellable one), the instance's channel, the plugin the
// instance belongs to and, once juju_output ran, the call's output.
type call struct {
	ctx    context.Context
	ch     *channel // nil for an ABI 1 plugin
	p      *Plugin  // whose instance runs the call: its grants apply
	output []byte
}

// callKey carries a *call through wazero.
type callKey struct{}

// callFrom returns the call ctx belongs to, or nil.
func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// callContext returns the cancellable context of the call ctx belongs to.
func callContext(ctx context.Context) context.Context {
	if c := callFrom(ctx); c != nil {
		return c.ctx
	}
	return ctx
}
