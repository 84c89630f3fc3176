/// What Raspberry Pi Imager's "OS customisation" wrote onto the card's FAT partition, read as data and never run:
/// Imager 2's cloud-init files (`user-data`, `network-config`; `init_format: cloudinit`) or Imager 1's `firstrun.sh`
/// (`systemd`, what Imager 1 writes for any image it does not know). The board takes what it can use as setup lines
/// beneath the card's own `trackd-setup.txt` (a value given there wins): the Wi-Fi becomes the known network, its
/// country the country, the time zone and the SSH keys root's. What it cannot use (a user and password: the image has
/// none; a keyboard; a host name: the board is trackd.local) is said in the result file.
public struct ImagerCustomisation: Sendable, Hashable {
    /// A value and where it was read: the file and its line (1 = the first; 0: the file as a whole).
    public struct Given<Value: Sendable & Hashable>: Sendable, Hashable {
        public var value: Value
        public var file: String
        public var line: Int
    }

    public var timeZone: Given<String>?
    public var sshKeys: [Given<String>] = []
    /// The network Imager sets up for the board to join: its name, and its passphrase or the 64 hex digits of its key.
    public var wifiName: Given<String>?
    public var wifiPassword: Given<String>?
    /// The Wi-Fi's regulatory country (ISO 3166).
    public var country: Given<String>?
    /// What was given and is not used, a sentence each.
    public var unused: [String] = []
    /// The files it was read from (removed from the card once applied: they hold the Wi-Fi's key).
    public var files: [String] = []

    public init() {}

    /// The files Imager writes, by format.
    public static let cloudInitFiles = ["user-data", "network-config", "meta-data"]
    public static let scriptFile = "firstrun.sh"

    /// Whether anything was given.
    public var isEmpty: Bool {
        timeZone == nil && sshKeys.isEmpty && wifiName == nil && wifiPassword == nil && country == nil && unused.isEmpty
    }

    /// The settings as setup lines (`key = "value"`), and for each line number of that text the file and line the
    /// value came from.
    public var setupLines: (text: [UInt8], origins: [Int: (file: String, line: Int)]) {
        var lines: [String] = []
        var origins: [Int: (file: String, line: Int)] = [:]
        func add(_ key: String, _ given: Given<String>?) {
            guard let given else { return }
            lines.append("\(key) = \"\(given.value)\"")
            origins[lines.count] = (given.file, given.line)
        }
        add("known_wifi_name", wifiName)
        add("known_wifi_password", wifiPassword)
        add("country", country)
        add("time_zone", timeZone)
        for key in sshKeys { add("ssh_key", key) }
        return (Array(lines.map { $0 + "\n" }.joined().utf8), origins)
    }
}

// MARK: - cloud-init (Imager 2)

extension ImagerCustomisation {
    /// Reads cloud-init's NoCloud `user-data` and `network-config` as Imager writes them; `nil` for a file not there.
    public static func cloudInit(userData: [UInt8]?, networkConfig: [UInt8]?) -> Result<ImagerCustomisation, SetupFileError> {
        var found = ImagerCustomisation()
        var problems: [SetupProblem] = []
        func document(_ bytes: [UInt8], _ file: String) -> YAMLNode? {
            do throws(YAMLError) {
                return try YAMLComposer.compose(bytes: bytes)
            } catch {
                problems.append(SetupProblem(line: 0, key: nil, message: "not YAML that cloud-init reads: \(error)", file: file))
                return nil
            }
        }
        found.files = cloudInitFiles
        if let userData {
            if let root = document(userData, "user-data") { found.readUserData(root, &problems) }
        }
        if let networkConfig {
            if let root = document(networkConfig, "network-config") { found.readNetworkConfig(root, &problems) }
        }
        return problems.isEmpty ? .success(found) : .failure(.problems(problems))
    }

