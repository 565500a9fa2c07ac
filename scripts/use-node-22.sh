# Source this (`source scripts/use-node-22.sh`) to run the project's npm commands on Node 22, which
# pg-boss 12 (the job queue, on the embedded database too) declares. When the machine's node is
# older than 22.12, Node 22 is fetched once from the npm registry (the node-linux-<arch> package)
# into .node/ and put first on the PATH, so npm, the install included, runs on it and the engine
# checks pass. With a recent enough node it changes nothing.
NODE_22_VERSION=22.23.3
_project_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! node -e 'const [major, minor] = process.versions.node.split(".").map(Number); process.exit(major > 22 || (major === 22 && minor >= 12) ? 0 : 1)' 2>/dev/null; then
  if [ ! -x "$_project_root/.node/bin/node" ] || [ "$("$_project_root/.node/bin/node" --version)" != "v$NODE_22_VERSION" ]; then
    case "$(uname -m)" in
      x86_64) _node_arch=x64 ;;
      aarch64 | arm64) _node_arch=arm64 ;;
      *) echo "No Node $NODE_22_VERSION package for $(uname -m): install Node >= 22.12." >&2; return 1 2>/dev/null || exit 1 ;;
    esac
    echo "Fetching Node $NODE_22_VERSION from the npm registry into .node/ (once)…" >&2
    _node_download="$(mktemp -d)"
    (cd "$_node_download" && npm pack --silent "node-linux-$_node_arch@$NODE_22_VERSION" >/dev/null)
    rm -rf "$_project_root/.node" && mkdir -p "$_project_root/.node"
    tar -xzf "$_node_download"/node-linux-*.tgz -C "$_project_root/.node" --strip-components=1
    rm -rf "$_node_download"
  fi
  export PATH="$_project_root/.node/bin:$PATH"
fi
