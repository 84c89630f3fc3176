import TrackCore

/// The setup file on the card's FAT partition (`trackd-setup.txt`): what a driver sets up with a laptop's text editor.
///
/// One `key = value` a line; a line that starts with `#` is a comment (a `#` later in a line is part of the value, as
/// Wi-Fi passwords may hold one); an empty value means "not given". A value may be put in double quotes to keep
/// spaces at its ends. Notepad's and TextEdit's ways are taken: a UTF-8 byte-order mark, CRLF or CR line ends. A
/// file saved as UTF-16 ("Unicode" in old Notepad) or as rich text is refused as a whole, saying how to save it.
///
/// Parsing checks every line and gathers every problem, each with its line number, so that one round trip with the
/// card fixes them all; a file with any problem gives no settings at all (the setup is all or nothing).
public struct SetupFile: Sendable, Hashable {
    /// The car's own network, the board its access point: where the phone finds the page.
    public var carWiFi: WiFiNetwork?
    /// A network the board joins when it is in reach (office, home).
    public var knownWiFi: WiFiNetwork?
    /// ISO 3166 code of the country the car is in (`GB` for the United Kingdom): the Wi-Fi channels allowed there.
    public var country: String?
    /// The tax office's rules the log is kept for, when the country is one trackd knows.
    public var taxCountry: Country? { country.flatMap(Country.init(code:)) }
    public var driver: String?
    public var plate: String?
    public var company: String?
    /// An IANA time-zone id.
    public var timeZone: String?
    /// Where fixes come from; `auto` unless given.
    public var receiver: SourceAddress = .auto
    /// The OBD-II adapter; `auto` (a USB adapter found by asking) unless given, `nil` for `none`.
    public var obd: OBDAddress? = .auto
    /// SSH public keys allowed to log in as root; none: no login at all.
    public var sshKeys: [String] = []
    /// The code that claims the page (item 4 of the design); nil: the board makes one.
    public var ownerCode: String?

    public init() {}

    /// The file's name on the FAT partition.
    public static let fileName = "trackd-setup.txt"

    /// Keys whose values are secrets: removed from the card's copy once applied.
    public static let secretKeys: Set<String> = ["car_wifi_password", "known_wifi_password", "owner_code"]

    /// Every key, in the order the template lists them.
    public static let keys = ["car_wifi_name", "car_wifi_password", "country", "known_wifi_name", "known_wifi_password",
                              "driver", "plate", "company", "time_zone", "receiver", "obd", "ssh_key", "owner_code"]

