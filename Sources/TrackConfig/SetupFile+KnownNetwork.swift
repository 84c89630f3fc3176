import TrackCore

extension SetupFile {
    /// The interface the board joins the known network on: a second interface of the access point's radio (the Pi's
    /// Broadcom radio, like mac80211's, runs one access point and one station at once, on one channel).
    public static let stationInterface = "wlan0sta"

    /// wpa_supplicant's configuration for the known network (the office's, home), or `nil` when the file gives none.
    ///
    /// The name goes in as hex, so that no character of it is read as wpa_supplicant's syntax. A passphrase is
    /// quoted (wpa_supplicant takes it to the line's last quote, so a quote inside it is kept) and allows WPA3 (SAE)
    /// where the network and the radio have it, WPA2 otherwise; a key of 64 hex digits (Raspberry Pi Imager's) is
    /// WPA2's own and goes in bare. While the network is out of reach the board looks for it less and less often (3 s,
    /// then three times longer each time, at most every 5 minutes): each look takes the radio off the car's channel
    /// for a moment.
    public func knownNetworkConfiguration() -> String? {
        guard let wifi = knownWiFi else { return nil }
        let regulatory = country.map { "country=\($0)\n" } ?? ""
        let isKey = wifi.passphrase.count == 64 && wifi.passphrase.allSatisfy(\.isHexDigit)
        let security = isKey
            ? "key_mgmt=WPA-PSK WPA-PSK-SHA256\n    psk=\(wifi.passphrase.lowercased())"
            : "key_mgmt=WPA-PSK WPA-PSK-SHA256 SAE\n    psk=\"\(wifi.passphrase)\""
        return """
            # trackd's card image: the known network the board joins beside the car's Wi-Fi, written by trackctl setup
            # apply from trackd-setup.txt. Not to be edited here: the next setup file replaces it.
            ctrl_interface=/run/wpa_supplicant
            \(regulatory)autoscan=exponential:3:300
            network={
                ssid=\(Self.hex(wifi.name))
                scan_ssid=1
                \(security)
                ieee80211w=1
            }

            """
    }

    /// systemd-networkd's configuration of the station interface: an address from the known network's DHCP server,
    /// its routes below any other's; the name by mDNS is avahi's, so networkd's own is off.
    public static func knownNetwork() -> String {
        """
        # trackd's card image: the known network, the board's side (trackctl setup apply).
        [Match]
        Name=\(stationInterface)

        [Network]
        DHCP=yes
        MulticastDNS=no
        LLMNR=no

        [DHCPv4]
        RouteMetric=600

        """
    }

    /// The board's host name: `trackd-` and the plate (its letters and digits, small, dashes between), so that boards
    /// on one network (the office's) each have their own, `trackd-PLATE.local` by mDNS; `trackd` without a plate. On the
    /// car's Wi-Fi the board is `trackd.local` too (the image's `trackctl setup name`).
    public var hostName: String {
        var slug = ""
        for scalar in (plate ?? "").lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        // A DNS label: at most 63 bytes.
        let name = slug.isEmpty ? "trackd" : "trackd-" + slug.prefix(56)
        return name.hasSuffix("-") ? String(name.dropLast()) : name
    }

    /// `name`'s bytes as lower-case hex digits.
    static func hex(_ name: String) -> String {
        name.utf8.map { $0.hexDigits.lowercased() }.joined()
    }
}