    private mutating func readUserData(_ root: YAMLNode, _ problems: inout [SetupProblem]) {
        let file = "user-data"
        if let zone = root["timezone"], let text = zone.string {
            timeZone = Given(value: text, file: file, line: zone.mark.line)
        }
        if root["hostname"]?.string != nil {
            unused.append("user-data: the host name is not taken: the board is trackd.local on its own Wi-Fi")
        }
        if root["keyboard"] != nil {
            unused.append("user-data: the keyboard layout is not used: the board has no keyboard")
        }
        // Imager 2 writes `user:`; cloud-init's `users:` list and a top-level `ssh_authorized_keys:` are read too.
        var people: [YAMLNode] = root["user"].map { [$0] } ?? []
        if case .sequence(let list, _)? = root["users"] { people += list }
        for person in people {
            if let name = person["name"]?.string, person["passwd"] != nil || person["plain_text_passwd"] != nil {
                unused.append("user-data: the user \(name) and their password are not made: this image has no "
                              + "passwords; with an SSH key, log in as root")
            }
            readKeys(person["ssh_authorized_keys"], file)
        }
        readKeys(root["ssh_authorized_keys"], file)
    }

    private mutating func readKeys(_ node: YAMLNode?, _ file: String) {
        guard case .sequence(let keys, _)? = node else { return }
        for key in keys {
            guard let text = key.string?.trimmingSpaces, !text.isEmpty else { continue }
            addKey(Given(value: text, file: file, line: key.mark.line))
        }
    }

    /// Takes an SSH key once, however many times it is written (Imager's script writes each twice: for
    /// `imager_custom` and for the systems without it).
    fileprivate mutating func addKey(_ key: Given<String>) {
        if !sshKeys.contains(where: { $0.value == key.value }) { sshKeys.append(key) }
    }

    private mutating func readNetworkConfig(_ root: YAMLNode, _ problems: inout [SetupProblem]) {
        let file = "network-config"
        // Netplan's version 2, under `network:` (Imager 2) or at the top (Imager 1.8's cloud-init).
        let network = root["network"] ?? root
        guard case .mapping(let interfaces, _)? = network["wifis"] else { return }
        for (_, interface) in interfaces {
            if let domain = interface["regulatory-domain"], let code = domain.string {
                country = Given(value: code.uppercased(), file: file, line: domain.mark.line)
            }
            guard case .mapping(let points, _)? = interface["access-points"] else { continue }
            for (name, point) in points {
                guard let ssid = name.string else { continue }
                guard wifiName == nil else {
                    unused.append("network-config: only the first network is joined; \(ssid) is not")
                    continue
                }
                wifiName = Given(value: ssid, file: file, line: name.mark.line)
                if let password = point["password"] ?? point["auth"]?["password"], let text = password.string {
                    wifiPassword = Given(value: text, file: file, line: password.mark.line)
                } else {
                    wifiName = nil
                    unused.append("network-config: the open network \(ssid) (no password) is not joined")
                }
            }
        }
    }
}

// MARK: - firstrun.sh (Imager 1)

