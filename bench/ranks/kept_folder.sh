# Sourced by bench/ranks/ scripts whose runs' files are kept on request: `work`, the folder
# KEEP names (made if need be), else a temporary one, removed when the script exits.
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$work"' EXIT
