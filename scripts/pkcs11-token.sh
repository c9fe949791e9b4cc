#!/usr/bin/env bash
# A PKCS#11 3.2 soft token with ML-DSA and SLH-DSA, for the IdP's PKCS#11 signer and its tests:
# kryoptic 1.5.4 (crates.io, Apache-2.0), statically linked against OpenSSL 3.5.5 built from the
# crates.io crate openssl-src 300.5.5+3.5.5. Debian's SoftHSM2 (2.6) has no ML-DSA.
#
#   scripts/pkcs11-token.sh build    build .cache/kryoptic/libkryoptic_pkcs11.so (once; ~7 min on
#                                    2 busy cores: OpenSSL ~4 min, cargo ~3 min); prints its path
#   scripts/pkcs11-token.sh path     the library's path if it is built (exit 1 if not)
#
# Needs cargo, a C compiler, perl, make, libclang (bindgen) and the SQLite headers
# (libsqlite3-dev): .ci/run installs what is missing. Everything is fetched through cargo from
# crates.io; nothing else is downloaded.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.cache/kryoptic"
lib="$out/libkryoptic_pkcs11.so"
KRYOPTIC=1.5.4
OPENSSL_SRC=300.5.5+3.5.5

case "${1:-build}" in
  path)
    [[ -f "$lib" ]] || exit 1
    echo "$lib"
    exit 0
    ;;
  build) ;;
  *)
    echo "usage: scripts/pkcs11-token.sh build|path" >&2
    exit 2
    ;;
esac
if [[ -f "$lib" ]]; then
  echo "$lib"
  exit 0
fi

registry_src() {
  local found=("${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/"$1")
  [[ -d "${found[0]:-}" ]] && echo "${found[0]}"
}

# 1. Both crates through cargo (a throwaway manifest: kryoptic is a cdylib, not a dependency).
shopt -s nullglob
if [[ -z "$(registry_src "kryoptic-$KRYOPTIC")" || -z "$(registry_src "openssl-src-$OPENSSL_SRC")" ]]; then
  tmp="$(mktemp -d)"
  mkdir -p "$tmp/src" && touch "$tmp/src/lib.rs"
  printf '[package]\nname = "fetch-kryoptic"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\nkryoptic = { version = "=%s", default-features = false }\nopenssl-src = "=%s"\n' \
    "$KRYOPTIC" "$OPENSSL_SRC" >"$tmp/Cargo.toml"
  (cd "$tmp" && cargo fetch -q)
  rm -rf "$tmp"
fi
kryoptic_src="$(registry_src "kryoptic-$KRYOPTIC")"
openssl_src="$(registry_src "openssl-src-$OPENSSL_SRC")"
[[ -n "$kryoptic_src" && -n "$openssl_src" ]] || {
  echo "pkcs11-token: cargo did not fetch kryoptic $KRYOPTIC / openssl-src $OPENSSL_SRC" >&2
  exit 1
}

# 2. Writable copies: OpenSSL is configured and built in its own tree.
build="$out/build"
mkdir -p "$build"
[[ -d "$build/openssl" ]] || cp -r "$openssl_src/openssl" "$build/openssl"
[[ -d "$build/kryoptic" ]] || cp -r "$kryoptic_src" "$build/kryoptic"
export KRYOPTIC_OPENSSL_SOURCES="$build/openssl"

# 3. OpenSSL first, by hand: the crate omits util/providers.num, so the build kryoptic's ossl-sys
#    would run (with the legacy provider as a module) fails. The same options plus no-legacy,
#    no-module, no-shared; ossl-sys then only runs bindgen on include/.
if [[ ! -f "$build/openssl/libcrypto.a" ]]; then
  (cd "$build/openssl" &&
    ./Configure no-deprecated no-aria no-argon2 no-atexit no-des no-dsa no-cast no-mdc2 no-ec2m \
      no-rc2 no-rc4 no-rc5 no-rmd160 no-seed no-sm2 no-sm3 no-sm4 no-docs no-tests \
      enable-ec_nistp_64_gcc_128 '-DDEVRANDOM=\"/dev/urandom\"' no-legacy no-module no-shared >/dev/null &&
    make -s -j"$(nproc)" build_libs >/dev/null)
fi

# 4. The module: standard algorithms plus pqc (ML-DSA, SLH-DSA, ML-KEM), OpenSSL static. Without
#    `dynamic`, ossl's ossl-sys backend must be named explicitly.
(cd "$build/kryoptic" &&
  cargo build -q --release --locked --no-default-features --features standard,pqc,ossl/ossl-sys)
cp "$build/kryoptic/target/release/libkryoptic_pkcs11.so" "$lib"
# The build tree (~300 MB) is not needed any more.
rm -rf "$build"
echo "$lib"
