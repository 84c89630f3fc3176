import Foundation
import Testing
import TrackCore
@testable import TrackConfig

/// The setup file a driver edits on the card's FAT partition: every problem with its line, or every setting.
struct SetupFileTests {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private let countries: Set<String> = ["DE", "EE", "GB", "US", "FR"]
    private let zones: Set<String> = ["Europe/Berlin", "Europe/London", "UTC"]

    private func parse(_ text: String) -> Result<SetupFile, SetupFileError> {
        SetupFile.parse(Array(text.utf8), countries: countries, isTimeZone: zones.contains)
    }

    private func problems(_ text: String) -> [String] {
        guard case .failure(.problems(let problems)) = parse(text) else { return [] }
        return problems.map(\.description)
    }

    private let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBx1Hx0V2qWnQm6l3b5c1O3F8y1oJmA0sQ9uV2xYzT7k driver@laptop"

    @Test func theShippedTemplateReadsAsTheDefaults() throws {
        let template = try Data(contentsOf: root.appendingPathComponent("image/boot/\(SetupFile.fileName)"))
        let setup = try SetupFile.parse(Array(template), countries: countries, isTimeZone: zones.contains).get()
        #expect(setup == SetupFile())
        #expect(setup.receiver == .auto)
        // Every key is in the template, each once, and explained by a comment above it.
        let text = String(decoding: template, as: UTF8.self)
        for key in SetupFile.keys {
            #expect(text.components(separatedBy: "\n\(key) =").count == 2, "\(key) once in the template")
        }
    }

    @Test func readsEverySettingAsNotepadAndTextEditSaveIt() throws {
        let text = "\u{FEFF}# comment\r\ncar_wifi_name = Car AB-123\r\ncar_wifi_password = \" pass#word 1 \"\r\n"
            + "country = uk\r\nknown_wifi_name=Office\rknown_wifi_password=office-secret\n\n"
            + "driver = Jürgen Müller\nplate = AB-123\ncompany = Example Ltd\ntime_zone = Europe/London\n"
            + "receiver = serial:///dev/ttyUSB0?baud=4800\nobd = tcp://192.168.0.10:35000\n"
            + "ssh_key = \(key)\nssh_key =\nowner_code = 4821-7730-1193\n"
        let setup = try parse(text).get()
        #expect(setup.carWiFi == WiFiNetwork(name: "Car AB-123", passphrase: " pass#word 1 "))
        #expect(setup.knownWiFi == WiFiNetwork(name: "Office", passphrase: "office-secret"))
        #expect(setup.country == "GB")
        #expect(setup.taxCountry == .unitedKingdom)
        #expect(setup.driver == "Jürgen Müller")
        #expect(setup.plate == "AB-123")
        #expect(setup.company == "Example Ltd")
        #expect(setup.timeZone == "Europe/London")
        #expect(setup.receiver == .serial(path: "/dev/ttyUSB0", baud: 4800))
        #expect(setup.obd == .tcp(host: "192.168.0.10", port: 35000))
        #expect(setup.sshKeys == [key])
        #expect(setup.ownerCode == "4821-7730-1193")
    }

    @Test func theOBDAdapterIsNoneAutoOrAnAddress() throws {
        #expect(try parse("").get().obd == .auto, "auto unless given")
        #expect(try parse("obd =\n").get().obd == .auto)
        #expect(try parse("obd = none\n").get().obd == nil)
        #expect(try parse("obd = auto\n").get().obd == .auto)
        #expect(try parse("obd = serial:///dev/ttyUSB1\n").get().obd == .serial(path: "/dev/ttyUSB1", baud: 38400))
    }

