import Testing
@testable import TrackConfig

/// Raspberry Pi Imager's OS customisation, as its customisation generator writes it (rpi-imager's
/// src/customization_generator.cpp), read as data: cloud-init's files (Imager 2) and firstrun.sh (Imager 1).
struct ImagerCustomisationTests {
    static let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx1Hx0V2qWnQm6l3b5c1O3F8y1oJmA0sQ9uV2xYzT7k anna@laptop"
    /// The key Imager derives from the passphrase (PBKDF2), as it writes it: 64 hex digits.
    static let psk = "3c1ba9e2a86c7d3bd1ab8e7b0b3e6f4f0fcb1a7b2d5c1d6e9c8b7a6f5e4d3c2b"

    static let userData = """
        #cloud-config
        manage_resolv_conf: false

        hostname: car-ab123
        manage_etc_hosts: true
        packages:
        - avahi-daemon

        apt:
          preserve_sources_list: true
          conf: |
            Acquire {
              Check-Date "false";
            };

        timezone: Europe/Berlin
        keyboard:
          model: pc105
          layout: "de"
        user:
          name: anna
          shell: /bin/bash
          lock_passwd: false
          passwd: "$5$kT7w$9wI0Qm7xGxJ2"
          ssh_authorized_keys:
            - "\(key)"
          sudo: null

        ssh_pwauth: false

        runcmd:
          - [ systemctl, enable, --now, ssh ]

        """

    static let networkConfig = """
        network:
          version: 2
          ethernets:
            eth0:
              dhcp4: true
              dhcp6: true
              optional: true
          wifis:
            wlan0:
              dhcp4: true
              regulatory-domain: "DE"
              access-points:
                "Office Net":
                  password: "\(psk)"
              optional: true

        """

    static let firstRun = """
        #!/bin/sh

        set +e

        CURRENT_HOSTNAME=$(cat /etc/hostname | tr -d " \\t\\n\\r")
        if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
           /usr/lib/raspberrypi-sys-mods/imager_custom set_hostname car-ab123
        else
           echo car-ab123 >/etc/hostname
           sed -i "s/127.0.1.1.*$CURRENT_HOSTNAME/127.0.1.1\\tcar-ab123/g" /etc/hosts
        fi
        FIRSTUSER=$(getent passwd 1000 | cut -d: -f1)
        FIRSTUSERHOME=$(getent passwd 1000 | cut -d: -f6)
        if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
           /usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k '\(key)'
        else
           install -o "$FIRSTUSER" -m 700 -d "$FIRSTUSERHOME/.ssh"
        cat > "$FIRSTUSERHOME/.ssh/authorized_keys" <<'EOF'
        \(key)
        EOF
           chown "$FIRSTUSER:$FIRSTUSER" "$FIRSTUSERHOME/.ssh/authorized_keys"
           chmod 600 "$FIRSTUSERHOME/.ssh/authorized_keys"
           echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config
           systemctl enable ssh
        fi
        if [ -f /usr/lib/userconf-pi/userconf ]; then
           /usr/lib/userconf-pi/userconf 'anna' '$5$kT7w$9wI0Qm7xGxJ2'
        else
           echo "$FIRSTUSER:$5$kT7w$9wI0Qm7xGxJ2" | chpasswd -e
        fi
        if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ] && true; then
           /usr/lib/raspberrypi-sys-mods/imager_custom set_wlan 'Office Net' '\(psk)' 'DE'
        else
        cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'
        country=DE
        ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev
        ap_scan=1

        update_config=1
        network={
        \tssid="Office Net"
        \tkey_mgmt=WPA-PSK SAE
        \tpsk=\(psk)
        \tieee80211w=1
        }
        WPAEOF
           chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf
        fi
        if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then
           /usr/lib/raspberrypi-sys-mods/imager_custom set_keymap 'de'
           /usr/lib/raspberrypi-sys-mods/imager_custom set_timezone 'Europe/Berlin'
        else
           rm -f /etc/localtime
           echo "Europe/Berlin" >/etc/timezone
           dpkg-reconfigure -f noninteractive tzdata
        fi
        rm -f /boot/firstrun.sh
        sed -i 's| systemd.run.*||g' /boot/cmdline.txt
        exit 0

        """

