# shellcheck shell=bash
# Shared helpers for the test-VM harness: dependencies, cache layout, kernel and perf builds.
# Sourced by scripts/*; every build product lives under $MLX5_DIAG_CACHE, never in the repo.

MLX5_DIAG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MLX5_DIAG_CACHE=${MLX5_DIAG_CACHE:-/var/cache/mlx5-diag}
KSRC_PKG=linux-source-6.12
KSRC_TARBALL=/usr/src/linux-source-6.12.tar.xz
JOBS=$(nproc)

# python3-dev: perf's build finds its Python through python3-config;
# libjson-c-dev: mlx5-diag reads DOCA's data-ID files with json-c;
# libprotobuf-c-dev, protobuf-c-compiler: it writes Perfetto traces with
# protobuf-c; protobuf-compiler: the decoder's tests read them with protoc;
# libcairo2-dev: mlx5-diag plot draws with cairo; poppler-utils and
# chromium: its tests read its PDF with pdfinfo and its SVG in a browser;
# libmicrohttpd-dev: the exporter's HTTP server; prometheus (promtool) and
# python3-prometheus-client (an OpenMetrics parser): the host tests check
# the exporter's expositions with them.
HOST_PKGS="build-essential bc bison flex libelf-dev libssl-dev dwarves cpio kmod
busybox-static qemu-system-x86 pkg-config python3-dev libtraceevent-dev libdw-dev
libzstd-dev zlib1g-dev liblzma-dev sparse clang libclang-rt-14-dev $KSRC_PKG
gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user python3-docutils libjson-c-dev libprotobuf-c-dev
protobuf-c-compiler protobuf-compiler libcairo2-dev poppler-utils chromium
libmicrohttpd-dev prometheus python3-prometheus-client"
# Debian's arm64 -dev packages of the arm64 user space's sysroot
# (arm64_sysroot): what the static perf links on x86 too (libelf, libdw and
# its compressors, libcrypto, libtraceevent) and what the static mlx5-diag
# links (json-c, protobuf-c, cairo and its dependencies).
ARM64_SYSROOT_PKGS="libelf-dev libdw-dev zlib1g-dev liblzma-dev libzstd-dev libbz2-dev
libssl-dev libtraceevent-dev libjson-c-dev libprotobuf-c-dev libcairo2-dev
libpixman-1-dev libfontconfig-dev libexpat1-dev libfreetype-dev libpng-dev libbrotli-dev"
# One id for a top-level command and every script it starts (apt_update_once).
export MLX5_DIAG_RUN=${MLX5_DIAG_RUN:-$$.$(date +%s)}

log() { echo "[mlx5-diag +${SECONDS}s] $*" >&2; }
die() { echo "error: $*" >&2; exit 1; }

. "$MLX5_DIAG_ROOT/scripts/lib-debian.sh"

# Install the Debian packages named in $@ that are missing (needs root, as the README says).
ensure_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages (run as root to install): ${missing[*]}"
	log "installing: ${missing[*]}"
	# with the package lists as they are, else once more after their update
	apt_install "${missing[@]}" 2>/dev/null || { apt_update_once && apt_install "${missing[@]}"; } ||
		die "cannot install ${missing[*]}"
}

apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

ensure_host_deps() {
	# shellcheck disable=SC2086
	ensure_pkgs $HOST_PKGS
}

ksrc_version() { dpkg-query -W -f='${Version}' "$KSRC_PKG"; }

# Unpacked kernel source, shared by every config built from it.
ksrc_dir() { echo "$MLX5_DIAG_CACHE/src-$(ksrc_version)"; }

