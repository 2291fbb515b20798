#!/usr/bin/env bash
# The VM device rig: real kernel drivers for tests on a machine without camera or sound card.
#
# Boots Debian's own kernel (package linux-image-amd64) under qemu with software emulation,
# loads `vivid` (a virtual webcam: /dev/video0), `v4l2loopback` (a camera whose frames a program
# writes: /dev/video1 to /dev/video6, fed MJPEG by ffmpeg like a USB webcam; built here from Debian's
# v4l2loopback-dkms source against that kernel's headers) and `snd-aloop` (a loopback sound card:
# what is played on hw:Loopback,0,N is captured on hw:Loopback,1,N), shares this machine's root
# read-only over 9p and chroots into it — so the binaries built here run unchanged — and runs one
# command. A second 9p share carries its output back. The machine's own disk, for a power cut: a
# raw image named by $CRAVEY_VM_DISK is its /dev/vda (ext4, FAT and exFAT can be mounted, loop
# devices made); a command that cuts the power (`echo b > /proc/sysrq-trigger`, the machine gone
# at once, nothing synced) first leaves RESULTS/cut, and the run counts as finished.
#
#   Tests/vm/rig.sh prepare                    download and build the kernel + initramfs (cached)
#   Tests/vm/rig.sh run RESULTS -- CMD [ARGS]  boot, run CMD inside (cwd: this repository), write
#                                              RESULTS/output.log and RESULTS/status; exits with
#                                              CMD's status. CMD sees /dev/video0, hw:Loopback,
#                                              a writable $TMPDIR and $HOME (tmpfs on /dev/shm),
#                                              tmux's and X's socket directories, and
#                                              $CRAVEY_VM_RESULTS (= RESULTS), where host-pace
#                                              says each second how much CPU the host gave the
#                                              machine and how much went to other work (pace.py),
#                                              and where its checks (ffprobe, ffmpeg, the phrase
#                                              check) run on the host (host-checks.py, checks/).
#
# Needs root (9p passthrough, apt-get). Fails loudly, never skips, when the VM cannot boot.
# The cache is ${CRAVEY_VM_CACHE:-~/.cache/cravey-vm/recipe-N}, a folder for each recipe of the
# machine (below), so rigs of two recipes can run side by side; nothing is downloaded but Debian
# packages.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# Bump when the initramfs recipe below changes, so cached images are rebuilt.
recipe=8
cache=${CRAVEY_VM_CACHE:-${HOME:-/root}/.cache/cravey-vm/recipe-$recipe}
memory=${CRAVEY_VM_MEMORY:-2048}
# A run is given 30 minutes before it counts as hung: software emulation runs several times slower
# while the host's two cores are busy with other work (the device suite took 25 minutes beside the
# rest of the suite, stress-ng --cpu 1 and four other builds), and the whole test run must still
# end well inside CI's 90 minutes.
timeout_s=${CRAVEY_VM_TIMEOUT:-1800}

die() { echo "vm rig: $*" >&2; exit 3; }

need_packages() {
  local missing=()
  for p in qemu-system-x86 busybox-static cpio kmod v4l-utils make gcc-12; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die "cannot install ${missing[*]}"
  fi
}

# The modules the guest loads, in the order given (dependencies are resolved by modprobe).
modules=(virtio_pci 9pnet_virtio 9p vivid snd-aloop virtio_blk loop crc32c_generic ext4 vfat exfat nls_cp437 nls_ascii nls_utf8)
# vivid as a webcam: one device, video capture only, one webcam input.
vivid_options="n_devs=1 node_types=0x1 num_inputs=1 input_types=0x0"
# v4l2loopback as webcams /dev/video1 … /dev/video6, each showing only its capture side once a
# writer has started. Six, because a node takes a writer once per boot (v4l2loopback 0.12 refuses a
# second writer's format on a node that has been a camera): each test feeds a node of its own.
loopback_options="devices=6 video_nr=1,2,3,4,5,6 exclusive_caps=1,1,1,1,1,1 card_label=$(printf 'Loopback-MJPEG-Webcam%.0s,' 1 2 3 4 5)Loopback-MJPEG-Webcam"

