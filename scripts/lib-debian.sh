# shellcheck shell=bash
# Debian packages the tests use but the host must not install: Debian's stock
# 6.1 and 6.12 kernels (image, modules, headers) and Debian's perf. They are
# fetched with `apt-get download` into $MLX5_DIAG_CACHE/debs and unpacked with
# `dpkg-deb -x` under $MLX5_DIAG_CACHE; nothing of them reaches dpkg's
# database, /boot, /lib/modules or /usr/src. Sourced by lib.sh.

DEBS_DIR=$MLX5_DIAG_CACHE/debs
DEBIAN_SECURITY_DEFAULT=http://deb.debian.org/debian-security/

# The archive URI of an enabled "deb" source with SUITE's main component for
# this architecture, as apt itself parsed sources.list, *.list and deb822
# *.sources (Enabled: no, deb-src and files apt ignores do not count). SUITE
# matches the suite as written or, once its lists are fetched, the codename
# its Release file names (oldstable-security is bookworm-security today).
apt_suite_uri() {
	# shellcheck disable=SC2016
	local fmt='$(TARGET_OF)|$(IDENTIFIER)|$(COMPONENT)|$(ARCHITECTURE)|$(RELEASE)|$(CODENAME)|$(REPO_URI)'
	# without release info: sources not fetched yet; with it: codenames
	{ apt-get indextargets --no-release-info --format "$fmt"
	  apt-get indextargets --format "$fmt"; } |
		awk -F'|' -v s="$1" -v a="$(dpkg --print-architecture)" '
			$1 == "deb" && $2 == "Packages" && $3 == "main" && $4 == a &&
			($5 == s || $6 == s) { print $7; exit }'
}

# Add a one-line source for SUITE (main) at URI, needed for WHAT, unless apt
# already has one. Returns 0 when it added one.
add_apt_suite() {
	local suite=$1 uri=$2 what=$3 dir list
	[ -z "$(apt_suite_uri "$suite")" ] || return 1
	[ "$(id -u)" = 0 ] || die "apt has no source for $suite main; add one: deb $uri $suite main"
	eval "$(apt-config shell dir Dir::Etc::sourceparts/d)"
	list=${dir%/}/mlx5-diag-$suite.list
	echo "deb $uri $suite main" >"$list"
	log "apt had no source for $suite main, needed for $what: added $list ($(cat "$list"))"
}

# The sources the scripts need beside bookworm itself: bookworm-security
# (linux-source-6.12, the 6.12 kernels, the newest 6.1) and bookworm-backports
# (perf 6.12; backports is NotAutomatic, so nothing on the host upgrades to it).
ensure_apt_sources() {
	local main
	main=$(apt_suite_uri bookworm)
	[ -n "$main" ] || die "apt has no source for bookworm main: is this Debian 12?"
	add_apt_suite bookworm-security "$DEBIAN_SECURITY_DEFAULT" \
		"linux-source-6.12 and Debian's 6.12 kernels" || true
	add_apt_suite bookworm-backports "$main" "Debian's perf 6.12" || true
}

# At most one `apt-get update` per top-level command (MLX5_DIAG_RUN, set in
# lib.sh, is inherited by every script it starts); the missing sources are
# added first, so that one update sees them.
apt_update_once() {
	local stamp=$MLX5_DIAG_CACHE/.apt-updated
	[ "$(cat "$stamp" 2>/dev/null)" != "$MLX5_DIAG_RUN" ] || return 0
	[ "$(id -u)" = 0 ] || die "apt's package lists need an update (run as root)"
	ensure_apt_sources
	log "apt-get update"
	apt-get update -q >/dev/null || die "apt-get update failed"
	mkdir -p "$MLX5_DIAG_CACHE"
	echo "$MLX5_DIAG_RUN" >"$stamp"
}

# apt's options (an array) and list update for apt_version_raw and
# deb_fetch: the host's by default; arm64_kdir sets the arm64 ones.
APT_OPTS=()
APT_UPDATE=apt_update_once

# The newest version of PKG whose version starts with PREFIX (default: any)
# in any enabled suite; empty when apt knows none.
apt_version_raw() {
	apt-cache "${APT_OPTS[@]}" madison "$1" 2>/dev/null |
		awk -F'|' -v p="$1" -v v="${2:-}" '{
			gsub(/ /, "", $1); gsub(/ /, "", $2)
			if ($1 == p && index($2, v) == 1) print $2 }' |
		sort -V | tail -1
}