    /// Reads the file's bytes; every problem, or the settings.
    ///
    /// - Parameters:
    ///   - previous: what the board applied before (`stored`): a value the file leaves empty keeps it, so that a
    ///     file whose passwords were removed once applied still reads whole.
    ///   - countries: the ISO 3166 codes a `country` may be (from tzdata's `iso3166.tab`).
    ///   - isTimeZone: whether an id names a time zone the board has.
    public static func parse(_ bytes: [UInt8], over previous: SetupFile? = nil, countries: Set<String>,
                             isTimeZone: (String) -> Bool) -> Result<SetupFile, SetupFileError> {
        let lines: [SetupLine]
        switch SetupLine.split(bytes) {
        case .success(let split): lines = split
        case .failure(let error): return .failure(error)
        }
        var problems: [SetupProblem] = []
        var seen: [String: Int] = [:]
        var values: [String: SetupLine] = [:]
        for (key, value) in previous?.values ?? [] where key != "ssh_key" {
            values[key] = SetupLine(number: 0, key: key, value: value)
        }
        var sshKeys: [SetupLine] = []
        var given: [String: Int] = [:]
        for line in lines {
            if let key = line.key, given[key] == nil { given[key] = line.number }
            guard let key = line.key else {
                problems.append(SetupProblem(line: line.number, key: nil, message: line.problem ?? "not KEY = VALUE"))
                continue
            }
            guard keys.contains(key) else {
                let hint = keys.first { SetupFile.distance($0, key.replacing("-", with: "_").replacing(" ", with: "_")) <= 2 }
                problems.append(SetupProblem(line: line.number, key: key, message: "no such setting"
                                             + (hint.map { ": did you mean \($0)?" } ?? " (the template lists them all)")))
                continue
            }
            if let problem = line.problem {
                problems.append(SetupProblem(line: line.number, key: key, message: problem))
                continue
            }
            if key == "ssh_key" {
                if !line.value.isEmpty { sshKeys.append(line) }
                continue
            }
            if let first = seen[key] {
                problems.append(SetupProblem(line: line.number, key: key, message: "given twice (first on line \(first))"))
                continue
            }
            seen[key] = line.number
            if !line.value.isEmpty { values[key] = line }
        }

        var setup = SetupFile()
        func check(_ key: String, _ read: (String) -> String?) {
            guard let line = values[key] else { return }
            if let problem = read(line.value) { problems.append(SetupProblem(line: line.number, key: key, message: problem)) }
        }
        setup.carWiFi = wifi("car_wifi", values, given, &problems)
        setup.knownWiFi = wifi("known_wifi", values, given, &problems)
        check("country") { text in
            let upper = text.uppercased()
            let code = upper == "UK" ? "GB" : upper
            guard countries.contains(code) else {
                return "'\(text)' is not a country's two-letter code (ISO 3166: DE, EE, GB, US, FR, …)"
            }
            setup.country = code
            return nil
        }
        if setup.carWiFi != nil && setup.country == nil && values["country"] == nil {
            let line = values["car_wifi_name"]?.number ?? 0
            problems.append(SetupProblem(line: line, key: "country", message:
                "the car's Wi-Fi needs the country the car is in (the channels allowed there): add country = DE (or yours)"))
        }
        for key in ["driver", "plate", "company"] {
            check(key) { text in
                guard text.unicodeScalars.count <= 200 else { return "longer than 200 characters" }
                guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    return "holds a control character"
                }
                switch key {
                case "driver": setup.driver = text
                case "plate": setup.plate = text
                default: setup.company = text
                }
                return nil
            }
        }
        check("time_zone") { text in
            guard isTimeZone(text) else { return "'\(text)' is not a time zone the board knows: an IANA id such as Europe/Berlin" }
            setup.timeZone = text
            return nil
        }
        check("receiver") { text in
            do throws(SourceAddressError) {
                let address = try SourceAddress(parsing: text)
                if case .file = address { return "a recording is not a receiver: auto, serial:///dev/… or gpsd://HOST:PORT" }
                setup.receiver = address
                return nil
            } catch {
                guard case .malformed(_, let hint) = error else { return "\(error)" }
                return hint
            }
        }
        check("obd") { text in
            if text.lowercased() == "none" {
                setup.obd = nil
                return nil
            }
            do throws(SourceAddressError) {
                setup.obd = try OBDAddress(parsing: text)
                return nil
            } catch {
                guard case .malformed(_, let hint) = error else { return "\(error)" }
                return "none, or the adapter's address: " + hint
            }
        }
        if sshKeys.isEmpty {
            sshKeys = (previous?.sshKeys ?? []).map { SetupLine(number: 0, key: "ssh_key", value: $0) }
        }
        for line in sshKeys {
            if let problem = SetupFile.sshKeyProblem(line.value) {
                problems.append(SetupProblem(line: line.number, key: "ssh_key", message: problem))
            } else {
                setup.sshKeys.append(line.value)
            }
        }
        check("owner_code") { text in
            let digits = text.filter { $0 != "-" && $0 != " " }
            guard digits.count >= 8, digits.count <= 32, digits.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                return "8 to 32 letters and digits (dashes and spaces allowed between them)"
            }
            setup.ownerCode = text
            return nil
        }

        guard problems.isEmpty else { return .failure(.problems(problems.sorted { $0.line < $1.line })) }
        return .success(setup)
    }

    /// Every value as `key`, `value`, in the template's order (an SSH key a pair each); nothing for what is not set.
    public var values: [(String, String)] {
        var values: [(String, String?)] = [
            ("car_wifi_name", carWiFi?.name), ("car_wifi_password", carWiFi?.passphrase), ("country", country),
            ("known_wifi_name", knownWiFi?.name), ("known_wifi_password", knownWiFi?.passphrase),
            ("driver", driver), ("plate", plate), ("company", company), ("time_zone", timeZone),
            ("receiver", receiver.description), ("obd", obd?.description ?? "none"),
        ]
        values += sshKeys.map { ("ssh_key", $0) }
        values.append(("owner_code", ownerCode))
        return values.compactMap { key, value in value.map { (key, $0) } }
    }

    /// The settings as a file this parser reads back the same (every value quoted): what the board keeps.
    public var stored: [UInt8] {
        Array(("# trackd setup as applied (secrets included: root only)\n"
               + values.map { "\($0) = \"\($1)\"\n" }.joined()).utf8)
    }

    /// The file as it was given, with the values of `secretKeys` emptied and a comment saying so above each: the
    /// card's copy once applied. The line ends stay as they were.
    public static func withoutSecrets(_ bytes: [UInt8]) -> [UInt8] {
        guard case .success(let lines) = SetupLine.split(bytes) else { return bytes }
        let secret = Dictionary(uniqueKeysWithValues: lines.compactMap { line in
            line.key.flatMap { secretKeys.contains($0) && !line.value.isEmpty ? (line.number, $0) : nil }
        })
        guard !secret.isEmpty else { return bytes }
        let text = String(decoding: bytes, as: UTF8.self)
        let end = text.contains("\r\n") ? "\r\n" : text.contains("\r") ? "\r" : "\n"
        var number = 0
        var out: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            number += 1
            if let key = secret[number] {
                out.append("# \(key) was applied and removed from this card; the board keeps it. Write a new one here to change it.")
                out.append("\(key) =")
            } else {
                out.append(String(raw))
            }
        }
        return Array(out.joined(separator: end).utf8)
    }

    /// A network from `PREFIX_name` and `PREFIX_password`; both or neither.
    private static func wifi(_ prefix: String, _ values: [String: SetupLine], _ given: [String: Int],
                             _ problems: inout [SetupProblem]) -> WiFiNetwork? {
        let name = values["\(prefix)_name"]
        let password = values["\(prefix)_password"]
        switch (name, password) {
        case (nil, nil):
            return nil
        case (let name?, nil):
            problems.append(SetupProblem(line: given["\(prefix)_password"] ?? name.number, key: "\(prefix)_password",
                                         message: "the network needs its password too (8 to 63 characters)"))
            return nil
        case (nil, let password?):
            problems.append(SetupProblem(line: given["\(prefix)_name"] ?? password.number, key: "\(prefix)_name",
                                         message: "a password without the network's name"))
            return nil
        case (let name?, let password?):
            var bad = false
            if let problem = ssidProblem(name.value) {
                problems.append(SetupProblem(line: name.number, key: "\(prefix)_name", message: problem))
                bad = true
            }
            // A network the board joins may be given by its key, 64 hex digits (as Raspberry Pi Imager writes it);
            // the car's must be a passphrase: the phone's camera joins it from the QR code.
            let isKey = prefix == "known_wifi" && password.value.count == 64 && password.value.allSatisfy(\.isHexDigit)
            if !isKey, let problem = passphraseProblem(password.value) {
                problems.append(SetupProblem(line: password.number, key: "\(prefix)_password", message: problem))
                bad = true
            }
            return bad ? nil : WiFiNetwork(name: name.value, passphrase: password.value)
        }
    }

    /// How many letters must be added, removed or changed to make one word the other.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Why a network name cannot be used, if it cannot.
    static func ssidProblem(_ name: String) -> String? {
        let bytes = name.utf8.count
        guard bytes <= 32 else { return "\(bytes) bytes long; a Wi-Fi name has at most 32" }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "holds a control character"
        }
        return nil
    }

    /// Why a WPA passphrase cannot be used, if it cannot: 8 to 63 printable ASCII characters.
    static func passphraseProblem(_ passphrase: String) -> String? {
        let scalars = passphrase.unicodeScalars
        guard scalars.allSatisfy({ $0.value >= 0x20 && $0.value <= 0x7E }) else {
            return "only plain letters, digits, spaces and ASCII punctuation may be in a Wi-Fi password (no é, ß, …)"
        }
        guard scalars.count >= 8 else { return "\(scalars.count) characters; a Wi-Fi password has 8 to 63" }
        guard scalars.count <= 63 else { return "\(scalars.count) characters; a Wi-Fi password has 8 to 63" }
        return nil
    }

    /// Why a line is not an SSH public key, if it is not.
    static func sshKeyProblem(_ key: String) -> String? {
        let parts = key.split(separator: " ", omittingEmptySubsequences: true)
        let types: Set<Substring> = ["ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
                                     "ecdsa-sha2-nistp521", "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com"]
        guard parts.count >= 2, types.contains(parts[0]) else {
            return "not an SSH public key: the one line of your id_ed25519.pub, starting ssh-ed25519 (or ssh-rsa, ecdsa-…)"
        }
        let base64 = parts[1]
        guard base64.count >= 60, base64.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }) else {
            return "the key after \(parts[0]) is cut short or damaged"
        }
        return nil
    }
}

