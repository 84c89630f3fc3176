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