kernel_key() {
	{ ksrc_version; gcc --version | head -1; cat "$MLX5_DIAG_ROOT"/scripts/kconfig/*.config; } |
		sha256sum | cut -c1-16
}

kernel_dir() { echo "$MLX5_DIAG_CACHE/kernel-$(kernel_key)"; }

# perf is built from the same source with the patch series of
# tools/perf-decoder/perf, linking the decoder library of tools/perf-decoder/lib.
perf_key() {
	{ ksrc_version; gcc --version | head -1
	  cat "$MLX5_DIAG_ROOT"/scripts/build-perf \
	      "$MLX5_DIAG_ROOT"/tools/perf-decoder/perf/*.patch \
	      "$MLX5_DIAG_ROOT"/tools/perf-decoder/Makefile \
	      "$MLX5_DIAG_ROOT"/tools/perf-decoder/lib/* \
	      "$MLX5_DIAG_ROOT"/include/uapi/linux/mlx5_diag.h; } |
		sha256sum | cut -c1-16
}

# perf_bin [ARCH SYSROOT]: x86's perf, or arm64's.
perf_bin() { echo "$(arch_dir perf "$(perf_key)" "$@")/perf"; }

# arch_dir NAME KEY [ARCH [SYSROOT]]: the cache directory of build NAME for
# x86 (NAME-KEY), or for ARCH (arm64, cross-built, against SYSROOT when it
# links the sysroot's libraries: arm64_sysroot), keyed also by the cross
# compiler and the sysroot: NAME-ARCH-<key>.
arch_dir() {
	if [ "${3:-x86}" = x86 ]; then
		echo "$MLX5_DIAG_CACHE/$1-$2"
	else
		echo "$MLX5_DIAG_CACHE/$1-$3-$({ echo "$2"; aarch64-linux-gnu-gcc --version | head -1
			[ -z "${4:-}" ] || basename "$4"; } | sha256sum | cut -c1-16)"
	fi
}

# libperf (with libapi) for the mlx5-diag CLI, from the same source;
# libperf_dir [ARCH]: x86's, or arm64's (cross-built).
libperf_dir() {
	arch_dir libperf "$({ ksrc_version; gcc --version | head -1; } | sha256sum | cut -c1-16)" "$@"
}

# libmicrohttpd for the static mlx5-diag (the exporter's HTTP server):
# Debian's source of the libmicrohttpd-dev the host has, built without
# HTTPS (Debian's libmicrohttpd.a needs GnuTLS, whose p11-kit Debian ships
# no static library of); keyed by that version and the compiler.
libmicrohttpd_version() { dpkg-query -W -f='${Version}' libmicrohttpd-dev; }

libmicrohttpd_dir() {
	arch_dir libmicrohttpd "$({ libmicrohttpd_version; gcc --version | head -1; } |
		sha256sum | cut -c1-16)" "$@"
}

# The static mlx5-diag CLI: keyed by libperf, libmicrohttpd and its own
# sources (the .def tables and the Perfetto .proto with them);
# mlx5_diag_bin [ARCH SYSROOT]: x86's, or arm64's against SYSROOT.
mlx5_diag_bin() {
	local key
	key=$({ basename "$(libperf_dir "${1:-x86}")"; basename "$(libmicrohttpd_dir "${1:-x86}")"
		cd "$MLX5_DIAG_ROOT" &&
		find tools/perf-decoder/lib tools/perf-decoder/mlx5-diag include/uapi \
			-maxdepth 1 -type f \( -name '*.[ch]' -o -name '*.mk' -o -name '*.proto' \
			-o -name '*.def' \) |
			sort |
			xargs sha256sum; } | sha256sum | cut -c1-16)
	echo "$(arch_dir mlx5-diag "$key" "$@")/mlx5-diag"
}

# cache_lock NAME: until the script ends, hold the cache (shared with the
# other builds; scripts/clean-cache takes it whole) and build NAME alone
# (other runs of the same build wait: they find it built). Builds of
# different names run at once.
cache_lock() {
	mkdir -p "$MLX5_DIAG_CACHE"
	exec 9>"$MLX5_DIAG_CACHE/.lock"
	flock -s 9
	exec 6>"$MLX5_DIAG_CACHE/.lock-$1"
	flock 6
}

# ksrc_unpack: the kernel source unpacked into ksrc_dir, once (the test
# kernel, perf, libperf read it).
ksrc_unpack() {
	local src
	src=$(ksrc_dir)
	[ -f "$src/.unpacked" ] && return 0
	(
		cache_lock src
		if [ ! -f "$src/.unpacked" ]; then
			log "unpacking $KSRC_TARBALL"
			rm -rf "$src"
			mkdir -p "$src"
			tar -xaf "$KSRC_TARBALL" -C "$src" --strip-components=1
			touch "$src/.unpacked"
		fi
	)
}

# Copy the working tree's sources into $1: what git tracks and the new
# files it does not ignore, as they are now (edits included), never build
# output, which other steps may be writing meanwhile (the host tests'
# tools/perf-decoder/build: tar of a file that grows fails).
copy_tree() {
	git -C "$MLX5_DIAG_ROOT" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			# a tracked file deleted in the working tree is not copied
			if [ -e "$MLX5_DIAG_ROOT/$f" ]; then
				printf '%s\0' "$f"
			fi
		done |
		tar -C "$MLX5_DIAG_ROOT" --null -T - -cf - | tar -C "$1" -xf -
}

# Build the modules against kernel build dir $1 (make -j$JOBS) in a private
# copy of what the build reads (Kbuild, Makefile, drivers/, include/,
# without what .gitignore names: concurrent runs and the developer's tree
# stay clean, and files that other steps write meanwhile, such as the host
# tests' under tools/, are not copied); prints the copy's path. Extra make
# arguments follow. The build log is in <copy>/build.log.
build_modules() {
	local kdir=$1 copy
	shift
	copy=$(mktemp -d /tmp/mlx5-diag-build.XXXXXX)
	tar -C "$MLX5_DIAG_ROOT" -X "$MLX5_DIAG_ROOT/.gitignore" -cf - Kbuild Makefile drivers include |
		tar -C "$copy" -xf - || die "copying the module sources into $copy failed"
	if ! make -C "$kdir" M="$copy" -j"$JOBS" "$@" modules >"$copy/build.log" 2>&1; then
		cat "$copy/build.log" >&2
		die "module build against $kdir failed"
	fi
	echo "$copy"
}

# The modules for the test kernel, built once for three uses: with W=1 for
# check-builds (build.log), sparse for check-style (sparse.log, apart from
# the compiler's warnings) and the .ko files for the VM. Prints the copy's
# path; run-tests passes it on as MLX5_DIAG_MODULES.
build_test_modules() {
	local kdir sparse copy
	kdir=$("$MLX5_DIAG_ROOT/scripts/build-kernel") || return 1
	sparse=$(mktemp /tmp/mlx5-diag-sparse.XXXXXX)
	copy=$(SPARSE_LOG=$sparse build_modules "$kdir" W=1 C=1 \
		CHECK="$MLX5_DIAG_ROOT/scripts/sparse-logged") || { rm -f "$sparse"; return 1; }
	mv "$sparse" "$copy/sparse.log"
	echo "$copy"
}

# Lines of a kernel log that mean the run must fail: reports of BUG (soft
# lockups and workqueue stalls among them), WARN, KASAN, UBSAN, lockdep,
# sleeping in atomic context, debugobjects, kmemleak (a leak, or kmemleak
# switching itself off), RCU stalls and hung tasks, and any backtrace (x86's
# "Call Trace", arm64's "Call trace").
SPLAT_RE='BUG:|WARNING:|KASAN|UBSAN|possible circular locking|inconsistent lock state|possible recursive locking|sleeping function called from invalid context|scheduling while atomic|Kernel panic|general protection fault|Oops|Call [Tt]race|suspected memory leak|Kernel memory leak detector disabled|ODEBUG|detected (expedited )?stall|blocked for more than'

# free_port: a TCP port of the loopback that nothing listens on now
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Copy a dynamically linked binary and the libraries it loads into root $2 as $3.
install_with_libs() {
	local bin=$1 root=$2 dest=$3 lib
	install -D -m755 "$bin" "$root$dest"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m755 "$lib" "$root$lib"
	done
}

# Copy a dynamically linked binary of another architecture and the
# libraries it loads, found by their ELF names (DT_NEEDED, and the program
# interpreter) among the unpacked packages under $2, into root $3 as $4.
install_foreign_with_libs() {
	local bin=$1 from=$2 root=$3 dest=$4 todo name path interp lib
	install -D -m755 "$bin" "$root$dest"
	interp=$(readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -z "$interp" ] || install -D -m755 "$(readlink -f "$from$interp")" "$root$interp"
	todo=$bin
	while [ -n "$todo" ]; do
		read -r path todo <<<"$todo"
		for name in $(readelf -d "$path" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			lib=$(find "$from/lib" "$from/usr/lib" -name "$name" -print -quit 2>/dev/null)
			[ -n "$lib" ] || die "$(basename "$bin") loads $name: not under $from"
			[ ! -e "$root${lib#"$from"}" ] || continue
			install -D -m755 "$(readlink -f "$lib")" "$root${lib#"$from"}"
			todo="$todo $lib"
		done
	done
}
