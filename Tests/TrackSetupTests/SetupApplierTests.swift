import Foundation
import TestSupport
import Testing
import TrackConfig
import TrackCore
@testable import TrackSetup

/// `SetupApplier` on a card folder and a system root of real files: the package's trackd.conf, the system's
/// time-zone database.
struct SetupApplierTests {
    private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx1Hx0V2qWnQm6l3b5c1O3F8y1oJmA0sQ9uV2xYzT7k driver@laptop"

    /// A card (`boot`) and a root with trackd.conf as the package installs it and the time-zone database.
    private final class Board {
        let folder: TemporaryFolder
        let paths: SetupApplier.Paths

        init(repository: URL) throws {
            folder = try TemporaryFolder()
            let files = FileManager.default
            try files.createDirectory(atPath: folder.file("boot"), withIntermediateDirectories: true)
            try files.createDirectory(atPath: folder.file("root/etc/trackd"), withIntermediateDirectories: true)
            try files.createDirectory(atPath: folder.file("root/usr/share"), withIntermediateDirectories: true)
            try files.createSymbolicLink(atPath: folder.file("root/usr/share/zoneinfo"), withDestinationPath: "/usr/share/zoneinfo")
            try files.createSymbolicLink(atPath: folder.file("root/etc/localtime"), withDestinationPath: "/usr/share/zoneinfo/Etc/UTC")
            try files.copyItem(atPath: repository.appendingPathComponent("etc/trackd.conf").path, toPath: folder.file("root/etc/trackd/trackd.conf"))
            paths = SetupApplier.Paths(boot: folder.file("boot"), root: folder.file("root"))
        }

        func run() throws -> SetupApplier.Outcome { try SetupApplier(paths: paths, version: "0.1.0").run() }
        func card(_ text: String) { FileManager.default.createFile(atPath: folder.file("boot/trackd-setup.txt"), contents: Data(text.utf8)) }
        func text(_ path: String) -> String? { FileManager.default.contents(atPath: folder.file(path)).map { String(decoding: $0, as: UTF8.self) } }

        /// Every file under the root and the card, with its bytes (a link: where it points).
        func snapshot() throws -> [String: String] {
            var all: [String: String] = [:]
            let files = FileManager.default
            for top in ["boot", "root"] {
                guard let walker = files.enumerator(atPath: folder.file(top)) else { continue }
                while let name = walker.nextObject() as? String {
                    let path = folder.file("\(top)/\(name)")
                    if let target = try? files.destinationOfSymbolicLink(atPath: path) {
                        all["\(top)/\(name)"] = "-> \(target)"
                        if name == "usr/share/zoneinfo" { walker.skipDescendants() }
                    } else if let data = files.contents(atPath: path) {
                        all["\(top)/\(name)"] = String(decoding: data, as: UTF8.self)
                    }
                }
            }
            return all
        }

