#!/bin/sh
# Builds htsim's library from a checkout of its public sources (csg-htsim) that the user
# points at, then the benchmark driver of this folder against it. Nothing of htsim is kept
# in this repository.
#
#   scripts/htsim/build.sh <htsim checkout> [output folder, default out/htsim]
#
# Prints the path of the driver binary (used by scripts/bench_vs_htsim.py).
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/sim/eventlist.h" ]; then
    echo "usage: $0 <htsim checkout (a folder with sim/eventlist.h)> [output folder]" >&2
    exit 2
fi
src=$(cd "$1/sim" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-out/htsim}
mkdir -p "$out"
# Only the library: htsim's own test and datacenter programs are not needed.
make -C "$src" libhtsim.a >"$out/make.log" 2>&1 || { tail -20 "$out/make.log" >&2; exit 1; }
${CXX:-g++} -O3 -std=c++11 -I"$src" "$here/bench_htsim.cpp" "$src/libhtsim.a" -o "$out/bench_htsim"
echo "$out/bench_htsim"
