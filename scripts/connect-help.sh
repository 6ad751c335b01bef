#!/usr/bin/env bash
# Prints how to connect MCP clients to this juju build. Used by `make run`.
set -euo pipefail
bin=$1 root=$2
cat >&2 <<MSG

juju is built: $bin

Connect a client (each starts juju itself over stdio):
  Claude Code   claude mcp add juju -- $bin stdio --root $root
  Codex CLI     add to ~/.codex/config.toml:
                  [mcp_servers.juju]
                  command = "$bin"
                  args = ["stdio", "--root", "$root"]
  Cursor /      add to .cursor/mcp.json or claude_desktop_config.json:
  Claude Desktop  {"mcpServers": {"juju": {"command": "$bin", "args": ["stdio", "--root", "$root"]}}}

Clients that connect by URL: run \`make serve\` (or $bin serve --root $root), then
  Claude Code   claude mcp add --transport http juju http://127.0.0.1:7777/mcp \\
                  --header "Authorization: Bearer \$($bin token)"
  claude.ai, ChatGPT: through a tunnel with --public-url and OAuth (docs/CLI.md, juju serve)

See what it offers: $bin tools    Check the machine: $bin doctor
MSG
