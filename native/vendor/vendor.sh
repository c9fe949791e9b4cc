#!/usr/bin/env bash
# Re-creates native/vendor/ from two crates.io packages, unchanged: the ML-DSA code (mldsa-native
# and the s2n-bignum assembler headers its assembly includes) from aws-lc-sys 0.47.0, and the
# Keccak code (XKCP's Keccak-p[1600] permutations: portable, AVX2, AVX2 four-way) and CPU
# detection from the liboqs 0.13.0 tree inside oqs-sys 0.11.0. Every copied file's SHA-256 is recorded in UPSTREAM.sha256, next
# to its path in the crate. See VENDOR.md.
#
#   bash native/vendor/vendor.sh            copy (cargo downloads a crate that is not in the
#                                           local registry yet; nothing is built)
#   bash native/vendor/vendor.sh --check    re-create in a temporary directory and fail on any
#                                           difference from the committed copy (CI runs it)
set -euo pipefail
shopt -s nullglob
here="$(cd "$(dirname "$0")" && pwd)"
check=0
if [[ "${1:-}" == "--check" ]]; then check=1; fi

AWS_LC_SYS=aws-lc-sys-0.47.0
OQS_SYS=oqs-sys-0.11.0+liboqs-0.13.0

registry_dir() { # crate directory name → its unpacked source in the cargo registry, if any
  local found=("${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$1")
  if ((${#found[@]})); then echo "${found[0]}"; fi
}

if [[ -z "$(registry_dir "$AWS_LC_SYS")" || -z "$(registry_dir "$OQS_SYS")" ]]; then
  tmp="$(mktemp -d)"
  mkdir -p "$tmp/src" && touch "$tmp/src/lib.rs"
  cat >"$tmp/Cargo.toml" <<'EOF'
[package]
name = "fetch-pqid-vendor"
version = "0.0.0"
edition = "2021"
[dependencies]
aws-lc-sys = { version = "=0.47.0", default-features = false }
oqs-sys = { version = "=0.11.0", default-features = false }
EOF
  (cd "$tmp" && cargo fetch -q)
  rm -rf "$tmp"
fi
aws="$(registry_dir "$AWS_LC_SYS")"
oqs="$(registry_dir "$OQS_SYS")"
[[ -d "$aws/aws-lc/crypto/fipsmodule/ml_dsa/mldsa" ]] || { echo "vendor.sh: no mldsa-native in $aws" >&2; exit 1; }
[[ -f "$oqs/liboqs/src/oqs.h" ]] || { echo "vendor.sh: no liboqs tree in $oqs" >&2; exit 1; }
version="$(sed -n 's/^set(OQS_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\))$/\2/p' "$oqs/liboqs/CMakeLists.txt" | paste -sd.)"
[[ "$version" == "0.13.0" ]] || { echo "vendor.sh: $oqs holds liboqs '$version', not 0.13.0" >&2; exit 1; }

out="$here"
if ((check)); then out="$(mktemp -d)"; fi
rm -rf "$out/mldsa-native" "$out/s2n-bignum" "$out/liboqs" "$out/aws-lc"
: >"$out/UPSTREAM.sha256.tmp"

copy() { # crate root, path in the crate, destination under native/vendor/
  mkdir -p "$(dirname "$out/$3")"
  cp "$1/$2" "$out/$3"
  printf '%s  %s\n' "$(sha256sum <"$1/$2" | cut -d' ' -f1)" "$(basename "$1")/$2" >>"$out/UPSTREAM.sha256.tmp"
}
copy_tree() { # crate root, directory in the crate, destination directory
  while IFS= read -r f; do copy "$1" "$2/$f" "$3/$f"; done < <(cd "$1/$2" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
}

# mldsa-native as AWS-LC imports it: the portable C (one translation unit per parameter set,
# mldsa_native_bcm.c), the x86_64 AVX2 and AArch64 NEON assembly back ends, their tables.
copy_tree "$aws" aws-lc/crypto/fipsmodule/ml_dsa/mldsa mldsa-native
# The symbol, CET and BTI macros every mldsa-native assembly file includes.
for h in _internal_s2n_bignum_x86_att.h _internal_s2n_bignum_arm.h; do
  copy "$aws" "aws-lc/third_party/s2n-bignum/s2n-bignum-imported/include/$h" "s2n-bignum/include/$h"
done
# AWS-LC's licence file: it carries the mldsa-native and s2n-bignum notices.
copy "$aws" aws-lc/LICENSE aws-lc/LICENSE

# liboqs 0.13.0: only XKCP's Keccak-p[1600] permutations, which pqid's SHAKE (csrc/keccak.c)
# calls, and the common code pqid's CPU checks use (common.c: CPUID/XGETBV, getauxval).
# Portable 64-bit (every CPU); AVX2 one-way and four-way (x86-64; pqid also compiles the
# four-way one for AVX-512VL). Not liboqs' SHA-3 API (sha3*.c, xkcp_sha3*.c) or its serial
# four-way code: pqid's sponge replaces them.
lq=liboqs
for f in LICENSE.txt src/common/common.c src/common/x86_64_helpers.h; do
  copy "$oqs" "$lq/$f" "liboqs/$f"
done
for d in KeccakP-1600/plain-64bits KeccakP-1600/avx2 KeccakP-1600times4/avx2; do
  copy_tree "$oqs" "$lq/src/common/sha3/xkcp_low/$d" "liboqs/src/common/sha3/xkcp_low/$d"
done
# The one header liboqs' cmake copies into <build>/include/oqs/ that these files include
# (oqsconfig.h, which cmake generates, is pqid's own: native/csrc/include/oqs/oqsconfig.h).
copy "$oqs" "$lq/src/common/common.h" "liboqs/include/oqs/common.h"

LC_ALL=C sort -k2 "$out/UPSTREAM.sha256.tmp" | uniq >"$out/UPSTREAM.sha256"
rm "$out/UPSTREAM.sha256.tmp"

if ((check)); then
  status=0
  diff -r -x '*.md' -x vendor.sh "$out" "$here" >/dev/null || status=$?
  if ((status)); then
    diff -r -x '*.md' -x vendor.sh "$out" "$here" | head -40
    echo "vendor.sh --check: native/vendor differs from $AWS_LC_SYS + $OQS_SYS" >&2
  else
    echo "vendor.sh --check: native/vendor = $(wc -l <"$out/UPSTREAM.sha256") files of $AWS_LC_SYS and $OQS_SYS, unchanged"
  fi
  rm -rf "$out"
  exit "$status"
fi
echo "vendored $(wc -l <"$out/UPSTREAM.sha256") files from $aws and $oqs"
