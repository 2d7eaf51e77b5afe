# install-deps with everything present: target under 2 s (it runs before every make test).
# Measured against `dpkg-query -W` of the same packages, the floor it cannot beat.
set -euo pipefail
n=5
t0=$(date +%s%N)
for _ in $(seq $n); do tools/scripts/install-deps; done
t1=$(date +%s%N)
pkgs=$(sed -n '/^pkgs=(/,/^)/p' tools/scripts/install-deps | grep -v -e 'pkgs=(' -e '^)' -e '\$' | tr -s ' \t\n' ' ')
for _ in $(seq $n); do dpkg-query -W $pkgs >/dev/null; done
t2=$(date +%s%N)
ours=$(((t1 - t0) / n / 1000000))
floor=$(((t2 - t1) / n / 1000000))
echo "install-deps (all present): ${ours} ms per call; dpkg-query alone: ${floor} ms; ratio $(awk -v a=$ours -v b=$floor 'BEGIN { printf "%.1f", b ? a / b : 0 }')"
[ $ours -lt 2000 ] || echo "install-deps: over the 2 s target"