    @Test func aNetworkToJoinMayBeGivenByItsKeyTheCarsOnlyByItsPassphrase() throws {
        // 64 hex digits: the key itself, as Raspberry Pi Imager writes it; the car's network needs a passphrase, which
        // the phone's camera joins with from the QR code.
        let key = String(repeating: "3c1ba9e2", count: 8)
        let setup = try parse("known_wifi_name = Office\nknown_wifi_password = \(key)\n").get()
        #expect(setup.knownWiFi?.passphrase == key)
        #expect(problems("car_wifi_name = Car\ncar_wifi_password = \(key)\n")
            == ["line 2 (car_wifi_password): 64 characters; a Wi-Fi password has 8 to 63"])
        #expect(problems("known_wifi_name = Office\nknown_wifi_password = \(key.dropLast())g\n")
            == ["line 2 (known_wifi_password): 64 characters; a Wi-Fi password has 8 to 63"])
    }

    @Test func namesEveryWrongLineAndWhy() {
        let text = """
            car_wifi_name = trackd
            car_wifi_password = short
            country = XX
            drivr = Ann
            plate = AB-123
            plate = AB-124
            time_zone = Berlin
            receiver = file:///tmp/drive.nmea
            obd = bluetooth
            ssh_key = my key
            owner_code = 123
            just some words
            """
        #expect(problems(text) == [
            "line 2 (car_wifi_password): 5 characters; a Wi-Fi password has 8 to 63",
            "line 3 (country): 'XX' is not a country's two-letter code (ISO 3166: DE, EE, GB, US, FR, …)",
            "line 4 (drivr): no such setting: did you mean driver?",
            "line 6 (plate): given twice (first on line 5)",
            "line 7 (time_zone): 'Berlin' is not a time zone the board knows: an IANA id such as Europe/Berlin",
            "line 8 (receiver): a recording is not a receiver: auto, serial:///dev/… or gpsd://HOST:PORT",
            "line 9 (obd): none, or the adapter's address: expected auto (a USB adapter, found by asking), serial:///dev/ttyUSB0?baud=38400 (USB, Bluetooth rfcomm) or tcp://HOST:PORT (Wi-Fi)",
            "line 10 (ssh_key): not an SSH public key: the one line of your id_ed25519.pub, starting ssh-ed25519 (or ssh-rsa, ecdsa-…)",
            "line 11 (owner_code): 8 to 32 letters and digits (dashes and spaces allowed between them)",
            "line 12: 'just some words' is not KEY = VALUE (a comment starts with #)",
        ])
    }

    @Test func aNetworkNeedsBothItsNameAndItsPassword() {
        #expect(problems("country = DE\ncar_wifi_name = Car\n")
                == ["line 2 (car_wifi_password): the network needs its password too (8 to 63 characters)"])
        #expect(problems("known_wifi_password = 12345678\n")
                == ["line 1 (known_wifi_name): a password without the network's name"])
        #expect(problems("car_wifi_name = Car\ncar_wifi_password = 12345678\n")
                == ["line 1 (country): the car's Wi-Fi needs the country the car is in (the channels allowed there): add country = DE (or yours)"])
    }

    @Test func wifiNamesAndPasswordsKeepToWhatWPAAllows() {
        let long = String(repeating: "x", count: 64)
        #expect(problems("country = DE\ncar_wifi_name = \(String(repeating: "ü", count: 17))\ncar_wifi_password = 12345678\n")
                == ["line 2 (car_wifi_name): 34 bytes long; a Wi-Fi name has at most 32"])
        #expect(problems("country = DE\ncar_wifi_name = Car\ncar_wifi_password = \(long)\n")
                == ["line 3 (car_wifi_password): 64 characters; a Wi-Fi password has 8 to 63"])
        #expect(problems("country = DE\ncar_wifi_name = Car\ncar_wifi_password = straße-1234\n")
                == ["line 3 (car_wifi_password): only plain letters, digits, spaces and ASCII punctuation may be in a Wi-Fi password (no é, ß, …)"])
        #expect((try? parse("country = DE\ncar_wifi_name = Car\ncar_wifi_password = \(String(long.dropLast()))\n").get()) != nil)
    }

    @Test func refusesAFileThatIsNotPlainUTF8Text() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("driver = Ann".utf8).flatMap { [$0, 0] }
        guard case .failure(.encoding(let message)) = SetupFile.parse(utf16, countries: countries, isTimeZone: zones.contains) else {
            Issue.record("UTF-16 accepted")
            return
        }
        #expect(message.contains("UTF-16"))
        guard case .failure(.encoding(let rtf)) = parse("{\\rtf1\\ansi driver = Ann}") else {
            Issue.record("RTF accepted")
            return
        }
        #expect(rtf.contains("plain text"))
        guard case .failure(.encoding) = SetupFile.parse([0x64, 0xC3, 0x28], countries: countries, isTimeZone: zones.contains) else {
            Issue.record("invalid UTF-8 accepted")
            return
        }
    }

    @Test func theCardsCopyLosesItsSecretsAndStillReadsWholeOverWhatTheBoardKeeps() throws {
        let text = "country = DE\r\ncar_wifi_name = Car\r\ncar_wifi_password = secret-one\r\n"
            + "known_wifi_name = Office\r\nknown_wifi_password = \" two words \"\r\nowner_code = 48217730\r\nssh_key = \(key)\r\n"
        let applied = try parse(text).get()
        let card = String(decoding: SetupFile.withoutSecrets(Array(text.utf8)), as: UTF8.self)
        #expect(!card.contains("secret-one") && !card.contains(" two words ") && !card.contains("48217730"))
        #expect(card.contains("\r\ncar_wifi_password =\r\n"))
        #expect(card.contains("# owner_code was applied and removed from this card"))
        let bytes = Array(card.utf8)
        let lineFeeds = bytes.count { $0 == 10 }
        let crlfs = zip(bytes, bytes.dropFirst()).count { $0 == 13 && $1 == 10 }
        #expect(lineFeeds == crlfs && lineFeeds == 10, "every line ends in CRLF as before")
        // Alone the card's copy lacks the passwords; over what the board keeps it is the same setup.
        #expect(problems(card) == ["line 4 (car_wifi_password): the network needs its password too (8 to 63 characters)",
                                   "line 7 (known_wifi_password): the network needs its password too (8 to 63 characters)"])
        let kept = try SetupFile.parse(applied.stored, countries: countries, isTimeZone: zones.contains).get()
        #expect(kept == applied)
        let again = try SetupFile.parse(Array(card.utf8), over: kept, countries: countries, isTimeZone: zones.contains).get()
        #expect(again == applied)
        // A value written anew wins; the SSH keys given replace the kept ones.
        let other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHq9Yy3mBvF0cJx2nL8pR4tW6zK1aD5eG7hU9iO2sQ3v office"
        let rewritten = card.replacingOccurrences(of: key, with: other) + "plate = XY-9\r\n"
        let changed = try SetupFile.parse(Array(rewritten.utf8), over: kept,
                                          countries: countries, isTimeZone: zones.contains).get()
        #expect(changed.plate == "XY-9")
        #expect(changed.sshKeys == [other])
        #expect(changed.carWiFi == applied.carWiFi)
    }

    @Test func aFileWithoutSecretsIsLeftAsItIs() {
        let text = Array("driver = Ann\ncar_wifi_password =\n".utf8)
        #expect(SetupFile.withoutSecrets(text) == text)
    }

    @Test func anEmptyValueIsNotGivenAndAnEmptyFileIsTheDefaults() throws {
        #expect(try parse("").get() == SetupFile())
        #expect(try parse("driver =\nplate = \n").get() == SetupFile())
    }

    @Test func theCarsNetworkGoesToHostapdWithItsNameInHexAndTheBoardsAddressToNetworkd() throws {
        var setup = try parse("country = GB\ncar_wifi_name = Jürgen's car; #1\ncar_wifi_password = a b#c=d;e\n").get()
        let hostapd = try #require(setup.hostapdConfiguration())
        let hex = Array("Jürgen's car; #1".utf8).map { String(format: "%02x", $0) }.joined()
        #expect(hostapd.contains("\nssid2=\(hex)\nutf8_ssid=1\n"))
        #expect(hostapd.contains("\ncountry_code=GB\nieee80211d=1\n"))
        #expect(hostapd.contains("\nwpa_passphrase=a b#c=d;e\n"))
        #expect(hostapd.contains("\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n"))
        #expect(!hostapd.split(separator: "\n").contains { $0.hasPrefix(" ") }, "no line indented: \(hostapd)")
        setup.carWiFi = nil
        #expect(setup.hostapdConfiguration() == nil)
        let network = SetupFile.accessPointNetwork()
        #expect(network.contains("Name=wlan0") && network.contains("Address=10.42.0.1/24") && network.contains("DHCPServer=yes"))
    }

    @Test func theHostNameIsTrackdAndThePlatesLettersAndDigitsOrTrackdWithoutOne() throws {
        #expect(try parse("plate = AB-123\n").get().hostName == "trackd-ab-123")
        #expect(try parse("plate = \" B MÜ 42E \"\n").get().hostName == "trackd-b-m-42e")
        #expect(try parse("plate = --\n").get().hostName == "trackd")
        #expect(try parse("driver = Ann\n").get().hostName == "trackd")
        let long = try parse("plate = \(String(repeating: "X", count: 60))\n").get().hostName
        #expect(long.utf8.count <= 63 && long.hasPrefix("trackd-xxx"))
    }

    @Test func theKnownNetworkGoesToWpaSupplicantWithItsNameInHexAndWPA3WhereAPassphraseAllowsIt() throws {
        var setup = try parse("country = DE\nknown_wifi_name = Büro \"2\"\nknown_wifi_password = say \"hi\" #2\n").get()
        let supplicant = try #require(setup.knownNetworkConfiguration())
        let hex = Array("Büro \"2\"".utf8).map { String(format: "%02x", $0) }.joined()
        let lines = supplicant.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("ssid=\(hex)"), "\(supplicant)")
        #expect(lines.contains("psk=\"say \"hi\" #2\""), "quoted to its last quote: \(supplicant)")
        #expect(lines.contains("key_mgmt=WPA-PSK WPA-PSK-SHA256 SAE") && lines.contains("country=DE"))
        #expect(lines.contains("ctrl_interface=/run/wpa_supplicant"))
        // Raspberry Pi Imager's key: WPA2's own, bare, and no SAE (which needs the passphrase).
        let key = String(repeating: "AB01", count: 16)
        setup.knownWiFi = WiFiNetwork(name: "Office", passphrase: key)
        let imager = try #require(setup.knownNetworkConfiguration()).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(imager.contains("psk=\(key.lowercased())") && imager.contains("key_mgmt=WPA-PSK WPA-PSK-SHA256"))
        setup.knownWiFi = nil
        #expect(setup.knownNetworkConfiguration() == nil)
        let network = SetupFile.knownNetwork()
        #expect(network.contains("Name=wlan0sta") && network.contains("DHCP=yes") && network.contains("MulticastDNS=no"))
    }
}
