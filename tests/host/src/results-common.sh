# shellcheck shell=bash
# Shared by tests/host/results-*.sh: the init's results writer built for the host, and fake
# /sys/class/block trees whose /dev nodes are image files.

# build_writer: $T/writer from tests/host/src/results_writer.c + init/results.c + lib.
build_writer() {
	gcc -O2 -g -std=gnu11 -Wall -Wextra -Wno-unused-parameter -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		-Ilib -Iinit -o "$T/writer" tests/host/src/results_writer.c init/results.c lib/readall.c \
		lib/resdisk.c lib/resfind.c lib/consfile.c lib/sha256.c -lext2fs -lcom_err ||
		fail "cannot build the host results writer"
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
