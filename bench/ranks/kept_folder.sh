# Sourced by bench/ranks/ scripts whose runs' files are kept on request: `work`, the folder
# KEEP names (made if need be), else a temporary one, removed when the script exits; and
# `scratch`, files the script adds beside the case (its copies), removed when it exits, however
# it ends.
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
scratch=()
remove_scratch() {
  rm -f "${scratch[@]}"
  [[ -n ${KEEP:-} ]] || rm -rf "$work"
}
trap remove_scratch EXIT
