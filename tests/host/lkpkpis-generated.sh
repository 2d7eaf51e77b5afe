# lib/host/job/generated/lkpkpis.c is what `make lkp-kpis` (tools/scripts/gen-lkp-kpis) makes of
# intel/lkp-tests at the commit it names. Offline, the test rebuilds LKP's two files
# (etc/index-perf-all.yaml, etc/index-latency-all.yaml) from the committed table in a git
# directory, runs the make rule on it and compares byte for byte: the file is the generator's
# output, in LKP's order (which decides: the first pattern that matches wins), nothing edited by
# hand. With LKP_GIT_DIR set to a git directory of intel/lkp-tests it also regenerates from
# LKP itself at the committed commit. Spoilt copies must be refused.
. tests/lib.sh
GEN_TARGET=lkp-kpis GEN_OUT_VAR=LKPKPIS GEN_COMMIT_VAR=LKP_KPIS_COMMIT
. tests/host/src/lkp-generated.sh
gen_setup lib/host/job/generated/lkpkpis.c bb_lkp_kpis_commit

# check_kpis FILE: 0 when FILE is what make lkp-kpis makes of LKP's files rebuilt from it
check_kpis() {
	local file=$1 d fake
	d=$(mktemp -d "$T/check.XXXXXX")
	mkdir -p "$d/lkp/etc"
	git -C "$d/lkp" init -q
	python3 - "$file" "$d/lkp/etc" <<'PY' || return 1
import re, sys
files = {"BB_KPI_PERF": "index-perf-all.yaml", "BB_KPI_LATENCY": "index-latency-all.yaml"}
out = {k: open("%s/%s" % (sys.argv[2], v), "w") for k, v in files.items()}
for line in open(sys.argv[1]):
    m = re.fullmatch(r'    \{"((?:[^"\\]|\\.)*)", (-?[0-9.]+), (BB_KPI_[A-Z]+)\},\n', line)
    if m:
        pattern = re.sub(r"\\(.)", r"\1", m.group(1))
        out[m.group(3)].write("%s: %s\n" % (pattern, m.group(2)))
PY
	gen_commit_fake "$d/lkp"
	gen_regenerate "$file" "$d/lkp" "$d/generated"
}

check_kpis "$committed" || fail "$committed is not what tools/scripts/gen-lkp-kpis makes (make lkp-kpis)"
n=$(grep -c 'BB_KPI_[A-Z]*},' "$committed")
[ "$n" -ge 200 ] || fail "$committed holds $n KPIs; LKP's two files hold over 200"
echo "$committed: LKP $commit, $n KPIs, as generated"

gen_from_lkp

# the check refuses a copy edited by hand: a KPI written in another form, a comment changed
# (an order changed by hand it cannot see: the order is LKP's, only LKP_GIT_DIR checks it)
sed 's/^    {"aim7\\\\.jobs-per-min", 1, BB_KPI_PERF},$/    { "aim7\\\\.jobs-per-min", 1, BB_KPI_PERF },/' \
	"$committed" >"$T/spaced.c"
gen_refuses check_kpis "$T/spaced.c" "a KPI written by hand"
sed 's/Do not edit: regenerate/Edit freely/' "$committed" >"$T/comment.c"
gen_refuses check_kpis "$T/comment.c" "its comment changed"
echo "lkpkpis-generated ok"
