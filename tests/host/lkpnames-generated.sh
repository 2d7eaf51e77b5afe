# lib/host/job/generated/lkpnames.c is what `make lkp-keys` (tools/scripts/gen-lkp-keys) makes
# of intel/lkp-tests at the commit the file names. LKP's tree is not here offline, so the test
# regenerates from what it can reach: the committed file itself. It builds a git directory laid
# out as LKP's (programs/NAME/{run,setup,daemon,monitor}, the options as `# - OPTION` lines of a
# program's script, the other keys as top-level keys of a job file) holding the file's names,
# runs the make rule on it and compares byte for byte, the commit the generator names put back
# to the committed one. That proves the file is the generator's output (its order, format and
# header, no name the generator would have left out, nothing edited by hand); it cannot prove
# that no name of LKP's is missing: with LKP_GIT_DIR set to a git directory of intel/lkp-tests,
# the test also regenerates from it at the committed commit and compares byte for byte. The
# check is run on two spoilt copies as well (two programs swapped, an option twice) and must
# refuse both: a check that cannot fail proves nothing.
. tests/lib.sh
GEN_TARGET=lkp-keys GEN_OUT_VAR=LKPNAMES GEN_COMMIT_VAR=LKP_COMMIT
. tests/host/src/lkp-generated.sh
gen_setup lib/host/job/generated/lkpnames.c bb_lkp_commit

# fake_lkp FILE DIR: a git directory DIR laid out as LKP's, with FILE's names
fake_lkp() {
	local file=$1 dir=$2
	mkdir -p "$dir"
	git -C "$dir" init -q
	python3 - "$file" "$dir" <<'EOF'
import os, re, sys
text, dir = open(sys.argv[1]).read(), sys.argv[2]
def table(name):
    m = re.search(r"^const [^\n]*\b%s\[\] = \{\n(.*?)^\};" % name, text, re.M | re.S)
    if not m:
        sys.exit("no table %s" % name)
    return m.group(1).splitlines()
script = {"WORKLOAD": "run", "SETUP": "setup", "DAEMON": "daemon", "MONITOR": "monitor"}
programs = []
for line in table("bb_lkp_programs"):
    m = re.fullmatch(r'    \{"([^"]+)", BB_LKP_([A-Z]+)\},', line)
    if not m or m.group(2) not in script:
        sys.exit("not a program line: %r" % line)
    os.makedirs(os.path.join(dir, "programs", m.group(1)), exist_ok=True)
    open(os.path.join(dir, "programs", m.group(1), script[m.group(2)]), "w").write("#!/bin/sh\n")
    programs.append(m.group(1))
def names(t):
    out = []
    for line in table(t):
        m = re.fullmatch(r'    "([^"]+)",', line)
        if not m:
            sys.exit("not a name line in %s: %r" % (t, line))
        out.append(m.group(1))
    return out
# the options: `# - OPTION` lines of the first program's script
first = os.path.join(dir, "programs", programs[0])
with open(os.path.join(first, os.listdir(first)[0]), "a") as f:
    for o in names("bb_lkp_options"):
        f.write("# - %s\n" % o)
os.makedirs(os.path.join(dir, "jobs"), exist_ok=True)
with open(os.path.join(dir, "jobs", "keys.yaml"), "w") as f:
    for k in names("bb_lkp_keys"):
        f.write("%s: 1\n" % k)
EOF
	gen_commit_fake "$dir"
}

# check_names FILE: 0 when FILE is what make lkp-keys makes of its own names
check_names() {
	local d
	d=$(mktemp -d "$T/check.XXXXXX")
	fake_lkp "$1" "$d/lkp" >"$d/fake.log" 2>&1 || { cat "$d/fake.log"; return 1; }
	gen_regenerate "$1" "$d/lkp" "$d/generated"
}

check_names "$committed" || fail "$committed is not what tools/scripts/gen-lkp-keys makes (make lkp-keys)"
echo "$committed: LKP $commit, $(grep -c 'BB_LKP_[A-Z]*},' "$committed") programs, as generated"

gen_from_lkp

# the check refuses a committed file whose programs are out of order...
awk '/^    \{"aim7", / { held = $0; next } { print } held && /^    \{"aim9", / { print held; held = "" }' \
	"$committed" >"$T/swapped.c"
gen_refuses check_names "$T/swapped.c" "programs out of order"
# ...and one with an option twice
awk '{ print } /^const char \*const bb_lkp_options\[\] = \{$/ { getline; print; print }' \
	"$committed" >"$T/twice.c"
gen_refuses check_names "$T/twice.c" "an option twice"
echo "lkpnames-generated ok"
