# LAVA: `benchboot lava` writes the definitions of a short netperf job; both flavours pass the
# LAVA server's strict schema; LAVA's dispatcher (lava-run, no server) runs the qemu flavour on a
# QEMU device rendered from LAVA's own device-type templates, and every stat the init measured
# is recorded by LAVA as a passing test case with its measurement and units.
#
# lava-dispatcher and lava-server (whose device-type templates the device is rendered from)
# come from tools/scripts/install-deps (tests/qemu/lava.inc).
. tests/lib.sh
bb_need sysroot kernel init netperf qemu
py=/usr/bin/python3 # LAVA's modules are Debian's: not a pyenv python3 first on PATH
. tests/qemu/lava.inc
types=/usr/share/lava-server/device-types
[ -e "$types/qemu.jinja2" ] || fail "no qemu.jinja2 in $types (lava-server)"

cat >"$T/lava-short.yaml" <<'JOB'
suite: netperf
runtime: 2s
nr_threads: 1
cluster: cs-localhost
netperf:
  test: TCP_STREAM
JOB
"$BENCHBOOT" build -o "$T/img" "$T/lava-short.yaml" >"$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; fail "benchboot build failed"; }
"$BENCHBOOT" lava "$T/lava-short.yaml" --images "$T/img" --url http://lab.invalid/images >"$T/lava.out" ||
	fail "benchboot lava failed"
Q=$T/img/lava-short/lava-qemu.yaml L=$T/img/lava-short/lava-lab.yaml
expect_grep "lava-qemu.yaml" "$T/lava.out"
expect_grep "lava-lab.yaml" "$T/lava.out"
expect_grep "url: 'http://lab.invalid/images/lava-short/vmlinuz'" "$L"

# Both flavours against the server's schema, strictly.
for f in "$Q" "$L"; do
	$py - "$f" >"$T/schema.log" 2>&1 <<'PY' || { cat "$T/schema.log"; fail "$f does not pass LAVA's strict schema"; }
import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])), strict=True)
PY
done
# The check is strict: a key LAVA does not know, in the deploy action, is refused.
sed 's/^- deploy:$/- deploy:\n    no_such_key: 1/' "$Q" >"$T/broken.yaml"
grep -q no_such_key "$T/broken.yaml" || fail "could not make the broken definition"
if $py -c 'import sys, yaml; from lava_common.schemas import validate; validate(yaml.safe_load(open(sys.argv[1])), strict=True)' "$T/broken.yaml" 2>/dev/null; then
	fail "the strict schema accepted an unknown key"
fi

# The QEMU device: LAVA renders the device dictionary with the job's context (as the server
# does), from the device-type templates.
mkdir -p "$T/devices"
echo "{% extends 'qemu.jinja2' %}" >"$T/devices/bb-qemu.jinja2"
$py - "$Q" "$T/devices" "$types" >"$T/device.yaml" 2>"$T/render.log" <<'PY' || { cat "$T/render.log"; fail "rendering the QEMU device failed"; }
import sys, yaml, jinja2.sandbox, jinja2
job = yaml.safe_load(open(sys.argv[1]))
env = jinja2.sandbox.SandboxedEnvironment(loader=jinja2.FileSystemLoader([sys.argv[2], sys.argv[3]]), trim_blocks=True, autoescape=False)
print(env.get_template("bb-qemu.jinja2").render(**job.get("context", {})))
PY
grep -q -- '-enable-kvm' "$T/device.yaml" && fail "the rendered device asks for KVM despite no_kvm: true"
# The lab flavour on LAVA's x86 device type: its iPXE ramdisk commands carry the image's
# command line (context extra_kernel_args).
echo "{% extends 'x86.jinja2' %}" >"$T/devices/bb-x86.jinja2"
$py - "$L" "$T/devices" "$types" >"$T/x86.yaml" 2>"$T/render.log" <<'PY' || { cat "$T/render.log"; fail "rendering an x86 device failed"; }
import sys, yaml, jinja2.sandbox, jinja2
job = yaml.safe_load(open(sys.argv[1]))
env = jinja2.sandbox.SandboxedEnvironment(loader=jinja2.FileSystemLoader([sys.argv[2], sys.argv[3]]), trim_blocks=True, autoescape=False)
dev = yaml.safe_load(env.get_template("bb-x86.jinja2").render(**job.get("context", {})))
cmds = dev["actions"]["boot"]["methods"]["ipxe"]["ramdisk"]["commands"]
print("\n".join(cmds))
PY
expect_grep "^set extraargs $(cat "$T/img/lava-short/cmdline")\( \|\$\)" "$T/x86.yaml"
mkdir -p "$T/prefix"
printf 'prefix: %s/prefix/\n' "$T" >"$T/dispatcher.yaml"

setsid timeout --signal=KILL 900 lava-run --job-id 1 --output-dir "$T/out" --device "$T/device.yaml" \
	--dispatcher "$T/dispatcher.yaml" "$Q" >"$T/lava-run.out" 2>"$T/lava-run.log" </dev/null &
pid=$!
BB_PIDS+=("-$pid")
wait $pid || true
# The log: JSON lines; "target" lines are the console, "results" lines what LAVA recorded.
$py - "$T/lava-run.log" >"$T/check.log" 2>&1 <<'PY' || { tail -n 40 "$T/lava-run.log"; cat "$T/check.log"; fail "LAVA did not record the measured stats"; }
import json, re, sys
signal = re.compile(r"<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=(\S+) RESULT=(pass|fail)( UNITS=(\S+) MEASUREMENT=(\S+))?>")
printed, recorded, job = {}, {}, None
for line in open(sys.argv[1]):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    msg = e.get("msg")
    if e.get("lvl") == "target" and isinstance(msg, str):
        m = signal.search(msg)
        if m and m.group(3):
            printed[m.group(1)] = (m.group(2), m.group(4), float(m.group(5)))
    elif e.get("lvl") == "results" and isinstance(msg, dict):
        if msg.get("definition") == "lava" and msg.get("case") == "job":
            job = msg.get("result")
        # LAVA names a case by a slug of the id and keeps the id itself in extra.
        recorded[(msg.get("extra") or {}).get("test_case_id", msg.get("case"))] = msg
print("job result:", job)
assert job == "pass", "LAVA's job result is %r" % job
assert printed, "no measured stat on the console"
for case, (result, units, value) in sorted(printed.items()):
    r = recorded.get(case)
    assert r, "%s printed but not recorded" % case
    assert r.get("result") == "pass", "%s: %r" % (case, r)
    assert abs(float(r.get("measurement")) - value) <= 1e-6 * max(1.0, abs(value)), "%s: %r vs %r" % (case, r, value)
    assert r.get("units") == units, "%s: units %r vs %r" % (case, r.get("units"), units)
    print("%s: pass %s %s" % (case, r.get("measurement"), r.get("units")))
PY
cat "$T/check.log"