# Builds v4l2loopback for the guest's kernel into the initramfs: Debian's headers for that kernel,
# its kbuild tools and the v4l2loopback-dkms source, unpacked (not installed) and built as an
# external module. Loaded last: it needs only videodev, which vivid's chain loads.
build_loopback() {
  local version=$1 root=$2 kbuild=$cache/kbuild
  local abi=${version%-amd64} series=${version%%-*}
  series=${series%.*}  # 6.1.0 → 6.1
  rm -rf "$kbuild" && mkdir -p "$kbuild/root"
  (cd "$kbuild" && apt-get download "linux-headers-$version" "linux-headers-$abi-common" "linux-kbuild-$series" \
    v4l2loopback-dkms >/dev/null 2>&1) || die "apt-get download of linux-headers-$version and v4l2loopback-dkms failed"
  for deb in "$kbuild"/*.deb; do dpkg-deb -x "$deb" "$kbuild/root"; done
  local headers=$kbuild/root/usr/src/linux-headers-$version src
  # The headers' Makefile includes the common part from /usr/src: point it at the unpacked copy.
  echo "include $kbuild/root/usr/src/linux-headers-$abi-common/Makefile" > "$headers/Makefile"
  src=$(ls -d "$kbuild"/root/usr/src/v4l2loopback-* | head -1)
  make -s -C "$headers" M="$src" modules > "$kbuild/build.log" 2>&1 \
    || die "building v4l2loopback failed: $(tail -n 5 "$kbuild/build.log")"
  cp "$src/v4l2loopback.ko" "$root/modules/v4l2loopback.ko"
  echo v4l2loopback.ko >> "$root/modules/order"
}

prepare() {
  need_packages
  mkdir -p "$cache"
  local meta version deb
  meta=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/.*Depends: \(linux-image-[0-9].*\)/\1/p' | head -1)
  if [ -z "$meta" ]; then apt-get update -qq; meta=$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: \(linux-image-[0-9].*\)/\1/p' | head -1); fi
  [ -n "$meta" ] || die "apt knows no linux-image-amd64 (is Debian's main archive configured?)"
  version=${meta#linux-image-}
  local ready="$cache/ready-$version-$recipe"
  if [ -f "$ready" ]; then echo "$version"; return; fi
  echo "vm rig: preparing kernel $version (once; cached in $cache)" >&2
  rm -rf "$cache/pkg" "$cache/initramfs" && mkdir -p "$cache/pkg" "$cache/initramfs"
  (cd "$cache" && rm -f linux-image-*.deb && apt-get download "$meta" >/dev/null 2>&1) || die "apt-get download $meta failed"
  deb=$(ls "$cache"/linux-image-*.deb | head -1)
  dpkg-deb -x "$deb" "$cache/pkg"
  cp "$cache/pkg/boot/vmlinuz-$version" "$cache/vmlinuz"
  depmod -b "$cache/pkg" "$version"

  local root=$cache/initramfs
  mkdir -p "$root"/{bin,dev,proc,sys,host,results,modules}
  cp /bin/busybox "$root/bin/busybox"
  # Each module's dependency chain, in load order, without duplicates.
  : > "$root/modules/order"
  for m in "${modules[@]}"; do
    modprobe -d "$cache/pkg" -S "$version" --show-depends "$m" | awk '$1 == "insmod" {print $2}' | while read -r ko; do
      name=$(basename "$ko")
      grep -qx "$name" "$root/modules/order" && continue
      cp "$ko" "$root/modules/$name"
      echo "$name" >> "$root/modules/order"
    done
  done
  build_loopback "$version" "$root"
  cat > "$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
ifconfig lo 127.0.0.1 up   # Foundation's run loop needs the loopback interface
for ko in \$(cat /modules/order); do
  case \$ko in
    vivid.ko*) insmod /modules/\$ko $vivid_options ;;
    v4l2loopback.ko) insmod /modules/\$ko $loopback_options ;;
    *) insmod /modules/\$ko ;;
  esac || echo "rig: cannot load \$ko"
done
# The host's root is read-only and does not change while the machine runs: cached in the guest
# (cache=loose), so a program's pages are read over 9p once, not at every page fault of every run
# (a debug cravey --version: 13 s uncached, 1.7 s cached, emulated on a busy host).
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose hostroot /host || { echo "rig: no host root"; poweroff -f; }
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 results /results || { echo "rig: no results share"; poweroff -f; }
mount -t devtmpfs dev /host/dev; mount -t proc proc /host/proc; mount -t sysfs sys /host/sys
mkdir -p /host/dev/pts; mount -t devpts -o ptmxmode=0666 devpts /host/dev/pts   # pseudo-terminals (script, tmux)
# Scratch space on /dev/shm, not over /tmp: the repository itself may live under /tmp.
mount -t tmpfs -o mode=1777 shm /host/dev/shm; mkdir -p /host/dev/shm/rig /host/dev/shm/tmp /host/dev/shm/home
chmod 1777 /host/dev/shm/tmp
mount --bind /results /host/dev/shm/rig
echo "rig: devices ready" > /results/booted
chroot /host /bin/sh /dev/shm/rig/command.sh > /results/output.log 2>&1
echo \$? > /results/status
sync
poweroff -f
INIT
  chmod +x "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1 > "$cache/initramfs.cpio.gz")
  rm -f "$cache"/ready-*
  touch "$ready"
  echo "$version"
}

run() {
  local results=$1; shift
  [ "${1:-}" = "--" ] && shift
  [ $# -gt 0 ] || die "usage: rig.sh run RESULTS -- CMD [ARGS]"
  [ "$(id -u)" -eq 0 ] || die "needs root (9p passthrough of the host root)"
  prepare >/dev/null
  mkdir -p "$results"
  results=$(cd "$results" && pwd)
  rm -f "$results/booted" "$results/status" "$results/cut" "$results/output.log" "$results/host-pace"
  rm -rf "$results/checks"
  local disk=()
  if [ -n "${CRAVEY_VM_DISK:-}" ]; then
    [ -f "$CRAVEY_VM_DISK" ] || die "no disk image at $CRAVEY_VM_DISK"
    # writeback: what the machine wrote reaches the image; what it held in its own memory does not.
    disk=(-drive "file=$CRAVEY_VM_DISK,if=virtio,format=raw,cache=writeback")
  fi
  # X servers (Xvfb, for the recording's preview window) put their sockets in /tmp/.X11-unix and
  # their compiled keymaps in /var/lib/xkb: the VM mounts a tmpfs of its own on each, over the
  # read-only share of this machine's root.
  mkdir -p /tmp/.X11-unix && chmod 1777 /tmp/.X11-unix
  {
    echo "cd $(printf '%q' "$repo") || exit 90"
    echo "mount -t tmpfs -o mode=1777 x11 /tmp/.X11-unix"
    echo "[ -d /var/lib/xkb ] && mount -t tmpfs xkb /var/lib/xkb"
    echo "export HOME=/dev/shm/home TMPDIR=/dev/shm/tmp TMUX_TMPDIR=/dev/shm/tmp PATH=$(printf '%q' "$PATH") CRAVEY_VM_RESULTS=/dev/shm/rig CRAVEY_IN_VM=1 CRAVEY_TRANSCRIBE=$(printf '%q' "${CRAVEY_TRANSCRIBE:-}") CRAVEY_UNDER_TEST=$(printf '%q' "${CRAVEY_UNDER_TEST:-}")"
    printf '%q ' "$@"; echo
  } > "$results/command.sh"
  local start=$SECONDS
  # qemu runs under `timeout`, in a process group of its own: stopping the rig (a signal, or the
  # test run's own limit) stops that group, so no qemu outlives it.
  timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m "$memory" -smp 2 -nographic -no-reboot \
    -kernel "$cache/vmlinuz" -initrd "$cache/initramfs.cpio.gz" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    -virtfs "local,path=$results,mount_tag=results,security_model=none,multidevs=remap" "${disk[@]}" \
    > "$results/console.log" 2>&1 < /dev/null &
  qemu=$!
  # What the host gives the emulated machine, second by second, in its results share
  # ($CRAVEY_VM_RESULTS/host-pace inside): a camera test tells a starved machine from dropped frames.
  python3 "$here/pace.py" "$qemu" "$results/host-pace" 2>/dev/null &
  # The checking programs the tests inside start, run out here: a program's start costs the
  # emulated machine seconds (host-checks.py says how much).
  python3 "$here/host-checks.py" "$qemu" "$results/checks" "$repo" 2>/dev/null &
  trap 'kill -TERM -- "-$qemu" 2>/dev/null || kill -TERM "$qemu" 2>/dev/null || true' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  trap 'exit 129' HUP
  wait "$qemu" || true
  trap - EXIT INT TERM HUP
  [ -f "$results/booted" ] || die "the VM did not boot (see $results/console.log):
$(tail -n 20 "$results/console.log")"
  if [ ! -f "$results/status" ] && [ -f "$results/cut" ]; then
    echo "vm rig: the power was cut, as the command asked, after $((SECONDS - start)) s (boot included)" >&2
    cat "$results/output.log"
    return 0
  fi
  [ -f "$results/status" ] || die "the command did not finish in the VM (timeout ${timeout_s}s?); console:
$(tail -n 20 "$results/console.log")
its output so far:
$(tail -n 60 "$results/output.log" 2>/dev/null)"
  echo "vm rig: ran in $((SECONDS - start)) s (boot included)" >&2
  cat "$results/output.log"
  return "$(cat "$results/status")"
}

case "${1:-}" in
  prepare) prepare ;;
  run) shift; run "$@" ;;
  *) echo "usage: $0 prepare | run RESULTS -- CMD [ARGS]" >&2; exit 2 ;;
esac
