#!/bin/sh
# Run here, before a device call: copies the built ptxmm (stripped) and the libz3 it links into .tools/device/,
# the folder the device call carries (the device machine has CUDA but no Z3), and the non-proxy Dat3M tests into
# .tools/device/peers when ../shared/peers is there. Usage: validate/device/prepare.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/build/app/ptxmm
[ -x "$bin" ] || { echo "build ptxmm first (make build): $bin is missing" >&2; exit 2; }
dest=$root/.tools/device
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/lib"
strip -o "$dest/bin/ptxmm" "$bin"
z3=$(ldd "$bin" | awk '/libz3/ {print $3}')
[ -n "$z3" ] || { echo "ptxmm does not link libz3?" >&2; exit 2; }
cp -L "$z3" "$dest/lib/"
# The non-proxy tests of the Dat3M corpus (../shared/peers does not travel to the device machine).
peers=$root/../shared/peers/dat3m/litmus
if [ -d "$peers" ]; then
  mkdir -p "$dest/peers"
  find "$peers" -name '*.litmus' | xargs grep -L 'aliases\|fence\.proxy\|suld\|sust\|tld\|cold\|suatom\|sured' |
    while read -r f; do cp "$f" "$dest/peers/$(basename "$(dirname "$f")")-$(basename "$f")"; done
fi
du -sh "$dest"
