# shellcheck shell=bash
# Debian 12 chroots for scripts/check-install and scripts/fresh-check. A
# debootstrap'd bookworm is kept in the cache; every use runs in an overlay
# on top of it (or of a layer made from it) inside a private mount namespace,
# so nothing it does reaches the layer below or the host, and its mounts go
# away with it. Sourced after lib.sh.

CHROOT_DIR=$MLX5_DIAG_CACHE/chroot

# Run CMD... as root in ROOT (a directory) with /proc, /sys, /dev and a
# fresh /tmp and /run. With WORK (a directory on a disk, not an overlay),
# ROOT is the lower layer of an overlay whose changes go to WORK/upper.
#   chroot_run ROOT WORK|"" CMD...
chroot_run() {
	local root=$1 work=$2
	shift 2
	[ -z "$work" ] || mkdir -p "$work/upper" "$work/work" "$work/root"
	# shellcheck disable=SC2016
	unshare --mount --propagation private bash -euc '
		root=$1 work=$2
		shift 2
		if [ -n "$work" ]; then
			mount -t overlay overlay \
				-o "lowerdir=$root,upperdir=$work/upper,workdir=$work/work" "$work/root"
			root=$work/root
		fi
		mount -t proc proc "$root/proc"
		mount -t sysfs sysfs "$root/sys"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		mount -t tmpfs tmpfs "$root/run"
		rm -f "$root/etc/resolv.conf"
		cp /etc/resolv.conf "$root/etc/resolv.conf"
		exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
	' chroot_run "$root" "$work" "$@"
}

# Remove a chroot_run WORK directory (its mounts are gone with the namespace).
chroot_clean() {
	rm -rf --one-file-system "$1"
}

# A minimal Debian 12 as debootstrap makes it (required and important
# packages), with the standard sources: bookworm, bookworm-updates and
# bookworm-security, main. Prints its directory; made once.
bookworm_base() {
	local base=$CHROOT_DIR/bookworm-base mirror security tmp
	if [ ! -f "$base/.done" ]; then
		mkdir -p "$CHROOT_DIR"
		exec 7>"$CHROOT_DIR/.lock"
		flock 7
		if [ ! -f "$base/.done" ]; then
			ensure_pkgs debootstrap
			mirror=$(apt_suite_uri bookworm)
			security=$(apt_suite_uri bookworm-security)
			security=${security:-$DEBIAN_SECURITY_DEFAULT}
			tmp=$base.tmp
			rm -rf --one-file-system "$tmp" "$base"
			log "debootstrap bookworm into $base (a few minutes, once)"
			debootstrap bookworm "$tmp" "$mirror" >"$CHROOT_DIR/debootstrap.log" 2>&1 ||
				{ tail -20 "$CHROOT_DIR/debootstrap.log" >&2; die "debootstrap failed"; }
			printf 'deb %s %s main\n' "$mirror" bookworm "$mirror" bookworm-updates \
				"$security" bookworm-security >"$tmp/etc/apt/sources.list"
			mv "$tmp" "$base"
			touch "$base/.done"
		fi
		exec 7>&-
	fi
	echo "$base"
}

# The directory of the install layer for the kernel images " linux-image-<rel>=<version>...".
install_layer_dir() {
	echo "$CHROOT_DIR/install-$(echo "$1" | sha256sum | cut -c1-16)"
}

# A layer for scripts/check-install: bookworm_base with Debian's stock
# kernels PICK... installed (each "REL VER IMAGE" as stock_pick gives it:
# as on a machine that runs them; no initramfs; the image signed or not),
# then what the install guide has the user install: dkms and the kernels'
# headers. Prints its directory; made once per set of kernel versions.
install_layer() {
	local base dir pick rel ver img images="" headers=""
	base=$(bookworm_base) || exit 1
	for pick in "$@"; do
		read -r rel ver img <<<"$pick"
		images="$images $img=$ver"
		headers="$headers linux-headers-$rel=$ver"
	done
	dir=$(install_layer_dir "$images")
	if [ ! -f "$dir/.done" ]; then
		exec 7>"$CHROOT_DIR/.lock"
		flock 7
		if [ ! -f "$dir/.done" ]; then
			log "preparing a chroot with$images (once)"
			rm -rf --one-file-system "$dir.tmp" "$dir"
			cp -a "$base" "$dir.tmp"
			# shellcheck disable=SC2016
			chroot_run "$dir.tmp" "" env DEBIAN_FRONTEND=noninteractive INITRD=No sh -c '
				apt-get update -q && apt-get install -y -q $1 && apt-get install -y -q $2
				' sh "$images" "dkms$headers" >"$CHROOT_DIR/install-layer.log" 2>&1 ||
				{ tail -30 "$CHROOT_DIR/install-layer.log" >&2; die "chroot preparation failed"; }
			mv "$dir.tmp" "$dir"
			touch "$dir/.done"
		fi
		exec 7>&-
	fi
	echo "$dir"
}
