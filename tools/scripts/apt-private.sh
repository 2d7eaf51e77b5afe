# shellcheck shell=bash
# Private apt configuration for benchboot's pinned inputs.
#
# Sourced by tools/scripts/lock and tools/scripts/fetch. Everything apt writes (lists, archives, the sources
# list itself) stays under $BB_APT; the mirror URI is read from the machine's own apt
# configuration, so no host name is ever written into the project. Nothing outside $CACHE is
# written, and no other host is contacted.

: "${CACHE:=${BENCHBOOT_CACHE:-$HOME/.cache/benchboot}}"
BB_APT="$CACHE/apt"

# Binary packages come from Debian 12 (with its updates and security suites, for the kernel);
# sources from Debian 12 main (e2fsprogs) and Debian 13 main (netperf with SCTP). stress-ng
# and the libraries it needs (glibc among them) come from Debian testing ($BB_SNG_SUITE): the
# stressors LKP's jobs name are newer than Debian 12's stress-ng, and the mirror serves no
# stress-ng source to build. That suite is pinned below the others (priority 100): only a
# resolution asked for with -t $BB_SNG_SUITE takes packages from it.
BB_SNG_SUITE="forky"
BB_BIN_SUITES="bookworm bookworm-updates $BB_SNG_SUITE"
BB_SEC_SUITES="bookworm-security"
BB_SRC_SUITES="bookworm trixie"

bb_die() {
	echo "benchboot: fatal: $*" >&2
	exit 111
}

# Print the first Debian mirror URI found in the machine's apt sources (deb822 or one-line).
bb_mirror_uri() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return 0; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "${uri%/}"; return 0; }
	done
	return 1
}

bb_security_uri() {
	local f uri
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		uri=$(grep -v '^[[:space:]]*#' "$f" | grep -o '[a-z]*://[^ ]*security[^ ]*' | head -n1)
		[ -n "$uri" ] && { echo "${uri%/}"; return 0; }
	done
	return 1
}

# Write the private sources list and config; set BB_APT_OPTS for apt-get/apt-cache.
bb_apt_setup() {
	command -v apt-get >/dev/null ||
		bb_die "apt-get not found: benchboot fetches its pinned inputs with apt (Debian or a derivative is needed)"
	local mirror sec
	mirror=$(bb_mirror_uri) ||
		bb_die "no Debian mirror found in /etc/apt/sources.list or /etc/apt/sources.list.d: configure apt first"
	sec=$(bb_security_uri || true)
	mkdir -p "$BB_APT/lists/partial" "$BB_APT/archives/partial" "$BB_APT/etc/preferences.d" \
		"$BB_APT/etc/apt.conf.d" "$BB_APT/etc/sources.list.d"
	{
		local s
		for s in $BB_BIN_SUITES; do
			echo "deb $mirror $s main"
		done
		if [ -n "$sec" ]; then
			for s in $BB_SEC_SUITES; do
				echo "deb $sec $s main"
			done
		fi
		for s in $BB_SRC_SUITES; do
			echo "deb-src $mirror $s main"
		done
	} >"$BB_APT/etc/sources.list.new"
	mv "$BB_APT/etc/sources.list.new" "$BB_APT/etc/sources.list"
	printf 'Package: *\nPin: release n=%s\nPin-Priority: 100\n' "$BB_SNG_SUITE" \
		>"$BB_APT/etc/preferences.d/benchboot-stress-ng"
	: >"$BB_APT/status"
	BB_APT_OPTS=(
		-o "Dir::Etc=$BB_APT/etc"
		-o "Dir::Etc::sourcelist=$BB_APT/etc/sources.list"
		-o "Dir::Etc::sourceparts=$BB_APT/etc/sources.list.d"
		-o "Dir::Etc::preferencesparts=$BB_APT/etc/preferences.d"
		-o "Dir::Etc::parts=$BB_APT/etc/apt.conf.d"
		-o "Dir::Etc::trusted=/etc/apt/trusted.gpg"
		-o "Dir::Etc::trustedparts=/etc/apt/trusted.gpg.d"
		-o "Dir::State=$BB_APT"
		-o "Dir::State::lists=$BB_APT/lists"
		-o "Dir::State::status=$BB_APT/status"
		-o "Dir::Cache=$BB_APT/cache"
		-o "Dir::Cache::archives=$BB_APT/archives"
		-o "APT::Get::AllowUnauthenticated=false"
		-o "APT::Install-Recommends=false"
		-o "APT::Sandbox::User=root"
		-o "Debug::NoLocking=true"
		-o "Acquire::Languages=none"
	)
	mkdir -p "$BB_APT/cache"
}

# Refresh the private package lists (network).
bb_apt_update() {
	apt-get "${BB_APT_OPTS[@]}" -q update >"$BB_APT/update.log" 2>&1 ||
		bb_die "apt-get update through the machine's mirror failed (see $BB_APT/update.log)"
	if grep -q '^[WE]:' "$BB_APT/update.log"; then
		grep '^[WE]:' "$BB_APT/update.log" >&2
		bb_die "apt-get update reported errors (see $BB_APT/update.log); the deb-src or suite may not be served by this mirror"
	fi
}