    @Test func cloudInitGivesTheNetworkToJoinItsCountryTheTimeZoneAndTheKeyAndSaysWhatItLeaves() throws {
        let found = try ImagerCustomisation.cloudInit(userData: Array(Self.userData.utf8),
                                                      networkConfig: Array(Self.networkConfig.utf8)).get()
        #expect(found.wifiName?.value == "Office Net")
        #expect(found.wifiPassword?.value == Self.psk)
        #expect(found.wifiPassword.map { ($0.file, $0.line) }! == ("network-config", 14))
        #expect(found.country?.value == "DE")
        #expect(found.timeZone?.value == "Europe/Berlin")
        #expect(found.timeZone.map { ($0.file, $0.line) }! == ("user-data", 16))
        #expect(found.sshKeys.map(\.value) == [Self.key])
        #expect(found.unused.count == 3, "\(found.unused)")
        #expect(found.unused.contains { $0.contains("user anna") && $0.contains("no passwords") })
        #expect(found.unused.contains { $0.contains("host name") })
        #expect(found.unused.contains { $0.contains("keyboard") })
        #expect(found.files == ["user-data", "network-config", "meta-data"])
    }

    @Test func firstRunScriptIsReadNotRunAndGivesTheSameAsCloudInit() throws {
        let script = ImagerCustomisation.firstRun(Array(Self.firstRun.utf8))
        let cloud = try ImagerCustomisation.cloudInit(userData: Array(Self.userData.utf8),
                                                      networkConfig: Array(Self.networkConfig.utf8)).get()
        #expect(script.wifiName?.value == cloud.wifiName?.value)
        #expect(script.wifiPassword?.value == cloud.wifiPassword?.value)
        #expect(script.country?.value == cloud.country?.value)
        #expect(script.timeZone?.value == cloud.timeZone?.value)
        // The key twice in the script (imager_custom's and the fallback's): taken once.
        #expect(script.sshKeys.map(\.value) == [Self.key])
        #expect(script.unused.count == 3, "\(script.unused)")
        #expect(script.files == ["firstrun.sh"])
    }

    @Test func aWpaSupplicantBlockAloneGivesAHexNameAndSaysAnOpenNetworkIsNotJoined() {
        // What Imager writes where imager_custom cannot take the name (bytes that are not shell-safe): ssid as hex.
        let named = ImagerCustomisation.firstRun(Array("""
            cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'
            country=gb
            network={
            \tssid=436166c3a9
            \tpsk=\(Self.psk)
            }
            WPAEOF
            """.utf8))
        #expect(named.wifiName?.value == "Café")
        #expect(named.country?.value == "GB")
        let open = ImagerCustomisation.firstRun(Array("""
            cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'
            network={
            \tssid="Free Wifi"
            \tkey_mgmt=NONE
            }
            WPAEOF
            """.utf8))
        #expect(open.wifiName == nil)
        #expect(open.unused == ["firstrun.sh: the open network Free Wifi (no password) is not joined"])
    }

    @Test func aUserDataThatIsNotYAMLIsAProblemNamingItsFile() {
        let result = ImagerCustomisation.cloudInit(userData: Array("timezone: [Europe/Berlin\n".utf8), networkConfig: nil)
        guard case .failure(.problems(let problems)) = result else {
            Issue.record("read as \(result)")
            return
        }
        #expect(problems.count == 1)
        #expect(problems.first?.file == "user-data")
        #expect(problems.first?.description.hasPrefix("user-data (Raspberry Pi Imager's): not YAML") == true)
    }

    @Test func setupLinesNameWhereEachValueCameFrom() throws {
        let found = try ImagerCustomisation.cloudInit(userData: Array(Self.userData.utf8),
                                                      networkConfig: Array(Self.networkConfig.utf8)).get()
        let (text, origins) = found.setupLines
        #expect(String(decoding: text, as: UTF8.self) == """
            known_wifi_name = "Office Net"
            known_wifi_password = "\(Self.psk)"
            country = "DE"
            time_zone = "Europe/Berlin"
            ssh_key = "\(Self.key)"

            """)
        #expect(origins[4].map { ($0.file, $0.line) }! == ("user-data", 16))
    }

    @Test func shellWordsTakeQuotesAndEscapesAsShDoes() {
        #expect(ShellWords.split(#"a 'b c' "d \"e\"" f\ g"#) == ["a", "b c", #"d "e""#, "f g"])
        #expect(ShellWords.split("  ") == [])
    }
}