# As apt_version_raw, updating apt's lists once when it knows no such version.
apt_version() {
	local v
	v=$(apt_version_raw "$@")
	if [ -z "$v" ]; then
		apt_update_once
		v=$(apt_version_raw "$@")
	fi
	[ -n "$v" ] || die "apt knows no version ${2:+$2* }of $1"
	echo "$v"
}

# Download PKG (PKG:ARCH for another architecture) at VERSION into $DEBS_DIR
# (once); prints the .deb's path.
deb_fetch() {
	local pkg=$1 ver=$2 arch f tmp
	arch=$(apt-cache "${APT_OPTS[@]}" show "$pkg=$ver" 2>/dev/null | sed -n 's/^Architecture: //p' | head -1)
	[ -n "$arch" ] || die "apt has no $pkg $ver"
	f=$DEBS_DIR/${pkg%:*}_${ver//:/%3a}_$arch.deb
	if [ ! -s "$f" ]; then
		mkdir -p "$DEBS_DIR"
		tmp=$(mktemp -d "$DEBS_DIR/.dl.XXXXXX")
		# _apt downloads into a directory it may write, root keeps the file
		chown _apt "$tmp" 2>/dev/null || true
		if ! (cd "$tmp" && apt-get "${APT_OPTS[@]}" download -q "$pkg=$ver" >"$tmp/log" 2>&1); then
			"$APT_UPDATE"
			(cd "$tmp" && apt-get "${APT_OPTS[@]}" download -q "$pkg=$ver" >"$tmp/log" 2>&1) ||
				{ cat "$tmp/log" >&2; rm -rf "$tmp"; die "cannot download $pkg $ver"; }
		fi
		mv "$tmp/$(basename "$f")" "$f"
		rm -rf "$tmp"
	fi
	echo "$f"
}

# The names in a Depends field on stdin (alternatives and versions
# dropped) that match the extended regex $1.
depends_names() {
	tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep -E "$1" || true
}

# Names in a .deb's Depends field that match the extended regex $2.
deb_depends() {
	dpkg-deb -f "$1" Depends | depends_names "$2"
}

# What a stock kernel's headers depend on that is fetched with them: the
# -common headers and the kbuild tools.
STOCK_HEADERS_DEPS_RE='^linux-(headers-.*-common|kbuild-.*)$'

# Point the absolute symlinks under ROOT (dpkg-deb -x keeps them as packaged,
# e.g. lib/modules/<rel>/build -> /usr/src/linux-headers-<rel>) into ROOT.
fix_abs_symlinks() {
	local root=$1 l
	find "$root" -type l -lname '/*' -print0 |
		while IFS= read -r -d '' l; do
			ln -sfn "$root$(readlink "$l")" "$l"
		done
}

# The name pattern of Debian's stock kernel packages of SERIES: 6.1
# (bookworm's own, linux-KIND-6.1.0-<abi>-ARCH) or 6.12 (bookworm-security,
# linux-KIND-6.12.<n>+deb12-ARCH), KIND image or headers, ARCH amd64 or
# arm64. The two series cannot match each other's names.
stock_pkg_re() {
	case $1 in
	6.1) echo "^linux-$2-6\.1\.0-[0-9]+-$3\$" ;;
	6.12) echo "^linux-$2-6\.12\.[0-9]+\+deb12-$3\$" ;;
	*) die "no stock kernel series '$1' (6.1 or 6.12)" ;;
	esac
}

# Does apt (with APT_OPTS) know PKG (name:arch) at VERSION?
apt_knows() {
	[ -n "$(apt-cache "${APT_OPTS[@]}" show "$1=$2" 2>/dev/null | sed -n 's/^Version: //p')" ]
}

