# shellcheck shell=bash
# Shared by tests/host/results-*.sh: the init's results writer built for the host, and fake
# /sys/class/block trees whose /dev nodes are image files.

# build_writer: $T/writer, the init's results writer on the host (tests/host/src/results_writer.c
# linked with the init's and the host's libraries; the Makefile builds it: make units).
build_writer() {
	local w="$B/tests/progs/results-writer"
	[ -x "$w" ] || fail "$w not built (make units)"
	ln -s "$(realpath "$w")" "$T/writer"
}

# fake_disk ROOT NAME IMAGE: ROOT/sys/class/block/NAME for IMAGE, ROOT/dev/NAME -> IMAGE.
fake_disk() {
	local root=$1 name=$2 img=$3 sectors
	sectors=$(($(stat -c %s "$img") / 512))
	mkdir -p "$root/sys/class/block/$name" "$root/dev"
	echo "$sectors" >"$root/sys/class/block/$name/size"
	echo "253:$((RANDOM % 200))" >"$root/sys/class/block/$name/dev"
	echo 0 >"$root/sys/class/block/$name/ro"
	ln -sf "$img" "$root/dev/$name"
}

# make_stage DIR RUNID SEED [BYTES]: the files the init writes for one run (one iteration).
make_stage() {
	local d=$1 run=$2 seed=$3 bytes=${4:-20000}
	mkdir -p "$d/runs/$run/1"
	head -c "$bytes" <(yes "netperf line $seed $run") >"$d/runs/$run/1/client.0.out"
	echo "" >"$d/runs/$run/1/client.0.err"
	echo "utime=0.$seed stime=1.$seed maxrss=1234" >"$d/runs/$run/1/client.0.rusage"
	echo "MIGRATED SCTP STREAM TEST $seed" >"$d/runs/$run/1/server.0.out"
	echo '{"status":"ok","exit":0}' >"$d/runs/$run/1/status"
	echo "{\"netperf.Throughput_Mbps\": [$seed.5]}" >"$d/runs/$run/results.json"
	echo "{\"kernel\":{\"release\":\"6.1.0\"},\"seed\":$seed}" >"$d/env.json"
}