extension ImagerCustomisation {
    /// Reads the `firstrun.sh` Imager writes (its `systemd` format): the lines that set what the board can use. The
    /// script is never run.
    public static func firstRun(_ bytes: [UInt8]) -> ImagerCustomisation {
        var found = ImagerCustomisation()
        let file = scriptFile
        found.files.append(file)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
        var index = 0
        var hostname = false, user = false, keyboard = false
        while index < lines.count {
            let line = lines[index].trimmingSpaces
            let words = ShellWords.split(line)
            index += 1
            if words.first == "/usr/lib/raspberrypi-sys-mods/imager_custom", words.count >= 2 {
                switch words[1] {
                case "set_hostname": hostname = true
                case "set_timezone" where words.count >= 3:
                    found.timeZone = Given(value: words[2], file: file, line: index)
                case "set_keymap": keyboard = true
                case "enable_ssh":
                    if let k = words.firstIndex(of: "-k") {
                        for key in words[(k + 1)...] { found.addKey(Given(value: key, file: file, line: index)) }
                    }
                case "set_wlan":
                    let arguments = words.dropFirst(2).filter { $0 != "-h" && $0 != "-p" }
                    if arguments.count >= 2 {
                        found.wifiName = Given(value: arguments[arguments.startIndex], file: file, line: index)
                        found.wifiPassword = Given(value: arguments[arguments.startIndex + 1], file: file, line: index)
                    }
                    if arguments.count >= 3 {
                        found.country = Given(value: arguments[arguments.startIndex + 2].uppercased(), file: file, line: index)
                    }
                default: break
                }
            } else if words.first == "/usr/lib/userconf-pi/userconf" {
                user = true
            } else if line.hasPrefix("echo "), line.hasSuffix(">/etc/hostname") {
                hostname = true
            } else if line.hasPrefix("echo \""), line.hasSuffix("\" >/etc/timezone"), found.timeZone == nil {
                let zone = line.dropFirst(6).dropLast(16)
                found.timeZone = Given(value: String(zone), file: file, line: index)
            } else if line.hasPrefix("cat >"), line.contains("/.ssh/authorized_keys"), let end = hereDocument(line) {
                while index < lines.count, lines[index] != end {
                    let key = lines[index].trimmingSpaces
                    if !key.isEmpty { found.addKey(Given(value: key, file: file, line: index + 1)) }
                    index += 1
                }
            } else if line.hasPrefix("cat >/etc/wpa_supplicant/wpa_supplicant.conf"), let end = hereDocument(line) {
                var open = false
                while index < lines.count, lines[index] != end {
                    let setting = lines[index].trimmingSpaces
                    let number = index + 1
                    index += 1
                    guard let equals = setting.firstIndex(of: "=") else { continue }
                    let key = setting[..<equals], value = String(setting[setting.index(after: equals)...])
                    switch key {
                    case "country": found.country = Given(value: value.uppercased(), file: file, line: number)
                    case "ssid" where found.wifiName == nil:
                        found.wifiName = Given(value: wpaString(value), file: file, line: number)
                    case "psk" where found.wifiPassword == nil:
                        found.wifiPassword = Given(value: wpaString(value), file: file, line: number)
                    case "key_mgmt" where value == "NONE": open = true
                    default: break
                    }
                }
                if open, let name = found.wifiName, found.wifiPassword == nil {
                    found.wifiName = nil
                    found.unused.append("firstrun.sh: the open network \(name.value) (no password) is not joined")
                }
            }
        }
        if hostname { found.unused.append("firstrun.sh: the host name is not taken: the board is trackd.local on its own Wi-Fi") }
        if user {
            found.unused.append("firstrun.sh: the user and their password are not made: this image has no passwords; "
                                + "with an SSH key, log in as root")
        }
        if keyboard { found.unused.append("firstrun.sh: the keyboard layout is not used: the board has no keyboard") }
        return found
    }

    /// The word that ends a here-document opened on `line` (`cat >FILE <<'EOF'`).
    private static func hereDocument(_ line: String) -> String? {
        let characters = Array(line)
        guard let start = characters.indices.dropLast().first(where: { characters[$0] == "<" && characters[$0 + 1] == "<" })
        else { return nil }
        let word = String(characters[(start + 2)...]).trimmingSpaces.filter { $0 != "'" && $0 != "\"" && $0 != "-" }
        return word.isEmpty ? nil : word
    }

    /// A wpa_supplicant.conf string: `"text"`, or hex digits (an SSID or a key as bytes).
    private static func wpaString(_ value: String) -> String {
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { return String(value.dropFirst().dropLast()) }
        // ssid=hex: the name's bytes (a key's 64 hex digits stay as they are).
        if value.count != 64, value.count % 2 == 0, value.allSatisfy(\.isHexDigit) {
            var bytes: [UInt8] = []
            var digits = value[...]
            while !digits.isEmpty {
                guard let byte = UInt8(digits.prefix(2), radix: 16) else { return value }
                bytes.append(byte)
                digits = digits.dropFirst(2)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return value
    }
}

/// A line of a shell script split into words as `sh` would for plain words, 'single' and "double" quotes
/// (backslash escapes in double quotes and outside them); enough for the lines Imager writes.
enum ShellWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = Array(line)[...]
        while let character = iterator.popFirst() {
            switch character {
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                while let next = iterator.popFirst(), next != "'" { word.append(next) }
            case "\"":
                inWord = true
                while let next = iterator.popFirst(), next != "\"" {
                    if next == "\\", let escaped = iterator.first, "\"\\$`".contains(escaped) {
                        word.append(escaped)
                        iterator = iterator.dropFirst()
                    } else {
                        word.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let next = iterator.popFirst() { word.append(next) }
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}

extension YAMLNode {
    /// The value of `key` in a mapping; `nil` for a missing key or a node that is not a mapping.
    fileprivate subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.first { $0.key.string == key }?.value
    }
}

extension StringProtocol {
    /// Without spaces, tabs and line ends at either end.
    fileprivate var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[start...end])
    }
}