# stock_pick_raw ARCH SERIES: "REL VER IMAGE" of Debian's newest stock ARCH
# kernel of SERIES that apt can fetch whole at one version VER: the headers
# linux-headers-REL, the -common headers and the host's (amd64) kbuild
# tools they depend on, and an image IMAGE: linux-image-REL or, while that
# signed build lags behind (linux-signed-ARCH is a separate upload that can
# come days after a security release, when the archive holds the headers
# and kbuild of the new version only), linux-image-REL-unsigned, the same
# files unsigned. Empty when apt knows none. Uses APT_OPTS (ARCH's lists).
stock_pick_raw() {
	local arch=$1 re rel ver img dep ok
	re=$(stock_pkg_re "$2" headers "$arch") || exit 1
	for rel in $(apt-cache "${APT_OPTS[@]}" pkgnames linux-headers-6.1 | grep -E "$re" | sort -rV); do
		for ver in $(apt-cache "${APT_OPTS[@]}" madison "$rel" 2>/dev/null |
				awk -F'|' -v p="$rel" '{ gsub(/ /, "", $1); gsub(/ /, "", $2)
					if ($1 == p) print $2 }' | sort -rV); do
			img=linux-image-${rel#linux-headers-}
			apt_knows "$img:$arch" "$ver" || img=$img-unsigned
			apt_knows "$img:$arch" "$ver" || continue
			ok=1
			for dep in $(apt-cache "${APT_OPTS[@]}" show "$rel:$arch=$ver" 2>/dev/null |
					sed -n 's/^Depends: //p' | head -1 |
					depends_names "$STOCK_HEADERS_DEPS_RE"); do
				case $dep in
				*-common) apt_knows "$dep" "$ver" || ok= ;;
				*) apt_knows "$dep:amd64" "$ver" || ok= ;;
				esac
			done
			[ -z "$ok" ] || { echo "${rel#linux-headers-} $ver $img"; return 0; }
		done
	done
}

# As stock_pick_raw, updating the lists once (UPDATE) when apt knows none.
stock_pick() {
	local arch=$1 series=$2 update=$3 pick
	pick=$(stock_pick_raw "$arch" "$series")
	if [ -z "$pick" ]; then
		"$update"
		pick=$(stock_pick_raw "$arch" "$series")
	fi
	[ -n "$pick" ] || die "apt has no Debian $series $arch kernel whose image, headers and kbuild tools are all at one version"
	echo "$pick"
}

# The kernel release of Debian's newest stock amd64 kernel of SERIES that
# can be fetched whole (stock_pick).
stock_release() {
	local pick
	pick=$(stock_pick amd64 "$1" apt_update_once) || exit 1
	echo "${pick%% *}"
}

# debian_once DONE COMMAND...: COMMAND, which unpacks Debian packages into
# the cache, unless the file DONE exists; under the cache's lock of them,
# so that two scripts never unpack the same thing at once. DONE is made
# once COMMAND succeeded.
debian_once() {
	local done=$1
	shift
	[ ! -f "$done" ] || return 0
	mkdir -p "$MLX5_DIAG_CACHE"
	exec 8>"$MLX5_DIAG_CACHE/.lock-debian"
	flock 8
	if [ ! -f "$done" ]; then
		"$@" || exit 1
		touch "$done"
	fi
	exec 8>&-
}

# Unpacked stock kernel of SERIES: ROOT/boot/vmlinuz-<rel>, its modules in
# ROOT/lib/modules/<rel> (with modules.dep), its headers in
# ROOT/usr/src/linux-headers-<rel>. Prints ROOT (one per release and version).
stock_root() {
	local pick rel ver img root
	pick=$(stock_pick amd64 "$1" apt_update_once) || exit 1
	read -r rel ver img <<<"$pick"
	root=$MLX5_DIAG_CACHE/stock/${rel}_$ver
	debian_once "$root/.done" unpack_stock_kernel amd64 "$rel" "$ver" "$root" "$img"
	echo "$root"
}

# Debian's kernel REL at VERSION for ARCH (amd64, arm64) unpacked into ROOT:
# the image IMAGE (vmlinuz and modules, with depmod's indexes), the
# headers, the -common headers of the same version and the host's (amd64)
# kbuild tools they need.
unpack_stock_kernel() {
	local arch=$1 rel=$2 ver=$3 root=$4 img=$5 debs deb pkg
	log "unpacking Debian's $arch kernel $rel ($ver, $img) into $root"
	debs=$(deb_fetch "$img:$arch" "$ver") || exit 1
	deb=$(deb_fetch "linux-headers-$rel:$arch" "$ver") || exit 1
	debs="$debs $deb"
	for pkg in $(deb_depends "$deb" "$STOCK_HEADERS_DEPS_RE"); do
		case $pkg in
		*-common) deb=$(deb_fetch "$pkg" "$ver") || exit 1 ;;
		*) deb=$(deb_fetch "$pkg:amd64" "$ver") || exit 1 ;;
		esac
		debs="$debs $deb"
	done
	[ "$(echo "$debs" | wc -w)" = 4 ] || die "linux-headers-$rel: no -common or kbuild dependency"
	# shellcheck disable=SC2086
	unpack_debs "$root" "$rel" $debs
	[ -f "$root/boot/vmlinuz-$rel" ] || die "linux-image-$rel has no /boot/vmlinuz-$rel"
	depmod -b "$root" "$rel" || die "depmod for $rel failed"
}

