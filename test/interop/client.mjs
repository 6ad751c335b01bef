// The official MCP TypeScript SDK's client driving juju, as the clients
// built on it (Claude Desktop, Cursor, ChatGPT-like apps) do. Run by
// test/interop_test.go:
//
//   node client.mjs stdio JUJU ROOT ROOT2
//                                     juju stdio through StdioClientTransport
//                                     (ROOT2: a second workspace, in inspect mode)
//   node client.mjs http URL JUJU clients URL2 TOKEN2
//                                     juju serve through StreamableHTTPClientTransport
//                                     and the SDK's OAuth client (URL2: a second
//                                     juju serve, in inspect mode, TOKEN2 its local token)
//
// It prints one line per check, "PASS name" or "FAIL name: why", and
// "DONE" at the end. For the OAuth consent it prints "PAIR n" and reads
// the n-th pairing code juju printed on its terminal from stdin, as the
// owner would type it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const [mode, ...rest] = process.argv.slice(2);
let failed = 0;
const pass = (name) => console.log(`PASS ${name}`);
const fail = (name, why) => {
  failed++;
  console.log(`FAIL ${name}: ${String(why).replace(/\s+/g, ' ').slice(0, 2000)}`);
};
async function check(name, fn) {
  try {
    await fn();
    pass(name);
  } catch (e) {
    fail(name, e && e.stack ? e.stack : e);
  }
}
function assert(ok, why) {
  if (!ok) throw new Error(why);
}
const text = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Every tool's schemas compile under the SDK's own validator (Ajv), as
// every SDK client compiles them.
function compileSchemas(tools) {
  const v = new AjvJsonSchemaValidator();
  for (const t of tools) {
    assert(t.inputSchema && t.inputSchema.type === 'object', `${t.name}: inputSchema is not an object schema`);
    v.getValidator(t.inputSchema);
    if (t.outputSchema) {
      assert(t.outputSchema.type === 'object', `${t.name}: outputSchema is not an object schema`);
      v.getValidator(t.outputSchema);
    }
  }
}

// listAll pages through tools/list as a client does, by nextCursor.
async function listAll(client) {
  const tools = [];
  let cursor;
  do {
    const r = await client.listTools(cursor ? { cursor } : {});
    tools.push(...r.tools);
    cursor = r.nextCursor;
  } while (cursor);
  return tools;
}

