#!/usr/bin/env bash
# Installs every build, test and plotting dependency from Debian 12's packages.
# Idempotent: apt-get skips what is already there. Runs as root, or re-runs itself through sudo.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=CI "$0" "$@"
fi

packages=(
  build-essential gfortran clang-14 libclang-rt-14-dev libomp-14-dev cmake ninja-build ccache pkg-config git
  libocct-foundation-dev libocct-modeling-data-dev libocct-modeling-algorithms-dev
  libocct-data-exchange-dev libtbb-dev  # OCCT's CMake targets name libtbb.so
  libfontconfig-dev  # and TKService (under XCAF) names -lfontconfig, which no OCCT package pulls in
  libboost-dev libeigen3-dev libspdlog-dev libfmt-dev
  doctest-dev libcli11-dev libsundials-dev
  libtomlplusplus-dev nlohmann-json3-dev libxxhash-dev
  libopenmpi-dev openmpi-bin  # surfdb sweep and convert across machines (docs/sweeps.md)
  python3 python3-dev python3-matplotlib python3-numpy pybind11-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