# Unpack DEBS... into ROOT afresh, the headers of release REL among them,
# made usable there: absolute symlinks and the arch headers' include of
# the -common Makefile point into ROOT. ROOT/.debs names what it was made
# from (scripts/clean-cache keeps those .debs).
unpack_debs() {
	local root=$1 rel=$2 deb
	shift 2
	rm -rf "$root"
	mkdir -p "$root"
	for deb in "$@"; do
		dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed"
	done
	fix_abs_symlinks "$root"
	sed -i "s|^include /usr/src/|include $root/usr/src/|" \
		"$root/usr/src/linux-headers-$rel/Makefile"
	grep -q "^include $root/" "$root/usr/src/linux-headers-$rel/Makefile" ||
		die "unexpected Makefile in linux-headers-$rel"
	for deb in "$@"; do
		basename "$deb"
	done >"$root/.debs"
}

# The kernel release and the headers build dir of an unpacked stock kernel.
stock_root_release() { basename "$1" | sed 's/_.*//'; }
stock_root_kdir() { echo "$1/usr/src/linux-headers-$(stock_root_release "$1")"; }

# Build dirs of Debian's stock 6.1 and 6.12 headers, one a line.
stock_kdirs() {
	local series root
	for series in 6.1 6.12; do
		root=$(stock_root "$series") || exit 1
		stock_root_kdir "$root"
	done
}

# Debian's own perf of SERIES (default 6.12), unpacked from linux-perf: the
# newest 6.1 (bookworm) or 6.12 (bookworm-backports). The shared libraries it
# loads (its Depends, without the script interpreters) are installed on the
# host, from where they are copied into guests. Prints the binary's path.
debian_perf_bin() {
	local ver dir deb
	ver=$(apt_version linux-perf "${1:-6.12}.") || exit 1
	deb=$(deb_fetch linux-perf "$ver") || exit 1
	dir=$MLX5_DIAG_CACHE/debian-perf/$ver
	debian_once "$dir/.done" unpack_debian_perf "$deb" "$dir"
	# shellcheck disable=SC2046
	ensure_pkgs $(deb_depends "$deb" '^[^:]+$')
	echo "$dir/usr/bin/perf"
}

# Debian's perf (.deb $1) unpacked into directory $2 afresh.
unpack_debian_perf() {
	rm -rf "$2"
	mkdir -p "$2"
	dpkg-deb -x "$1" "$2" || die "dpkg-deb -x $1 failed"
	basename "$1" >"$2/.debs"
}

# arm64 (BlueField-3's Arm cores): Debian's arm64 headers, to cross-build
# the modules. Their package lists (arm64, and amd64 for the matching kbuild
# tools the host runs) live apart from the host's apt state, in
# $APT_ARM64_DIR with an empty dpkg status: the host's dpkg architectures,
# lists and sources stay as they were (the sources are the host's).
APT_ARM64_DIR=$MLX5_DIAG_CACHE/apt-arm64
APT_ARM64_OPTS=(-o APT::Architecture=arm64 -o APT::Architectures::=arm64
	-o APT::Architectures::=amd64
	-o "Dir::State::Lists=$APT_ARM64_DIR/lists"
	-o "Dir::Cache=$APT_ARM64_DIR/cache"
	-o "Dir::State::status=$APT_ARM64_DIR/status")

# The arm64 lists, fetched at most once per top-level command.
apt_arm64_update_once() {
	local stamp=$APT_ARM64_DIR/.updated
	[ "$(cat "$stamp" 2>/dev/null)" != "$MLX5_DIAG_RUN" ] || return 0
	[ "$(id -u)" = 0 ] || die "the arm64 package lists need an update (run as root)"
	ensure_apt_sources
	mkdir -p "$APT_ARM64_DIR/lists/partial" "$APT_ARM64_DIR/cache/archives/partial"
	touch "$APT_ARM64_DIR/status"
	log "apt-get update of the arm64 lists (in $APT_ARM64_DIR)"
	apt-get "${APT_ARM64_OPTS[@]}" update -q >/dev/null || die "apt-get update (arm64) failed"
	echo "$MLX5_DIAG_RUN" >"$stamp"
}

