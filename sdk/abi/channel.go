package abi

// The channel (ABI 2) moves bytes between the host and a plugin through the
// instance's WASI stdin and stdout, so that each crossing is one bulk copy
// between the plugin's linear memory and the host, instead of eight bytes
// per call into the Extism kernel:
//
//   - A host function of ChannelNamespace has the same name, capability
//     and frames as its HostNamespace twin, and the signature (i64) → i64.
//     The plugin writes the request frame to stdout (fd 1), calls the
//     function with the frame's length n, and gets back the length m of the
//     response frame, which it then reads from stdin (fd 0). The host takes
//     the last n bytes written since the previous call as the request (a
//     plugin's own prints before them are dropped); fewer than n is
//     INVALID_ARGUMENT. An unread rest of a response is dropped by the next
//     call. m is 0 only outside a call.
//   - An export (ExportCall, ExportDescribe, ExportDiscover) reads its input
//     from stdin: a little-endian u32 length, then that many bytes. It
//     writes its output to stdout and calls ChannelOutput with the output's
//     length (the last n bytes written become the output), then returns 0.
//     Extism's own input is empty and its output unused.
//   - stdout holds at most the instance's memory cap between two calls that
//     take it; a write past that fails (EIO) and drops what was pending.
//
// The channel belongs to one instance and is emptied before and after
// every call.

// ChannelNamespace is the wasm import module of the channel's functions
// (ABI 2): every host function of HostNamespace under the same name, and
// ChannelOutput.
const ChannelNamespace = "juju:channel"

// ChannelOutput is the channel function that hands an export's output to
// the host: (i64 n) → i64, n the output's length, written to stdout just
// before; it returns 0, or 1 when fewer than n bytes were written.
const ChannelOutput = "juju_output"
