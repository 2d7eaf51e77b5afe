# shellcheck shell=bash
# What the tests of LKP's generated tables share (tests/host/lkpnames-generated.sh,
# lkpkpis-generated.sh). Each sets, before it sources this:
#   GEN_TARGET   the make rule (lkp-keys)        GEN_OUT_VAR  its output variable (LKPNAMES)
#   GEN_COMMIT_VAR  its commit variable (LKP_COMMIT)
#
# gen_setup FILE SYMBOL: committed=FILE and commit=the LKP commit its SYMBOL names (skip
#   without git or python3)
# gen_regenerate FILE LKPDIR OUT: make GEN_TARGET from the git directory LKPDIR (a copy of
#   LKP's layout the test built from FILE), the commit it names put back to the committed one;
#   0 when that is FILE byte for byte, else says where it differs.
gen_regenerate() {
	local file=$1 lkp=$2 out=$3 fake
	make -s B="$B" "$GEN_TARGET" LKP_GIT_DIR="$lkp" "$GEN_COMMIT_VAR=HEAD" "$GEN_OUT_VAR=$out.c" \
		>"$out.log" 2>&1 || { cat "$out.log"; echo "make $GEN_TARGET failed"; return 1; }
	fake=$(git -C "$lkp" rev-parse HEAD | cut -c1-12)
	sed "s/$fake/$commit/g" "$out.c" >"$out.back.c"
	diff -u "$file" "$out.back.c" >"$out.diff" ||
		{ echo "$file differs from what make $GEN_TARGET makes of it:"; head -20 "$out.diff"; return 1; }
}

# gen_commit_fake LKPDIR: commit what the test wrote into the git directory LKPDIR
gen_commit_fake() {
	git -C "$1" add -A
	git -C "$1" -c user.name=benchboot -c user.email=benchboot@localhost commit -q -m fake
}

# gen_from_lkp: with LKP_GIT_DIR set (a git directory of intel/lkp-tests), the committed file is
# what LKP itself gives at the committed commit
gen_from_lkp() {
	[ -n "${LKP_GIT_DIR:-}" ] || return 0
	make -s B="$B" "$GEN_TARGET" LKP_GIT_DIR="$LKP_GIT_DIR" "$GEN_OUT_VAR=$T/lkp.c" >"$T/lkp.log" 2>&1 ||
		{ cat "$T/lkp.log"; fail "make $GEN_TARGET LKP_GIT_DIR=$LKP_GIT_DIR failed"; }
	cmp "$committed" "$T/lkp.c" || fail "$committed differs from what $LKP_GIT_DIR at $commit gives"
	echo "$committed: what $LKP_GIT_DIR at $commit gives"
}

# gen_refuses CHECK SPOILT WHAT: the check function CHECK refuses the spoilt copy SPOILT of the
# committed file (a check that cannot fail proves nothing)
gen_refuses() {
	local check=$1 spoilt=$2 what=$3
	! cmp -s "$spoilt" "$committed" || fail "the spoilt copy ($what) is the same file"
	! "$check" "$spoilt" >"$spoilt.why" || fail "the check passed a file with $what"
	expect_grep "differs from what make $GEN_TARGET makes" "$spoilt.why"
}

gen_setup() {
	command -v git >/dev/null || skip "git is missing"
	command -v python3 >/dev/null || skip "python3 is missing"
	committed=$1
	commit=$(sed -n "s/^const char $2\\[\\] = \"\\(.*\\)\";\$/\\1/p" "$committed")
	[ -n "$commit" ] || fail "$committed names no LKP commit ($2)"
}