# Debian's stock arm64 kernel of SERIES unpacked, as stock_root does for
# amd64: ROOT/boot/vmlinuz-<rel> (to boot in QEMU), its modules with
# depmod's indexes, its headers and their -common part, and the host's
# (amd64) kbuild tools of the same version (to cross-build against). Prints
# ROOT. Sets APT_OPTS and APT_UPDATE to the arm64 ones: call it in a
# subshell.
arm64_root() {
	local pick rel ver img root
	APT_OPTS=("${APT_ARM64_OPTS[@]}")
	APT_UPDATE=apt_arm64_update_once
	[ -d "$APT_ARM64_DIR/lists" ] || apt_arm64_update_once
	pick=$(stock_pick arm64 "$1" apt_arm64_update_once) || exit 1
	read -r rel ver img <<<"$pick"
	root=$MLX5_DIAG_CACHE/stock-arm64/${rel}_$ver
	debian_once "$root/.done" unpack_stock_kernel arm64 "$rel" "$ver" "$root" "$img"
	echo "$root"
}

# The build dir of Debian's arm64 headers of SERIES (arm64_root).
arm64_kdir() {
	local root
	root=$(arm64_root "$1") || exit 1
	stock_root_kdir "$root"
}

# Debian's arm64 packages PKG... (name or name=version) and the shared
# libraries they load (their lib* and zlib* Depends and Pre-Depends,
# recursively, at apt's candidate versions), unpacked together into a
# directory of the cache named by the packages and versions resolved, for
# a guest: nothing is installed. Prints the directory.
arm64_debs_dir() {
	local specs dir
	APT_OPTS=("${APT_ARM64_OPTS[@]}")
	specs=$(arm64_closure "$@") || exit 1
	dir=$MLX5_DIAG_CACHE/debs-arm64/$(echo "$specs" | sort | sha256sum | cut -c1-16)
	# shellcheck disable=SC2086
	debian_once "$dir/.done" arm64_unpack "$dir" $specs
	echo "$dir"
}

# arm64_candidates PKG...: "PKG|VERSION|DEPENDS" for each arm64 package
# PKG (name, or name=version) the arm64 lists know, at apt's candidate
# version (bookworm's newest, backports aside: they are NotAutomatic),
# DEPENDS its Depends and Pre-Depends. One apt-cache call.
arm64_candidates() {
	local pkg args=()
	for pkg; do
		case $pkg in
		*=*) args+=("${pkg%%=*}:arm64=${pkg#*=}") ;;
		*) args+=("$pkg:arm64") ;;
		esac
	done
	apt-cache "${APT_ARM64_OPTS[@]}" show --no-all-versions "${args[@]}" 2>/dev/null |
		awk -F': ' '
		/^Package: / { p = $2 } /^Version: / { v = $2 }
		/^(Pre-)?Depends: / { d = d "," $2 }
		/^$/ { if (p != "") print p "|" v "|" d; p = ""; d = "" }
		END { if (p != "") print p "|" v "|" d }'
}