/// One line of a setup file: its number, and its key and value if it has them.
struct SetupLine: Sendable {
    var number: Int
    var key: String?
    var value: String
    /// Why the line cannot be read, if it cannot.
    var problem: String?

    /// The file's lines that are not blank or comments.
    static func split(_ bytes: [UInt8]) -> Result<[SetupLine], SetupFileError> {
        var bytes = bytes[...]
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return .failure(.encoding("the file is saved as UTF-16 (\"Unicode\"): save it as UTF-8 (Notepad: Save as, Encoding UTF-8)"))
        }
        if bytes.starts(with: Array("{\\rtf".utf8)) {
            return .failure(.encoding("the file is saved as rich text: save it as plain text (TextEdit: Format, Make Plain Text)"))
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(.encoding("the file is not UTF-8 text: save it as UTF-8 (Notepad: Save as, Encoding UTF-8)"))
        }
        var lines: [SetupLine] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            number += 1
            let line = raw.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                lines.append(SetupLine(number: number, key: nil, value: "",
                                       problem: "'\(line.prefix(40))' is not KEY = VALUE (a comment starts with #)"))
                continue
            }
            let key = line[..<equals].trimmingBlanks.lowercased()
            var value = line[line.index(after: equals)...].trimmingBlanks
            var problem: String?
            if value.hasPrefix("\"") {
                if value.count >= 2 && value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                } else {
                    problem = "a value that starts with \" ends with one"
                }
            }
            lines.append(SetupLine(number: number, key: key.isEmpty ? nil : key, value: String(value),
                                   problem: key.isEmpty ? "no setting's name before =" : problem))
        }
        return .success(lines)
    }
}

/// A line of the setup file that cannot be applied, and why.
public struct SetupProblem: Sendable, Hashable, CustomStringConvertible {
    /// The line's number (1 = the first); 0 for the file as a whole.
    public var line: Int
    public var key: String?
    public var message: String
    /// The file the line is in when it is not the setup file (`user-data`, which Raspberry Pi Imager wrote).
    public var file: String?

    public init(line: Int, key: String?, message: String, file: String? = nil) {
        self.line = line
        self.key = key
        self.message = message
        self.file = file
    }

    public var description: String {
        var place = line > 0 ? "line \(line)" : "the file"
        if let file { place = line > 0 ? "\(file) (Raspberry Pi Imager's), line \(line)" : "\(file) (Raspberry Pi Imager's)" }
        return key.map { "\(place) (\($0)): \(message)" } ?? "\(place): \(message)"
    }
}

/// Why a setup file gives no settings.
public enum SetupFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read as text at all.
    case encoding(String)
    /// Lines that cannot be applied.
    case problems([SetupProblem])

    public var description: String {
        switch self {
        case .encoding(let message): message
        case .problems(let problems): problems.map(\.description).joined(separator: "\n")
        }
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    fileprivate var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else {
            return Substring()
        }
        return Substring(self[start...end])
    }
}
