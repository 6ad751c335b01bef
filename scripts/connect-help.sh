#!/usr/bin/env bash
# Prints how to connect MCP clients to this juju build. Used by `make run`.
# The paths are quoted for each place they go (a shell word, a TOML or a
# JSON string), so a folder named "My Project" gives lines that work.
set -euo pipefail
bin=$1 root=$2
# sh: one shell word, in single quotes only when it needs quoting.
sh() {
	case $1 in
	'' | *[!A-Za-z0-9_./:=@%+,-]*) printf "'%s'" "${1//\'/\'\\\'\'}" ;;
	*) printf '%s' "$1" ;;
	esac
}
# str: a JSON string, which is also a TOML basic string (backslash, quote and
# control characters escaped).
str() {
	local s=$1 out='' c i
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case $c in
		'\' | '"') out+="\\$c" ;;
		[[:cntrl:]]) out+=$(printf '\\u%04x' "'$c") ;;
		*) out+=$c ;;
		esac
	done
	printf '"%s"' "$out"
}
sbin=$(sh "$bin") sroot=$(sh "$root") jbin=$(str "$bin") jroot=$(str "$root")
cat >&2 <<MSG

juju is built: $bin

Connect a client (each starts juju itself over stdio):
  Claude Code   claude mcp add juju -- $sbin stdio --root $sroot
  Codex CLI     add to ~/.codex/config.toml:
                  [mcp_servers.juju]
                  command = $jbin
                  args = ["stdio", "--root", $jroot]
  Cursor /      add to .cursor/mcp.json or claude_desktop_config.json:
  Claude Desktop  {"mcpServers": {"juju": {"command": $jbin, "args": ["stdio", "--root", $jroot]}}}

Clients that connect by URL: run \`make serve\` (or $sbin serve --root $sroot), then
  Claude Code   claude mcp add --transport http juju http://127.0.0.1:7777/mcp \\
                  --header "Authorization: Bearer \$($sbin token)"
  claude.ai, ChatGPT: through a tunnel with --public-url and OAuth (docs/CLI.md, juju serve)

See what it offers: $sbin tools    Check the machine: $sbin doctor
MSG