# PKG=VERSION of the arm64 packages PKG... (name or name=version) and of
# the lib* and zlib* packages they depend on, recursively: one apt-cache
# call per level of dependencies.
arm64_closure() {
	local seen=" " level show pkg ver deps dep
	[ -d "$APT_ARM64_DIR/lists" ] || apt_arm64_update_once
	level=("$@")
	show=$(mktemp)
	while [ ${#level[@]} != 0 ]; do
		arm64_candidates "${level[@]}" >"$show"
		[ "$(wc -l <"$show")" = ${#level[@]} ] ||
			{ rm -f "$show"; die "apt knows no arm64 version of some of: ${level[*]}"; }
		level=()
		while IFS='|' read -r pkg ver deps; do
			case $seen in *" $pkg "*) continue ;; esac
			seen="$seen$pkg "
			echo "$pkg=$ver"
			for dep in $(echo "$deps" | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g; s/:any$//' |
				grep -E '^(lib|zlib)'); do
				case "$seen ${level[*]} " in *" $dep "*) ;; *) level+=("$dep") ;; esac
			done
		done <"$show"
	done
	rm -f "$show"
}

# Unpack the arm64 (or all) packages PKG=VERSION... into DIR afresh with
# dpkg-deb -x (DIR/.debs names them), their absolute symlinks pointing into
# DIR; the .debs not in $DEBS_DIR yet are fetched with one apt-get download
# through the arm64 lists.
arm64_unpack() {
	local dir=$1 spec deb tmp missing=()
	shift
	log "unpacking $# arm64 packages ($1 ...) into $dir"
	for spec; do
		[ -n "$(arm64_deb "$spec")" ] || missing+=("${spec%%=*}:arm64=${spec#*=}")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		mkdir -p "$DEBS_DIR"
		tmp=$(mktemp -d "$DEBS_DIR/.dl.XXXXXX")
		# _apt downloads into a directory it may write, root keeps the files
		chown _apt "$tmp" 2>/dev/null || true
		(cd "$tmp" && apt-get "${APT_ARM64_OPTS[@]}" download -q "${missing[@]}" >"$tmp/log" 2>&1) ||
			{ cat "$tmp/log" >&2; rm -rf "$tmp"; die "cannot download the arm64 packages ${missing[*]}"; }
		mv "$tmp"/*.deb "$DEBS_DIR/"
		rm -rf "$tmp"
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	for spec; do
		deb=$(arm64_deb "$spec")
		[ -n "$deb" ] || die "apt-get download gave no .deb of $spec"
		dpkg-deb -x "$deb" "$dir" || die "dpkg-deb -x $deb failed"
		basename "$deb" >>"$dir/.debs"
	done
	fix_abs_symlinks "$dir"
}

# The .deb of arm64 (or all) package PKG=VERSION in $DEBS_DIR, named as
# apt-get download names it; empty when there is none.
arm64_deb() {
	local f ver=${1#*=}
	for f in "$DEBS_DIR/${1%%=*}_${ver//:/%3a}"_{arm64,all}.deb; do
		[ ! -s "$f" ] || { echo "$f"; return 0; }
	done
}

# A sysroot of Debian's arm64 libraries for cross-building user space (the
# static perf and mlx5-diag, scripts/build-perf and build-mlx5-diag --arch
# arm64): the -dev packages named in $@ at apt's candidate arm64 version
# (arm64_candidates), from the arm64 lists, unpacked with dpkg-deb
# -x into $MLX5_DIAG_CACHE/sysroot-arm64-<key>, keyed by those packages
# and versions; never installed. The C library is the cross toolchain's
# (libc6-dev-arm64-cross). Prints its path. Sets APT_OPTS and APT_UPDATE to
# the arm64 ones: call it in a subshell.
arm64_sysroot() {
	local pins key root
	APT_OPTS=("${APT_ARM64_OPTS[@]}")
	APT_UPDATE=apt_arm64_update_once
	[ -d "$APT_ARM64_DIR/lists" ] || apt_arm64_update_once
	pins=$(arm64_versions "$@")
	if [ "$(echo "$pins" | wc -w)" != $# ]; then
		apt_arm64_update_once
		pins=$(arm64_versions "$@")
	fi
	[ "$(echo "$pins" | wc -w)" = $# ] || die "apt knows no arm64 version of some of: $*"
	key=$(echo "$pins" | sha256sum | cut -c1-16)
	root=$MLX5_DIAG_CACHE/sysroot-arm64-$key
	# shellcheck disable=SC2086
	debian_once "$root/.done" arm64_unpack "$root" $pins
	echo "$root"
}

# The flags that build against an arm64 sysroot (arm64_sysroot SYSROOT):
# its headers as system headers (arm64_sysroot_cflags SYSROOT), its
# libraries on the link path (arm64_sysroot_ldflags SYSROOT).
arm64_sysroot_cflags() {
	echo "-isystem $1/usr/include -isystem $1/usr/include/aarch64-linux-gnu"
}
arm64_sysroot_ldflags() { echo "-L$1/usr/lib/aarch64-linux-gnu"; }

# PKG=VERSION of each PKG in $@ with an arm64 version in the arm64 lists,
# sorted by name, at apt's candidate version (arm64_candidates).
arm64_versions() {
	arm64_candidates "$@" | awk -F'|' '{ print $1 "=" $2 }' | sort
}
