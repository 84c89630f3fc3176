import TrackCore

extension SetupFile {
    /// The access point's own address on the car's network; phones get theirs from its DHCP server.
    public static let accessPointAddress = "10.42.0.1"
    /// The radio the access point runs on.
    public static let accessPointInterface = "wlan0"

    /// hostapd's configuration for the car's network: WPA2-Personal (CCMP, protected management frames when the
    /// phone offers them) on channel 6 of 2.4 GHz, which every country allows and every phone and Pi radio has. The
    /// name goes in as hex (`ssid2`), so that no character of it can be read as hostapd's syntax; the passphrase is
    /// printable ASCII (`SetupFile` allows nothing else), which hostapd takes to the end of its line.
    ///
    /// Not WPA3 (SAE): the Raspberry Pi's Broadcom radio (brcmfmac) does not run SAE as an access point with the
    /// firmware Debian ships, and a transition mode it cannot run would keep the network from coming up at all.
    ///
    /// Without a country (a board the file did not set up) no country code is sent: the radio keeps to the world's
    /// common rules, in which channel 6 is allowed.
    public func hostapdConfiguration() -> String? {
        guard let wifi = carWiFi else { return nil }
        let regulatory = country.map { "country_code=\($0)\nieee80211d=1\n" } ?? ""
        return """
            # trackd's card image: the car's Wi-Fi, written by trackctl setup apply from trackd-setup.txt. Not to be
            # edited here: the next setup file replaces it.
            interface=\(Self.accessPointInterface)
            driver=nl80211
            ctrl_interface=/run/hostapd
            ssid2=\(Self.hex(wifi.name))
            utf8_ssid=1
            \(regulatory)hw_mode=g
            channel=6
            ieee80211n=1
            wmm_enabled=1
            auth_algs=1
            ignore_broadcast_ssid=0
            wpa=2
            wpa_key_mgmt=WPA-PSK
            rsn_pairwise=CCMP
            ieee80211w=1
            wpa_passphrase=\(wifi.passphrase)

            """
    }

    /// systemd-networkd's configuration of the access point's interface: its fixed address and a DHCP server for the
    /// phones, which hands out no router and no DNS server (the car's network leads nowhere but to the board; the page
    /// is found by its address or by mDNS, `trackd.local`).
    public static func accessPointNetwork() -> String {
        """
        # trackd's card image: the car's Wi-Fi, the board's side (trackctl setup apply).
        [Match]
        Name=\(accessPointInterface)

        [Network]
        Address=\(accessPointAddress)/24
        DHCPServer=yes
        MulticastDNS=no
        LinkLocalAddressing=no
        IPv6AcceptRA=no

        [DHCPServer]
        PoolOffset=10
        PoolSize=100
        EmitRouter=no
        EmitDNS=no

        """
    }
}