// The tool calls an agent makes, each expected to succeed; callTool
// validates structuredContent against the tool's outputSchema.
const calls = [
  ['environment_info', {}],
  ['project_overview', {}],
  ['list_directory', {}],
  ['read_file', { path: 'a.txt' }],
  ['read_file', { path: 'a.txt', numbered: true }],
  ['read_files', { paths: ['a.txt', 'main.go'] }],
  ['file_info', { path: 'a.txt' }],
  ['glob_files', { pattern: '**/*.go' }],
  ['search_code', { pattern: 'alpha' }],
  ['search_code', { pattern: 'alpha', outputMode: 'files' }],
  ['write_file', { path: 'b.txt', content: 'beta\n' }],
  ['edit_file', { path: 'b.txt', oldString: 'beta', newString: 'gamma' }],
  ['make_directory', { path: 'sub/dir' }],
  ['move_path', { path: 'b.txt', destination: 'sub/b.txt' }],
  ['replace_in_files', { oldString: 'gamma', newString: 'delta', fileGlob: '**/*.txt', dryRun: true }],
  ['apply_patch', { patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-alpha\n+alpha2\n' }],
  ['change_history', {}],
  ['todo_write', { todos: [{ content: 'try the SDK', status: 'in_progress' }] }],
  ['todo_read', {}],
  ['document_symbols', { path: 'main.go' }],
  ['find_symbol', { symbol: 'main' }],
  ['read_instructions', {}],
  ['run_command', { command: 'echo hi; git init -q . && git add -A && git -c user.name=t -c user.email=t@e commit -qm init' }],
  ['exec_command', { program: 'echo', args: ['one', 'two'] }],
  ['run_commands', { commands: ['echo a', 'echo b'] }],
  ['git_status', {}],
  ['git_log', {}],
  ['git_diff', {}],
  ['list_jobs', {}],
  ['approval_status', {}],
  ['delete_path', { path: 'sub/b.txt' }],
];

// Calls that fail: each must come back as a result with isError (an
// error the AI reads), never as a protocol error or a schema failure.
const failing = [
  ['read_file', { path: 'missing.txt' }],
  ['read_file', { path: '../../etc/passwd' }],
  ['edit_file', { path: 'a.txt', oldString: 'not there', newString: 'x' }],
  ['read_file', { path: 42 }],
  ['read_file', {}],
  ['job_status', { jobId: 'nope' }],
  ['apply_changes', { planId: 'nope' }],
  ['rollback_changes', { changeId: 'nope' }],
  ['write_file', { path: 'a.txt', content: 'x', expectedSha256: '00' }],
  ['run_command', { command: 'exit 3' }],
  ['fetch_url', { url: 'ftp://example.invalid/' }],
  ['go_to_definition', { path: 'main.go', line: 999, column: 1 }],
];

// Edge cases (empty folders, no matches, empty files, jobs, plans): the
// SDK must accept each answer, an isError result or a success whose
// structuredContent matches the outputSchema (Go's nil slices are null).
const edges = [
  ['change_history', {}],
  ['list_directory', { path: 'empty' }],
  ['project_overview', { path: 'empty' }],
  ['glob_files', { pattern: '**/*.nothing' }],
  ['search_code', { pattern: 'zzzznotfound' }],
  ['search_code', { pattern: 'zzzznotfound', outputMode: 'files' }],
  ['search_code', { pattern: 'zzzznotfound', outputMode: 'count' }],
  ['search_code', { pattern: '(' }],
  ['read_file', { path: 'empty.txt' }],
  ['read_file', { path: 'a.txt', offset: 100 }],
  ['read_files', { paths: ['a.txt', 'missing.txt'] }],
  ['read_files', { paths: [] }],
  ['document_symbols', { path: 'empty.txt' }],
  ['document_symbols', { path: 'empty.go' }],
  ['find_symbol', { symbol: 'zzzznotfound' }],
  ['find_symbol', { query: 'zz' }],
  ['find_references', { symbol: 'main' }],
  ['get_diagnostics', { path: 'main.go' }],
  ['get_diagnostics', {}],
  ['go_to_definition', { path: 'main.go', line: 3, column: 6 }],
  ['todo_write', { todos: [] }],
  ['todo_read', {}],
  ['git_status', {}],
  ['git_log', {}],
  ['git_diff', {}],
  ['git_diff', { staged: true }],
  ['git_commit', { message: 'nothing' }],
  ['list_jobs', {}],
  ['approval_status', { id: 'nope' }],
  ['read_instructions', { path: 'empty' }],
  ['replace_in_files', { oldString: 'zzzz', newString: 'y', fileGlob: '**/*' }],
  ['replace_in_files', { oldString: 'alpha', newString: 'alpha', fileGlob: '**/*.txt' }],
  ['apply_patch', { patch: '' }],
  ['apply_patch', { patch: 'not a patch' }],
  ['preview_changes', { operations: [] }],
  ['preview_changes', { operations: [{ op: 'write', path: 'p.txt', content: 'p' }] }],
  ['discard_changes', { planId: 'nope' }],
  ['run_commands', { commands: ['exit 1', 'echo ok'] }],
  ['run_command', { command: 'true' }],
  ['run_command', { command: 'printf ""' }],
  ['run_command', { command: 'head -c 300000 /dev/zero | tr "\\0" x' }],
  ['exec_command', { program: 'no-such-program-zz' }],
  ['exec_command', { program: 'true' }],
  ['run_command', { command: 'sleep 0.2', background: true }],
  ['list_jobs', {}],
  ['read_image', { path: 'a.txt' }],
  ['file_info', { path: 'empty' }],
  ['file_info', { path: 'nope' }],
  ['delete_path', { path: 'nope' }],
  ['rollback_changes', { changeId: 'nope' }],
  ['edit_file', { path: 'new.txt', oldString: '', newString: 'created' }],
  ['environment_info', {}],
  ['make_directory', { path: 'empty' }],
  ['move_path', { path: 'nope', destination: 'nope2' }],
  ['write_file', { path: 'empty', content: 'x' }],
  ['fetch_url', { url: 'https://127.0.0.1:1/' }],
];

async function exercise(client, label, opts = {}) {
  let tools = [];
  await check(`${label}: tools/list paginated`, async () => {
    tools = await listAll(client);
    assert(tools.length > 10, `only ${tools.length} tools`);
  });
  await check(`${label}: schemas compile with the SDK's validator`, () => compileSchemas(tools));
  const names = new Set(tools.map((t) => t.name));
  for (const [name, args] of calls) {
    if (!names.has(name)) continue;
    if (opts.skip && opts.skip.includes(name)) continue;
    await check(`${label}: ${name} ${JSON.stringify(args)}`, async () => {
      const r = await client.callTool({ name, arguments: args });
      assert(!r.isError, `isError: ${text(r)}`);
    });
  }
  for (const [name, args] of failing) {
    if (!names.has(name)) continue;
    await check(`${label}: ${name} ${JSON.stringify(args)} is an isError result`, async () => {
      const r = await client.callTool({ name, arguments: args });
      // exit 3 is a result, not an error, for run_command: either is fine,
      // as long as the SDK accepted it.
      if (name === 'run_command') return;
      assert(r.isError === true, `not an error: ${text(r)}`);
      assert(text(r).length > 0, 'an error without a sentence');
    });
  }
  for (const [name, args] of edges) {
    if (!names.has(name)) continue;
    await check(`${label}: edge ${name} ${JSON.stringify(args)} is accepted by the SDK`, async () => {
      await client.callTool({ name, arguments: args });
    });
  }
  await check(`${label}: read_image returns image content the SDK accepts`, async () => {
    const r = await client.callTool({ name: 'read_image', arguments: { path: 'dot.png' } });
    const img = (r.content || []).find((c) => c.type === 'image');
    assert(!r.isError && img && img.mimeType === 'image/png' && Buffer.from(img.data, 'base64').subarray(1, 4).toString() === 'PNG', `read_image: ${JSON.stringify(r).slice(0, 300)}`);
  });
  await check(`${label}: a job's life`, async () => {
    const r = await client.callTool({ name: 'run_command', arguments: { command: 'echo out; echo err >&2; sleep 0.3', background: true } });
    assert(!r.isError, text(r));
    const id = r.structuredContent && r.structuredContent.jobId;
    assert(id, `no jobId in ${JSON.stringify(r.structuredContent)}`);
    for (const [n, a] of [['job_status', { jobId: id }], ['job_output', { jobId: id }], ['job_output', { jobId: id, stream: 'stderr' }], ['job_wait', { jobId: id, waitMs: 5000 }], ['job_status', { jobId: id }], ['cancel_job', { jobId: id }], ['list_jobs', {}]]) {
      await client.callTool({ name: n, arguments: a });
    }
    const r2 = await client.callTool({ name: 'run_command', arguments: { command: 'sleep 30', background: true } });
    const id2 = r2.structuredContent && r2.structuredContent.jobId;
    await client.callTool({ name: 'cancel_job', arguments: { jobId: id2 } });
    await client.callTool({ name: 'job_wait', arguments: { jobId: id2, waitMs: 5000 } });
    await client.callTool({ name: 'job_output', arguments: { jobId: id2, offset: 99999 } });
  });
  await check(`${label}: a plan's life and a rollback`, async () => {
    const r = await client.callTool({ name: 'preview_changes', arguments: { operations: [{ op: 'write', path: 'plan.txt', content: 'plan\n' }, { op: 'edit', path: 'a.txt', oldString: 'alpha', newString: 'omega' }] } });
    const plan = r.structuredContent && r.structuredContent.planId;
    assert(!r.isError && plan, `preview: ${text(r)}`);
    const a = await client.callTool({ name: 'apply_changes', arguments: { planId: plan } });
    assert(!a.isError, `apply: ${text(a)}`);
    const h = await client.callTool({ name: 'change_history', arguments: { limit: 1 } });
    const ch = h.structuredContent && (h.structuredContent.changes || [])[0];
    assert(ch && ch.id, `no change in ${JSON.stringify(h.structuredContent)}`);
    await client.callTool({ name: 'change_history', arguments: { changeId: ch.id } });
    const rb = await client.callTool({ name: 'rollback_changes', arguments: { changeId: ch.id } });
    assert(!rb.isError, `rollback: ${text(rb)}`);
    await client.callTool({ name: 'rollback_changes', arguments: { changeId: ch.id } });
  });
  await check(`${label}: an unknown tool is refused`, async () => {
    try {
      const r = await client.callTool({ name: 'no_such_tool', arguments: {} });
      assert(r.isError === true, `answered ${JSON.stringify(r)}`);
    } catch (e) {
      assert(e.code === -32602, `error ${e.code}: ${e.message}`);
    }
  });
}

// cancel aborts a long command through the SDK's AbortSignal, then checks
// the command's process is gone and the session still answers.
async function cancel(client, label, marker) {
  await check(`${label}: cancellation through AbortSignal stops the command`, async () => {
    const ac = new AbortController();
    const started = Date.now();
    const p = client.callTool({ name: 'run_command', arguments: { command: `sleep ${marker}`, waitMs: 30000, timeoutMs: 60000 } }, undefined, { signal: ac.signal });
    let seen = false;
    for (let i = 0; i < 100 && !seen; i++) {
      await sleep(100);
      try {
        execFileSync('pgrep', ['-f', `^sleep ${marker}$`]);
        seen = true;
      } catch {}
    }
    assert(seen, 'the command never started');
    ac.abort('the user pressed stop');
    let err;
    try {
      await p;
    } catch (e) {
      err = e;
    }
    assert(err, 'the call resolved after its abort');
    for (let i = 0; i < 50; i++) {
      try {
        execFileSync('pgrep', ['-f', `^sleep ${marker}$`]);
      } catch {
        const r = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
        assert(!r.isError, `the session after a cancellation: ${text(r)}`);
        assert(Date.now() - started < 20000, 'the cancellation took too long');
        return;
      }
      await sleep(100);
    }
    throw new Error('the command still runs 5 s after its cancellation');
  });
}

async function progress(client, label) {
  await check(`${label}: a call with onprogress completes`, async () => {
    const seen = [];
    const r = await client.callTool({ name: 'run_command', arguments: { command: 'for i in 1 2 3; do echo $i; sleep 0.2; done' } }, undefined, {
      onprogress: (p) => seen.push(p),
      resetTimeoutOnProgress: true,
    });
    assert(!r.isError, text(r));
    for (const p of seen) assert(typeof p.progress === 'number', `a progress notification without progress: ${JSON.stringify(p)}`);
    for (let i = 1; i < seen.length; i++) assert(seen[i].progress > seen[i - 1].progress, `progress does not increase: ${JSON.stringify(seen)}`);
  });
}

// approvals runs juju stdio in inspect mode for a client that declares
// elicitation: juju asks the owner through the SDK's elicitation handler
// (the SDK checks the answer against juju's requestedSchema); an accepted
// write runs, a declined command does not.
async function approvals(label, transport) {
  const client = new Client({ name: 'sdk-interop-approvals', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  let answer = 'accept';
  const asked = [];
  client.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push(req.params.message);
    const content = {};
    for (const [k, v] of Object.entries(req.params.requestedSchema?.properties || {})) {
      if (v.type === 'boolean') content[k] = true;
      else if (v.enum) content[k] = v.enum[0];
    }
    return answer === 'accept' ? { action: 'accept', content } : { action: answer };
  });
  await client.connect(transport);
  await client.listTools();
  await check(`${label}: an approval accepted through elicitation runs the write`, async () => {
    const r = await client.callTool({ name: 'write_file', arguments: { path: 'approved.txt', content: 'yes\n' } });
    assert(asked.length === 1 && /write_file/.test(asked[0]), `asked ${JSON.stringify(asked)}`);
    assert(!r.isError, text(r));
    const back = await client.callTool({ name: 'read_file', arguments: { path: 'approved.txt' } });
    assert(/yes/.test(text(back)), text(back));
  });
  await check(`${label}: an approval declined through elicitation is an isError result`, async () => {
    answer = 'decline';
    const r = await client.callTool({ name: 'write_file', arguments: { path: 'declined.txt', content: 'no\n' } });
    assert(asked.length === 2, `asked ${asked.length} times`);
    assert(r.isError === true, `a declined write: ${text(r)}`);
    const back = await client.callTool({ name: 'file_info', arguments: { path: 'declined.txt' } });
    assert(back.isError === true || !/"exists":true/.test(JSON.stringify(back.structuredContent)), `declined.txt was written: ${text(back)}`);
  });
  if (transport.terminateSession) await transport.terminateSession();
  await client.close();
}

async function stdio(juju, root) {
  const transport = new StdioClientTransport({
    command: juju,
    args: ['stdio', '--root', root, '--mode', 'trusted'],
    env: { ...process.env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'sdk-interop', version: '1.0.0' }, { capabilities: {} });
  await check('stdio: initialize', async () => {
    await client.connect(transport);
    const v = client.getServerVersion();
    assert(v && v.name === 'juju', `serverInfo ${JSON.stringify(v)}`);
    assert(client.getServerCapabilities().tools, 'no tools capability');
  });
  const inspect = new StdioClientTransport({ command: juju, args: ['stdio', '--root', process.argv[5], '--mode', 'inspect'], env: { ...process.env }, stderr: 'pipe' });
  inspect.stderr.on('data', () => {});
  const approving = check('stdio inspect: approvals', () => approvals('stdio inspect', inspect));
  await exercise(client, 'stdio');
  await progress(client, 'stdio');
  await approving;
  await cancel(client, 'stdio', '31.25');
  await check('stdio: close', () => client.close());
  if (failed) console.log(`NOTE juju stderr: ${stderr.replace(/\s+/g, ' ').slice(-2000)}`);
}

// The owner: reads the consent page, asks the test for the pairing code
// juju printed, and allows.
const lines = createInterface({ input: process.stdin });
const pending = [];
lines.on('line', (l) => pending.shift()?.(l.trim()));
let pairs = 0;
const askPairing = () =>
  new Promise((resolve) => {
    pending.push(resolve);
    console.log(`PAIR ${++pairs}`);
  });

async function consent(authURL) {
  const page = await fetch(authURL, { redirect: 'manual' });
  const html = await page.text();
  assert(page.status === 200, `the consent page: ${page.status} ${html}`);
  const txn = html.match(/name="txn" value="([^"]+)"/)?.[1];
  const csrf = html.match(/name="csrf" value="([^"]+)"/)?.[1];
  assert(txn && csrf, 'the consent page has no form');
  const cookies = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const code = await askPairing();
  const origin = new URL(authURL).origin;
  const res = await fetch(new URL('/authorize', origin), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, Cookie: cookies },
    body: new URLSearchParams({ txn, csrf, code, action: 'allow' }),
  });
  const body = await res.text();
  assert(res.status === 302 || res.status === 303, `allowing: ${res.status} ${body}`);
  return new URL(res.headers.get('location'));
}

