#!/usr/bin/env bash
# Installs the pinned k6 into <repo>/load/bin when it is missing (or the wrong version).
# k6 is compiled from source with the machine's Go toolchain through the Go module proxy.
# k6 v1.8.1's go.mod says `go 1.25.0`: it builds with Go 1.25 or newer. A Go from 1.21 on also
# works here: with GOTOOLCHAIN=auto it downloads the Go 1.25 toolchain from the module proxy
# first (https://go.dev/doc/toolchain). Go 1.20 and older cannot switch toolchains.
# Usage: bash load/scripts/install-k6.sh [--force]
set -euo pipefail

K6_VERSION="${K6_VERSION:-v1.8.1}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
load_dir="$(cd "$here/.." && pwd)"
bin_dir="$load_dir/bin"
k6="$bin_dir/k6"

if [[ "${1:-}" != "--force" && -x "$k6" ]]; then
  have="$("$k6" version 2>/dev/null | head -n1 || true)"
  if [[ "$have" == *"${K6_VERSION}"* ]]; then
    echo "k6 ${K6_VERSION} already installed: $k6"
    exit 0
  fi
  echo "found '$have', want ${K6_VERSION}: reinstalling"
fi

if ! command -v go >/dev/null 2>&1; then
  for candidate in /usr/local/go/bin/go /usr/lib/go/bin/go; do
    if [[ -x "$candidate" ]]; then PATH="$(dirname "$candidate"):$PATH"; break; fi
  done
fi
if ! command -v go >/dev/null 2>&1; then
  echo "install-k6: Go is required (go install go.k6.io/k6@${K6_VERSION}); install Go >= 1.25 (or >= 1.21, which fetches 1.25)" >&2
  exit 1
fi
go_minor="$(go env GOVERSION | sed -n 's/^go1\.\([0-9]*\).*/\1/p')"
if [[ -z "$go_minor" || "$go_minor" -lt 21 ]]; then
  echo "install-k6: $(go version) cannot build k6 ${K6_VERSION}: install Go >= 1.25 (or >= 1.21, which fetches 1.25)" >&2
  exit 1
fi
if [[ "$go_minor" -lt 25 ]]; then
  echo "install-k6: k6 ${K6_VERSION} needs Go 1.25; $(go version) will download that toolchain from the module proxy"
fi

mkdir -p "$bin_dir"
echo "installing k6 ${K6_VERSION} with $(go version) into $bin_dir (compiles from source, takes a few minutes)"
start=$(date +%s)
# GOTOOLCHAIN=auto lets an older local Go fetch the toolchain k6's go.mod asks for from the module proxy.
GOBIN="$bin_dir" GOTOOLCHAIN="${GOTOOLCHAIN:-auto}" GOFLAGS="${GOFLAGS:--buildvcs=false}" \
  go install "go.k6.io/k6@${K6_VERSION}"
end=$(date +%s)
"$k6" version
echo "k6 installed in $((end - start)) s"
