# What scripts/boot-test and scripts/boot-test-arm64 both do on the host, sourced by them (with $here set).

# build_deb ARCH LOG: `make deb ARCH=ARCH` (the host's architecture or arm64), its output in LOG; deb is then the
# package's path.
build_deb() {
    local version
    make -C "$here" deb ARCH="$1" >"$2" 2>&1 || { tail -30 "$2" >&2; return 1; }
    version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' "$here/Sources/TrackCore/TrackVersion.swift")"
    deb="$here/trackd_${version}_$1.deb"
}

# make_drive FILE: the boot tests' drive (scripts/boot/drive on demo/drive.nmea: the first kilometre, then two hours
# parked) into FILE; gps_date is then its date (RMC's ddmmyy), which check 14 finds as the trip's.
make_drive() {
    perl "$here/scripts/boot/drive" "$here/demo/drive.nmea" 30 153 188 7200 >"$1"
    gps_date="$(awk -F, '/^\$..RMC,/ { d = $10; print "20" substr(d, 5, 2) "-" substr(d, 3, 2) "-" substr(d, 1, 2); exit }' \
        "$1")"
}

# install_checks ROOT: the checks that run inside (scripts/boot/checks and its results.sh) and the alert command
# trackd.conf names (/usr/local/bin/boot-test-alert) into a system's root.
install_checks() {
    mkdir -p "$1/usr/local/lib/boot-test" "$1/usr/local/bin"
    install -m 0755 "$here/scripts/boot/checks" "$1/usr/local/lib/boot-test/checks"
    install -m 0644 "$here/scripts/boot/results.sh" "$1/usr/local/lib/boot-test/results.sh"
    install -m 0755 "$here/scripts/boot/alert" "$1/usr/local/bin/boot-test-alert"
}

# stick_image KIND FILE: a USB stick's filesystem for trackd-stick's checks in FILE (32 MB), labelled TRACKD, of KIND:
# ext4 (with a trackd folder of another user's, uid 1000, 0755, as made on a laptop: trackd-stick must write into
# it), exfat or vfat. mkfs's output goes to FILE.log; 1 when it fails.
stick_image() {
    local tree="$2.tree"
    rm -f "$2" && truncate -s 32M "$2"
    case "$1" in
        ext4) mkdir -p "$tree/trackd" && chown 1000:1000 "$tree/trackd" && chmod 0755 "$tree/trackd" &&
              mkfs.ext4 -q -F -L TRACKD -d "$tree" "$2" ;;
        exfat) mkfs.exfat -L TRACKD "$2" ;;
        vfat) mkfs.vfat -n TRACKD "$2" ;;
        *) echo "no such stick: $1"; false ;;
    esac >"$2.log" 2>&1
}

# check_sticks PATH...: a check, from the host once the system is done with them, that each stick's filesystem (an
# image or its loop device) is clean after the copies: trackd-stick unmounted it before it said the stick can be
# pulled out, and left nothing half written in it.
check_sticks() {
    local path type out rc evidence="" ok=1 command
    [ $# -gt 0 ] || return 0
    for path in "$@"; do
        type="$(blkid -p -o value -s TYPE "$path" 2>/dev/null || true)"
        case "$type" in
            ext4) command=(e2fsck -f -n "$path") ;;
            exfat) command=(fsck.exfat -n "$path") ;;
            vfat) command=(fsck.vfat -n "$path") ;;
            *) command=(false) ;;
        esac
        out="$("${command[@]}" 2>&1)" && rc=0 || rc=$?
        [ "$rc" = 0 ] || ok=0
        evidence+="\$ ${command[*]}   (${type:-no filesystem}; exit $rc)
$(tail -3 <<<"$out")
"
    done
    result "$([ "$ok" = 1 ] && echo PASS || echo FAIL)" \
        "the sticks' filesystems are clean after the copies (fsck -n from the host)" "${evidence%$'\n'}"
}