        func mode(_ path: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: folder.file(path))[.posixPermissions] as? Int) ?? -1
        }
    }

    private var full: String {
        """
        # trackd setup\r
        car_wifi_name = Car AB-123\r
        car_wifi_password = car-secret-1\r
        country = DE\r
        driver = Jürgen "Jo" Müller\r
        plate = AB-123\r
        company = Example: GmbH\r
        time_zone = Europe/Berlin\r
        receiver = serial:///dev/ttyUSB0?baud=4800\r
        obd = tcp://192.168.0.10:35000\r
        ssh_key = \(key)\r
        owner_code = 4821-7730\r

        """
    }

    @Test func appliesAGoodFileAndLeavesTheCardWithoutItsSecrets() throws {
        let board = try Board(repository: repository)
        board.card(full)
        guard case .applied(let setup, let written) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.plate == "AB-123")
        #expect(written.map { $0.replacingOccurrences(of: board.folder.file("root"), with: "") }
                == ["/etc/trackd/trackd.conf", "/etc/localtime", "/etc/timezone", "/root/.ssh/authorized_keys",
                    "/etc/hostname", "/etc/hosts", "/var/lib/trackd-setup/owner-code", "/etc/hostapd/hostapd.conf", "/var/lib/trackd-setup/car-wifi",
                    "/etc/systemd/network/60-trackd-car-wifi.network", "/var/lib/trackd-setup/setup.txt"])
        #expect(board.text("root/var/lib/trackd-setup/car-wifi") == "Car AB-123\ncar-secret-1\n")
        // The board's name: trackd-PLATE (trackd-ab-123.local by mDNS), in the hosts file too.
        #expect(board.text("root/etc/hostname") == "trackd-ab-123\n")
        #expect(board.text("root/etc/hosts") == "127.0.1.1\ttrackd-ab-123\n")
        #expect(try board.mode("root/var/lib/trackd-setup/car-wifi") == 0o600)
        // The car's Wi-Fi: hostapd's file (root only: it holds the passphrase) and networkd's.
        let hostapd = try #require(board.text("root/etc/hostapd/hostapd.conf"))
        #expect(hostapd.contains("\nssid2=4361722041422d313233\n"), "the name in hex: \(hostapd)")
        #expect(hostapd.contains("\ncountry_code=DE\n") && hostapd.contains("\nwpa_passphrase=car-secret-1\n"))
        #expect(hostapd.contains("\ninterface=wlan0\n") && hostapd.contains("\nwpa=2\n"))
        #expect(try board.mode("root/etc/hostapd/hostapd.conf") == 0o600)
        #expect(board.text("root/etc/systemd/network/60-trackd-car-wifi.network")?.contains("Address=10.42.0.1/24") == true)
        #expect(board.text("root/var/lib/trackd-setup/owner-code") == "4821-7730\n")
        #expect(try board.mode("root/var/lib/trackd-setup/owner-code") == 0o600)

        // trackd reads the configuration as the setup says; the package's comments stay.
        let conf = try #require(board.text("root/etc/trackd/trackd.conf"))
        let settings = EffectiveConfiguration(file: try ConfigurationFile.parse(conf, path: "trackd.conf"), path: "trackd.conf")
        #expect(settings.source == .serial(path: "/dev/ttyUSB0", baud: 4800))
        #expect(settings.obd.adapter == .tcp(host: "192.168.0.10", port: 35000))
        #expect(settings.profile == ProfileChanges(driver: "Jürgen \"Jo\" Müller", plate: "AB-123", company: "Example: GmbH",
                                                   timeZone: "Europe/Berlin", country: "DE"))
        #expect(conf.contains("Check a change with"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: board.folder.file("root/etc/localtime"))
                == "/usr/share/zoneinfo/Europe/Berlin")
        #expect(board.text("root/etc/timezone") == "Europe/Berlin\n")
        #expect(board.text("root/root/.ssh/authorized_keys") == key + "\n")
        #expect(try board.mode("root/root/.ssh/authorized_keys") == 0o600)
        #expect(try board.mode("root/root/.ssh") == 0o700)
        #expect(try board.mode("root/var/lib/trackd-setup/setup.txt") == 0o600)

        // The card: no secret left in the file, the result says what was applied.
        let card = try #require(board.text("boot/trackd-setup.txt"))
        #expect(!card.contains("car-secret-1") && !card.contains("4821-7730"))
        #expect(card.contains("plate = AB-123\r\n"))
        let result = try #require(board.text("boot/trackd-setup-result.txt"))
        #expect(result.hasPrefix("trackd setup: APPLIED\r\n"))
        #expect(result.contains("Car's Wi-Fi:     Car AB-123 (password set)\r\n"))
        #expect(result.contains("Country:         DE (the log follows the rules of Germany)\r\n"))
        #expect(!result.contains("car-secret-1") && !result.contains("4821"), "no secret in the result file")
        #expect(result.contains("Owner code:      the one in the file"))

        // The next boot finds the file handled: nothing is written.
        let before = try board.snapshot()
        #expect(try board.run() == .unchanged)
        #expect(try board.snapshot() == before)
    }

    @Test func refusesAWrongFileChangesNothingAndNamesTheLine() throws {
        let board = try Board(repository: repository)
        board.card(full.replacingOccurrences(of: "car-secret-1", with: "short").replacingOccurrences(of: "DE\r", with: "Germany\r"))
        var before = try board.snapshot()
        guard case .refused(.problems(let problems)) = try board.run() else { Issue.record("not refused"); return }
        #expect(problems.map(\.description) == [
            "line 3 (car_wifi_password): 5 characters; a Wi-Fi password has 8 to 63",
            "line 4 (country): 'Germany' is not a country's two-letter code (ISO 3166: DE, EE, GB, US, FR, …)",
        ])
        var after = try board.snapshot()
        let removed = after.removeValue(forKey: "boot/trackd-setup-result.txt")
        let result = try #require(removed)
        #expect(result.hasPrefix("trackd setup: NOT APPLIED\r\n"))
        #expect(result.contains("  line 3 (car_wifi_password): 5 characters; a Wi-Fi password has 8 to 63\r\n"))
        let hash = after.removeValue(forKey: "root/var/lib/trackd-setup/card.sha256")
        #expect(hash != nil)
        after.removeValue(forKey: "root/var/lib/trackd-setup")
        before.removeValue(forKey: "root/var/lib/trackd-setup")
        // The board's own network, made as with no file at all (the file's "Car AB-123" is not used): the board
        // stays reachable. Besides it, nothing changed.
        let made = after.removeValue(forKey: "root/etc/hostapd/hostapd.conf")
        let hostapd = try #require(made)
        #expect(hostapd.contains("\nssid2=747261636b642d") && !hostapd.contains("4361722041422d313233"), "\(hostapd)")
        let network = after.removeValue(forKey: "root/etc/systemd/network/60-trackd-car-wifi.network")
        #expect(network != nil)
        for folder in ["root/etc/hostapd", "root/etc/systemd", "root/etc/systemd/network"] { after.removeValue(forKey: folder) }
        #expect(after.filter { !$0.key.hasPrefix("root/var") } == before.filter { !$0.key.hasPrefix("root/var") },
                "a refused file changes nothing but the result")
        // Said once: the same wrong file at the next boot writes nothing.
        let said = try board.snapshot()
        #expect(try board.run() == .unchanged)
        #expect(try board.snapshot() == said)
    }

    @Test func aCardEditedAgainIsReadOverWhatTheBoardKept() throws {
        let board = try Board(repository: repository)
        board.card(full)
        _ = try board.run()
        // Back in the laptop: the driver changes the plate in the copy, which has no passwords any more.
        let copy = try #require(board.text("boot/trackd-setup.txt"))
        board.card(copy.replacingOccurrences(of: "plate = AB-123", with: "plate = XY-987"))
        guard case .applied(let setup, _) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.plate == "XY-987")
        #expect(setup.carWiFi == WiFiNetwork(name: "Car AB-123", passphrase: "car-secret-1"))
        #expect(setup.ownerCode == "4821-7730")
        #expect(board.text("root/etc/trackd/trackd.conf")?.contains("  plate: \"XY-987\"\n") == true)
        #expect(board.text("root/var/lib/trackd-setup/setup.txt")?.contains("car_wifi_password = \"car-secret-1\"") == true)
    }

    @Test func aPowerCutBeforeTheFileIsMarkedHandledAppliesItAgainToTheSameFiles() throws {
        let board = try Board(repository: repository)
        board.card(full)
        _ = try board.run()
        let once = try board.snapshot()
        // The cut came after everything was written but before the hash was kept.
        try FileManager.default.removeItem(atPath: board.folder.file("root/var/lib/trackd-setup/card.sha256"))
        guard case .applied = try board.run() else { Issue.record("not applied again"); return }
        #expect(try board.snapshot() == once)
    }

    @Test func noSetupFileIsSaidOnceOnTheCard() throws {
        let board = try Board(repository: repository)
        let conf = board.text("root/etc/trackd/trackd.conf")
        #expect(try board.run() == .missing)
        let result = try #require(board.text("boot/trackd-setup-result.txt"))
        #expect(result.hasPrefix("trackd setup: NO SETUP FILE\r\n"))
        let inode = try FileManager.default.attributesOfItem(atPath: board.folder.file("boot/trackd-setup-result.txt"))[.systemFileNumber] as? Int
        #expect(try board.run() == .missing)
        #expect(try FileManager.default.attributesOfItem(atPath: board.folder.file("boot/trackd-setup-result.txt"))[.systemFileNumber] as? Int == inode,
                "the result file was written again")
        #expect(board.text("root/etc/trackd/trackd.conf") == conf)
    }

    @Test func aBoardWithoutAnOwnerCodeMakesOneAndSaysItUntilOneIsGiven() throws {
        let board = try Board(repository: repository)
        // No file: the board makes a code and a network, and the result file gives them.
        #expect(try board.run() == .missing)
        let network = try #require(board.text("root/var/lib/trackd-setup/made-car-wifi")).split(separator: "\n").map(String.init)
        #expect(board.text("root/var/lib/trackd-setup/car-wifi") == "\(network[0])\n\(network[1])\n")
        #expect(network.count == 2 && network[0].hasPrefix("trackd-") && network[0].count == 11 && network[1].count == 15,
                "\(network)")
        let hostapd = try #require(board.text("root/etc/hostapd/hostapd.conf"))
        #expect(hostapd.contains("\nwpa_passphrase=\(network[1])\n") && !hostapd.contains("country_code"), "\(hostapd)")
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("Car's Wi-Fi:     \(network[0])   password: \(network[1])\r\n") == true)
        let made = try #require(board.text("root/var/lib/trackd-setup/owner-code")).dropLast()
        #expect(made.count == 14 && made.split(separator: "-").map(\.count) == [4, 4, 4]
                && made.allSatisfy { $0.isNumber || $0 == "-" }, "\(made)")
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("Owner code:      \(made)\r\n") == true)
        // A wrong file: nothing applied, and the board's code is still said.
        board.card("plate = AB-123\ndrivr = Ann\n")
        guard case .refused = try board.run() else { Issue.record("not refused"); return }
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("Owner code:      \(made)\r\n") == true)
        // A good file without an owner code keeps the code the board made, and says it.
        board.card("plate = AB-123\n")
        guard case .applied(let setup, _) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.ownerCode == nil)
        #expect(board.text("root/var/lib/trackd-setup/owner-code") == "\(made)\n")
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("Owner code:      \(made)\r\n") == true)
        #expect(board.text("root/var/lib/trackd-setup/setup.txt")?.contains("owner_code") == false)
        #expect(board.text("root/etc/hostapd/hostapd.conf")?.contains("\nwpa_passphrase=\(network[1])\n") == true,
                "the network the board made stays")
        // One given replaces it; the result no longer shows a code.
        board.card("plate = AB-123\nowner_code = Tamm-2026-Car\n")
        guard case .applied = try board.run() else { Issue.record("not applied"); return }
        #expect(board.text("root/var/lib/trackd-setup/owner-code") == "Tamm-2026-Car\n")
        let result = try #require(board.text("boot/trackd-setup-result.txt"))
        #expect(!result.contains("Tamm-2026-Car") && !result.contains(String(made)))
    }

    @Test func aKeyThatAlreadySaysTheSameIsLeftAsItIs() throws {
        let board = try Board(repository: repository)
        // As the card image's configure leaves it: the source set, with a comment.
        let path = board.folder.file("root/etc/trackd/trackd.conf")
        let imageLine = "  source: auto                             # trackd's card image: the receiver it finds"
        let conf = try #require(board.text("root/etc/trackd/trackd.conf"))
            .replacingOccurrences(of: "  # source: gpsd://localhost:2947        # or serial:///dev/gps0?baud=9600, file:///PATH?speed=N, or auto",
                                  with: imageLine)
        #expect(conf.contains(imageLine))
        try Data(conf.utf8).write(to: URL(fileURLWithPath: path))
        board.card("receiver = auto\nobd = none\nplate = AB-123\n")
        guard case .applied = try board.run() else { Issue.record("not applied"); return }
        let after = try #require(board.text("root/etc/trackd/trackd.conf"))
        #expect(after == conf.replacingOccurrences(of: "  # plate: 123 ABC", with: "  plate: \"AB-123\""),
                "only the plate's line changed")
    }

    // Raspberry Pi Imager's customisation, as its generator writes it (ImagerCustomisationTests has it whole).
    private let psk = "3c1ba9e2a86c7d3bd1ab8e7b0b3e6f4f0fcb1a7b2d5c1d6e9c8b7a6f5e4d3c2b"
    private var userData: String {
        "#cloud-config\nmanage_resolv_conf: false\n\nhostname: car-ab123\nmanage_etc_hosts: true\ntimezone: Europe/Berlin\n"
            + "user:\n  name: anna\n  lock_passwd: false\n  passwd: \"$5$kT7w$9wI0\"\n  ssh_authorized_keys:\n"
            + "    - \"\(imagerKey)\"\n  sudo: null\n"
    }
    private func networkConfig(country: String = "DE") -> String {
        "network:\n  version: 2\n  wifis:\n    wlan0:\n      dhcp4: true\n      regulatory-domain: \"\(country)\"\n"
            + "      access-points:\n        \"Office Net\":\n          password: \"\(psk)\"\n      optional: true\n"
    }
    private let imagerKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk3b9Qm2cXo8Vt5nW1sL0aR7eJ4uP6yD3fG9hK2mN8q anna@imager"
    // As raspi-firmware writes it (a space first) and with two spaces inside: kept as they are.
    private let cmdline = " console=serial0,115200  root=PARTUUID=7472616b-02 rw fsck.repair=yes rootwait"

    private func imagerCard(_ board: Board, networkCountry: String = "DE") {
        let files = FileManager.default
        files.createFile(atPath: board.folder.file("boot/user-data"), contents: Data(userData.utf8))
        files.createFile(atPath: board.folder.file("boot/network-config"), contents: Data(networkConfig(country: networkCountry).utf8))
        files.createFile(atPath: board.folder.file("boot/meta-data"), contents: Data("instance-id: rpi-imager-1764851234567\n".utf8))
        files.createFile(atPath: board.folder.file("boot/cmdline.txt"), contents: Data(
            "\(cmdline) cfg80211.ieee80211_regdom=DE ds=nocloud;i=rpi-imager-1764851234567".utf8))
    }

    @Test func imagersCloudInitAloneSetsUpTheBoardAndLeavesTheCardWithoutItsFilesOrBootWords() throws {
        let board = try Board(repository: repository)
        imagerCard(board)
        guard case .applied(let setup, _) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.knownWiFi == WiFiNetwork(name: "Office Net", passphrase: psk))
        #expect(setup.country == "DE")
        #expect(setup.timeZone == "Europe/Berlin")
        #expect(setup.sshKeys == [imagerKey])
        #expect(board.text("root/root/.ssh/authorized_keys") == imagerKey + "\n")
        #expect(board.text("root/etc/timezone") == "Europe/Berlin\n")
        #expect(board.text("root/var/lib/trackd-setup/setup.txt")?.contains("known_wifi_password = \"\(psk)\"") == true)
        // The network to join: wpa_supplicant's file (root only: it holds the key) and networkd's.
        let supplicant = try #require(board.text("root/etc/wpa_supplicant/trackd-known-wifi.conf"))
        #expect(supplicant.contains("ssid=4f6666696365204e6574\n") && supplicant.contains("psk=\(psk.lowercased())\n"),
                "\(supplicant)")
        #expect(supplicant.contains("country=DE\n"))
        #expect(try board.mode("root/etc/wpa_supplicant/trackd-known-wifi.conf") == 0o600)
        #expect(board.text("root/etc/systemd/network/60-trackd-known-wifi.network")?.contains("Name=wlan0sta") == true)
        for name in ["user-data", "network-config", "meta-data"] {
            #expect(board.text("boot/\(name)") == nil, "\(name) is gone from the card")
        }
        #expect(board.text("boot/trackd-setup.txt") == nil, "no setup file is made")
        #expect(board.text("boot/cmdline.txt") == "\(cmdline) cfg80211.ieee80211_regdom=DE\n")
        let result = try #require(board.text("boot/trackd-setup-result.txt"))
        #expect(result.hasPrefix("trackd setup: APPLIED\r\n"))
        #expect(result.contains("Raspberry Pi Imager's settings (user-data and network-config) were read"))
        #expect(result.contains("the network Office Net to join, the country DE, the time zone Europe/Berlin, an SSH key."))
        #expect(result.contains("Known network:   Office Net (password set; the page is at http://trackd.local there)\r\n"))
        #expect(result.contains("Not used: user-data: the user anna and their password are not made"))
        #expect(!result.contains(psk))
        // The next start: nothing on the card but the result; the board keeps what it applied, and says so.
        guard case .missing = try board.run() else { Issue.record("not missing"); return }
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("the board keeps the settings it applied before") == true)
        #expect(board.text("root/root/.ssh/authorized_keys") == imagerKey + "\n")
    }

    @Test func theCardsFileWinsOverImagersAndTheKeysOfBothAreTaken() throws {
        let board = try Board(repository: repository)
        imagerCard(board)
        board.card("time_zone = Europe/Tallinn\r\nssh_key = \(key)\r\n")
        guard case .applied(let setup, _) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.timeZone == "Europe/Tallinn")
        #expect(setup.knownWiFi?.name == "Office Net")
        #expect(setup.sshKeys == [key, imagerKey])
        #expect(board.text("root/root/.ssh/authorized_keys") == key + "\n" + imagerKey + "\n")
    }

    @Test func imager1sBootWordsAreTakenOffEvenWhenNothingCanBeApplied() throws {
        let board = try Board(repository: repository)
        let script = "#!/bin/sh\nset +e\n   /usr/lib/raspberrypi-sys-mods/imager_custom set_timezone 'Europe/Berlin'\nexit 0\n"
        FileManager.default.createFile(atPath: board.folder.file("boot/firstrun.sh"), contents: Data(script.utf8))
        FileManager.default.createFile(atPath: board.folder.file("boot/cmdline.txt"), contents: Data(
            "\(cmdline) systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot systemd.unit=kernel-command-line.target\n".utf8))
        board.card("plate = AB-123\r\ncar_wifi_password = short\r\n")
        guard case .refused = try board.run() else { Issue.record("not refused"); return }
        // Else the board would boot into nothing but Imager's script again (its systemd.run=), for ever.
        #expect(board.text("boot/cmdline.txt") == cmdline + "\n")
        #expect(board.text("boot/firstrun.sh") == script, "nothing applied: Imager's file stays")
        // Fixed on the laptop: Imager's time zone is taken beneath the file.
        board.card("plate = AB-123\r\n")
        guard case .applied(let setup, _) = try board.run() else { Issue.record("not applied"); return }
        #expect(setup.timeZone == "Europe/Berlin")
        #expect(board.text("boot/firstrun.sh") == nil)
    }

    @Test func aWrongValueOfImagersIsNamedByItsFileAndLine() throws {
        let board = try Board(repository: repository)
        imagerCard(board, networkCountry: "XX")
        guard case .refused(let error) = try board.run() else { Issue.record("not refused"); return }
        #expect("\(error)".hasPrefix("network-config (Raspberry Pi Imager's), line 6 (country): "), "\(error)")
        #expect(board.text("boot/network-config") != nil, "nothing applied: Imager's files stay")
        #expect(board.text("boot/trackd-setup-result.txt")?.contains("network-config (Raspberry Pi Imager's), line 6") == true)
    }

    @Test func readsTheCountriesOfTzdatasTable() {
        let table = Array("# comment\nAD\tAndorra\nGB\tBritain (UK)\n#XX\tnot\nDE\tGermany\n".utf8)
        #expect(SetupApplier.countries(table) == ["AD", "GB", "DE"])
    }
}
