#!/usr/bin/env bash
# Re-creates native/liboqs/ from an unmodified liboqs 0.13.0 source tree: copies exactly the
# files build.rs compiles (plus licences and headers), records the SHA-256 of every upstream
# file in UPSTREAM.sha256, then applies patches/*.patch in order (see PATCHES.md).
#
#   bash native/liboqs/vendor.sh [LIBOQS_SRC]
#
# LIBOQS_SRC defaults to the liboqs tree inside the oqs-sys 0.11.0 crate (liboqs 0.13.0, the
# version oqs-sys vendored when this project still built through it). When it is not in the
# local cargo registry yet, the script asks cargo to download the crate (no build, no bindgen).
# A git checkout of liboqs tag 0.13.0 works as well.
# `--check` re-creates the copy in a temporary directory and fails if it differs from the
# committed one.
set -euo pipefail
shopt -s nullglob
here="$(cd "$(dirname "$0")" && pwd)"
check=0
if [[ "${1:-}" == "--check" ]]; then
  check=1
  shift
fi

find_crate() {
  local found=("${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/oqs-sys-0.11.0+liboqs-0.13.0/liboqs)
  if ((${#found[@]})); then echo "${found[0]}"; fi
}

src="${1:-}"
if [[ -z "$src" ]]; then
  src="$(find_crate)"
  if [[ -z "$src" ]]; then
    tmp="$(mktemp -d)"
    mkdir -p "$tmp/src" && touch "$tmp/src/lib.rs"
    printf '[package]\nname = "fetch-liboqs"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\noqs-sys = { version = "=0.11.0", default-features = false }\n' >"$tmp/Cargo.toml"
    (cd "$tmp" && cargo fetch -q)
    rm -rf "$tmp"
    src="$(find_crate)"
  fi
fi
[[ -f "$src/src/oqs.h" ]] || { echo "vendor.sh: $src is not a liboqs source tree" >&2; exit 1; }
version="$(sed -n 's/^set(OQS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))$/\2/p' "$src/CMakeLists.txt" | paste -sd.)"
[[ "$version" == "0.13.0" ]] || { echo "vendor.sh: $src is liboqs '$version', not 0.13.0" >&2; exit 1; }

out="$here"
if ((check)); then out="$(mktemp -d)"; fi

# Upstream paths (relative to the liboqs root) → kept at the same path under native/liboqs/.
files=(
  LICENSE.txt
  src/common/common.c
  src/common/rand/rand.c
  src/common/x86_64_helpers.h
  src/common/pqclean_shims/fips202.c
  src/common/pqclean_shims/fips202.h
  src/common/pqclean_shims/fips202x4.c
  src/common/pqclean_shims/fips202x4.h
  src/common/pqclean_shims/randombytes.h
  src/common/pqclean_shims/compat.h
  src/common/sha3/sha3.c
  src/common/sha3/sha3.h
  src/common/sha3/sha3x4.c
  src/common/sha3/sha3x4.h
  src/common/sha3/xkcp_sha3.c
  src/common/sha3/xkcp_sha3x4.c
  src/common/sha3/xkcp_dispatch.h
)
# Keccak-p[1600]: portable 64-bit and serial x4 (every CPU), AVX2 single and x4 (x86-64).
dirs=(
  src/common/sha3/xkcp_low/KeccakP-1600/plain-64bits
  src/common/sha3/xkcp_low/KeccakP-1600/avx2
  src/common/sha3/xkcp_low/KeccakP-1600times4/serial
  src/common/sha3/xkcp_low/KeccakP-1600times4/avx2
)
for p in 44 65 87; do
  dirs+=("src/sig/ml_dsa/pqcrystals-dilithium-standard_ml-dsa-${p}_ref" "src/sig/ml_dsa/pqcrystals-dilithium-standard_ml-dsa-${p}_avx2")
done
files+=(src/sig/ml_dsa/sig_ml_dsa.h src/sig/falcon/sig_falcon.h)
for p in 512 1024; do
  files+=("src/sig/falcon/sig_falcon_$p.c")
  dirs+=("src/sig/falcon/pqclean_falcon-${p}_clean" "src/sig/falcon/pqclean_falcon-${p}_avx2")
done
# The headers cmake copies into <build>/include/oqs/ (public ones, and the internal sha3 ones).
headers=(
  src/oqs.h src/common/common.h src/common/rand/rand.h src/common/aes/aes_ops.h
  src/common/sha2/sha2_ops.h src/common/sha3/sha3_ops.h src/common/sha3/sha3x4_ops.h
  src/common/sha3/sha3.h src/common/sha3/sha3x4.h
  src/kem/kem.h src/sig/sig.h src/sig_stfl/sig_stfl.h
  src/sig/ml_dsa/sig_ml_dsa.h src/sig/falcon/sig_falcon.h
)

rm -rf "$out/src" "$out/include/oqs"/*.h.upstream
mkdir -p "$out/include/oqs"
: >"$out/UPSTREAM.sha256.tmp"
copy() { # upstream-relative path, destination-relative path
  mkdir -p "$(dirname "$out/$2")"
  cp "$src/$1" "$out/$2"
  (cd "$src" && sha256sum "$1") >>"$out/UPSTREAM.sha256.tmp"
}
for f in "${files[@]}"; do copy "$f" "$f"; done
for d in "${dirs[@]}"; do
  while IFS= read -r f; do copy "$f" "$f"; done < <(cd "$src" && find "$d" -type f | LC_ALL=C sort)
done
for h in "${headers[@]}"; do
  mkdir -p "$out/include/oqs"
  cp "$src/$h" "$out/include/oqs/$(basename "$h")"
  (cd "$src" && sha256sum "$h") >>"$out/UPSTREAM.sha256.tmp"
done
LC_ALL=C sort -u -k2 "$out/UPSTREAM.sha256.tmp" >"$out/UPSTREAM.sha256"
rm "$out/UPSTREAM.sha256.tmp"

# Our changes, in order. Each one is described in PATCHES.md.
patches=("$here"/patches/*.patch)
for p in "${patches[@]}"; do
  patch -s -p1 -d "$out" <"$p"
done

if ((check)); then
  status=0
  diff -r -x oqsconfig.h -x '*.md' -x patches -x vendor.sh "$out" "$here" >/dev/null || status=$?
  if ((status)); then
    diff -r -x oqsconfig.h -x '*.md' -x patches -x vendor.sh "$out" "$here" | head -40
    echo "vendor.sh --check: native/liboqs differs from upstream + patches" >&2
  else
    echo "vendor.sh --check: native/liboqs = liboqs 0.13.0 + ${#patches[@]} patches"
  fi
  rm -rf "$out"
  exit "$status"
fi
echo "vendored $(wc -l <"$out/UPSTREAM.sha256") files from $src"