class Provider {
  constructor() {
    this.redirect = 'http://127.0.0.1:53682/callback';
    this.info = undefined;
    this._tokens = undefined;
    this.verifier = undefined;
    this.authURL = undefined;
    this.expectedState = undefined;
    this.invalidated = [];
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: 'sdk-interop',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    this.expectedState = 'st-' + Math.random().toString(36).slice(2);
    return this.expectedState;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info) {
    this.info = info;
  }
  tokens() {
    return this._tokens;
  }
  saveTokens(t) {
    this._tokens = t;
  }
  redirectToAuthorization(url) {
    this.authURL = url;
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  // As the SDK's clients do: on invalid_grant it drops the tokens, on
  // invalid_client the registration too, and starts again.
  invalidateCredentials(scope) {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'client') this.info = undefined;
    if (scope === 'all' || scope === 'tokens') this._tokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}

// authorize runs the SDK's whole OAuth dance against url: the 401, the
// metadata, registration, the consent, the code exchange; it returns a
// connected client.
async function authorize(url, provider, name, started) {
  let transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  let client = new Client({ name, version: '1.0.0' });
  if (!started) {
    try {
      await client.connect(transport);
      throw new Error('connected without authorization');
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) throw e;
    }
  }
  assert(provider.info && provider.info.client_id, 'no client registered');
  assert(provider.authURL, 'the SDK did not send the owner to the authorization page');
  const a = provider.authURL;
  assert(a.searchParams.get('code_challenge_method') === 'S256', 'no PKCE S256');
  assert(a.searchParams.get('resource'), 'no resource indicator');
  const back = await consent(a);
  assert(back.searchParams.get('state') === provider.expectedState, `state ${back.searchParams.get('state')}, sent ${provider.expectedState}`);
  assert(back.searchParams.get('code'), `no code in ${back}`);
  await transport.finishAuth(back.searchParams.get('code'));
  assert(provider.tokens()?.access_token, 'no access token');
  transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function http(url, jujuClients, inspectURL, inspectToken) {
  const provider = new Provider();
  let client, transport;
  // A second juju serve, in inspect mode, with the owner's local token:
  // the approval is asked on the stream of the call's own POST.
  const inspect = new StreamableHTTPClientTransport(new URL(inspectURL), { requestInit: { headers: { Authorization: `Bearer ${inspectToken}` } } });
  const approving = check('http inspect: approvals', () => approvals('http inspect', inspect));
  await check('http: OAuth (discovery, registration, PKCE, consent, token) and initialize', async () => {
    ({ client, transport } = await authorize(url, provider, 'sdk-interop'));
    assert(transport.sessionId, 'no session id');
  });
  if (!client) {
    await approving;
    return;
  }
  await exercise(client, 'http');
  await progress(client, 'http');
  await cancel(client, 'http', '32.75');
  await approving;

  await check('http: GET stream of the session opens', async () => {
    // A session has one GET stream, the newest, and juju replaces one
    // only once it is 10 s old (409 before). The SDK opened its own when
    // it last connected; it may have opened it again since, on a new
    // token, so a 409 is tried again for as long as that rule can explain.
    let res;
    for (let try_ = 0; ; try_++) {
      res = await fetch(url, {
        headers: {
          Accept: 'text/event-stream',
          Authorization: `Bearer ${provider.tokens().access_token}`,
          'Mcp-Session-Id': transport.sessionId,
          'Mcp-Protocol-Version': transport.protocolVersion,
        },
      });
      if (res.status !== 409 || try_ >= 11) break;
      await res.body?.cancel();
      await sleep(1000);
    }
    // This one replaces the SDK's own, which the SDK opens again once
    // this one is gone.
    assert(res.status === 200 || res.status === 405, `GET: ${res.status}`);
    if (res.status === 200) assert(res.headers.get('content-type').startsWith('text/event-stream'), res.headers.get('content-type'));
    await res.body?.cancel();
  });

  await check('http: resuming the session with a second transport', async () => {
    const t2 = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, sessionId: transport.sessionId });
    const c2 = new Client({ name: 'sdk-interop', version: '1.0.0' });
    // A client that kept the session id reconnects without initialize.
    await t2.start();
    t2.setProtocolVersion(transport.protocolVersion);
    const r = await new Promise((resolve, reject) => {
      t2.onmessage = (m) => (m.id === 'resume-1' ? resolve(m) : undefined);
      t2.onerror = reject;
      t2.send({ jsonrpc: '2.0', id: 'resume-1', method: 'tools/list', params: {} }).catch(reject);
    });
    assert(r.result && r.result.tools.length > 10, JSON.stringify(r).slice(0, 300));
    await t2.close();
    void c2;
  });

  await check('http: terminateSession deletes the session', async () => {
    const sid = transport.sessionId;
    await transport.terminateSession();
    assert(transport.sessionId === undefined, 'the SDK kept the session id');
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        Accept: 'application/json, text/event-stream',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${provider.tokens().access_token}`,
        'Mcp-Session-Id': sid,
        'Mcp-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    assert(res.status === 404, `a deleted session answered ${res.status}`);
    await client.close();
  });

  await check('http: a refreshed token works and the old refresh token is refused', async () => {
    const old = provider.tokens();
    assert(old.refresh_token, 'no refresh token');
    // Expire the access token as a client does when it is refused: the SDK
    // refreshes on a 401.
    provider._tokens = { ...old, access_token: 'expired-' + old.access_token.slice(8) };
    transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    client = new Client({ name: 'sdk-interop', version: '1.0.0' });
    await client.connect(transport);
    const r = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    assert(!r.isError, text(r));
    const now = provider.tokens();
    assert(now.access_token !== old.access_token, 'the SDK did not refresh');
    const res = await fetch(new URL('/token', url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: old.refresh_token, client_id: provider.info.client_id }),
    });
    assert(res.status === 400, `replayed refresh token: ${res.status}`);
    const body = await res.json();
    assert(body.error === 'invalid_grant', `replayed refresh token: ${JSON.stringify(body)}`);
    await client.close();
  });

  // `juju clients revoke`: the client's next request is refused, its
  // refresh token too, and the SDK must find its way back to the owner's
  // consent by itself: it registers anew (the old client_id is gone, so the
  // authorization page would only show an error) and sends the owner to
  // the consent page; once allowed, it works again.
  await check('http: a revoked client registers again and is allowed again', async () => {
    const p2 = new Provider();
    const { client: c2 } = await authorize(url, p2, 'sdk-revoked');
    const r = await c2.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    assert(!r.isError, text(r));
    const old = p2.info.client_id;
    execFileSync(jujuClients[0], [...jujuClients.slice(1), 'revoke', old], { env: process.env });
    p2.authURL = undefined;
    let err;
    try {
      await c2.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    } catch (e) {
      err = e;
    }
    await c2.close().catch(() => {});
    assert(err instanceof UnauthorizedError, `a revoked client's call: ${err}`);
    assert(p2.authURL, 'the SDK did not send the owner to the authorization page');
    assert(p2.info && p2.info.client_id !== old, `the SDK kept the revoked client ${old} (invalidated: ${p2.invalidated})`);
    assert(p2.authURL.searchParams.get('client_id') === p2.info.client_id, `the authorization page names ${p2.authURL.searchParams.get('client_id')}`);
    const { client: c3 } = await authorize(url, p2, 'sdk-revoked', p2.authURL);
    const r3 = await c3.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    assert(!r3.isError, text(r3));
    await c3.close();
  });
}

try {
  if (mode === 'stdio') await stdio(rest[0], rest[1]);
  else if (mode === 'http') await http(rest[0], rest.slice(1, 3), rest[3], rest[4]);
  else throw new Error(`mode ${mode}`);
} catch (e) {
  fail('run', e && e.stack ? e.stack : e);
}
console.log('DONE');
lines.close();
process.exit(failed ? 1 : 0);
