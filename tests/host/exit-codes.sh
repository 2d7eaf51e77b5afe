# Every verb on the same bad inputs gives the same exit code (tools/verb.c verb_exit_status(), the
# list in docs/architecture.md): a missing file, a malformed job or argument, a folder or file
# that holds no results, an unknown option are bad input (100); a failure of the system is 111.
. tests/lib.sh
F=tests/fixtures/results
printf 'suite: netperf\ntest: [unclosed\n' >"$T/bad.yaml"
mkdir "$T/folder"
head -c 65536 /dev/zero >"$T/zeros.img"

code() { # EXPECTED_EXIT WHAT VERB ARGS...
	local want=$1 what=$2 rc
	shift 2
	set +e
	(cd "$T" && exec "$BENCHBOOT" "$@") >"$T/out" 2>"$T/err" </dev/null
	rc=$?
	set -e
	expect_eq "$what: benchboot $*: exit code (stderr: $(head -c 300 "$T/err"))" "$rc" "$want"
}

# a missing file or folder
code 100 "missing job" build missing.yaml
code 100 "missing job" check missing.yaml
code 100 "missing job" lava missing.yaml
code 100 "missing job" run missing.yaml
code 100 "missing disk" collect missing.img -o out
code 100 "missing log" collect --console missing.log -o out
code 100 "missing folder" compare missing "$PWD/$F/cgroup"
code 100 "missing folder" mkdisk nodir/results.img
code 100 "missing kernels file" bisect missing.yaml --kernels missing.txt
printf 'a /nonexistent/vmlinuz\nb /nonexistent/vmlinuz\n' >"$T/kernels.txt"
code 100 "missing kernel" bisect missing.yaml --kernels kernels.txt
expect_grep "kernels.txt:1: VMLINUZ /nonexistent/vmlinuz: No such file or directory" "$T/err"
code 100 "missing kernel" bisect-step missing.yaml --init --state st --good /nonexistent/a --bad /nonexistent/b
code 100 "missing tree" kernel /nonexistent/tree
code 100 "missing job" kernel folder --job missing.yaml
code 100 "missing output folder" compare "$PWD/$F/cgroup" --by cgroup --svg /nonexistent/dir/x.svg
code 100 "missing output folder" compare "$PWD/$F/cgroup" --by cgroup --flamegraph /nonexistent/dir/x.svg
code 100 "missing output folder" check "$PWD/config/jobs/netperf-sctp.yaml" --plans /nonexistent/dir/plans

# a path through a loop of symbolic links, a name too long: bad input too
ln -s loop-b "$T/loop-a"
ln -s loop-a "$T/loop-b"
long=$(printf 'x%.0s' $(seq 1 300))
code 100 "a symlink loop" compare loop-a loop-a
code 100 "a symlink loop" check loop-a/job.yaml
code 100 "a symlink loop" collect loop-a -o out
code 100 "a name too long" check "$long.yaml"
code 100 "a name too long" compare "$long" "$long"

# a malformed job or argument
code 100 "malformed job" build bad.yaml
code 100 "malformed job" check bad.yaml
code 100 "malformed job" lava bad.yaml
code 100 "malformed job" run bad.yaml
code 100 "malformed argument" collect zeros.img -o out --max-file-size lots
code 100 "malformed argument" compare "$PWD/$F/cgroup" --a cgroup
code 100 "malformed argument" mkdisk x.img --size lots
code 100 "malformed argument" run bad.yaml --cpus none
code 100 "malformed argument" build --name x --level 99
code 100 "malformed argument" lava bad.yaml --cpus none
code 100 "malformed argument" bisect bad.yaml --kernels kernels.txt --alpha 2
printf 'a /nonexistent/vmlinuz\n' >"$T/one.txt"
code 100 "malformed kernels file" bisect bad.yaml --kernels one.txt

# a folder or a file that holds no results
code 100 "not a results disk" collect zeros.img -o out
code 100 "a folder, not a results disk" collect folder -o out
code 100 "no results in the log" collect --console zeros.img -o out
code 100 "a folder without results" compare folder folder
code 100 "a file, not a results folder" compare zeros.img zeros.img
code 100 "a folder, not a job" check folder
code 100 "a folder, not a job" run folder

# an unknown option
for verb in bisect build check collect compare kernel lava mkdisk run version; do
	code 100 "unknown option" $verb --no-such-option
	expect_grep "benchboot $verb: unknown option --no-such-option" "$T/err"
done

# a step of git bisect run never exits 100 (git would read it as "new"): 128, abort
code 128 "a step: unknown option" bisect-step --state st --kernel x --no-such-option
code 128 "a step: no state" bisect-step --state st --kernel /nonexistent/vmlinuz

# a failure of the system is not bad input
set +e
"$BENCHBOOT" compare "$F/cgroup" --by cgroup >/dev/full 2>"$T/err"
rc=$?
set -e
expect_eq "compare to a full disk: exit code (stderr: $(cat "$T/err"))" "$rc" 111
