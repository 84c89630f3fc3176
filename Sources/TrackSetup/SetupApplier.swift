#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackConfig
import TrackCore
import TrackDigest
import TrackService
import TrackZoneInfo

/// Applies the card's setup file (`trackd-setup.txt` on the FAT partition) to the board: all of it or nothing.
///
/// Run at each boot beside trackd (the image's `trackd-setup.service`, which starts again what it changed). A file that is the one applied last time
/// (its SHA-256 is kept) costs a read and nothing more. Otherwise it is read over what the board kept from before
/// (`SetupFile.parse(_:over:)`); with any wrong line nothing is changed and the result file names every wrong line.
/// A good file is applied: trackd.conf's keys (checked by trackd's own parser before it is written), the system's
/// time zone, root's SSH keys, the host name (`trackd-PLATE`), the known network's files (wpa_supplicant's and
/// networkd's), and what the board keeps (secrets included, root only). Each file is replaced
/// atomically; the card's copy loses its secrets only after the board has kept them, and the hash of that copy is
/// written last, so a power cut anywhere in between makes the next boot apply the same file again.
public struct SetupApplier {
    /// Where the files are: the card's FAT partition and the system's root (a folder in tests).
    public struct Paths: Sendable, Hashable {
        public var boot: String
        public var root: String

        public init(boot: String = "/boot/firmware", root: String = "/") {
            self.boot = boot
            self.root = root
        }

        var setupFile: String { "\(boot)/\(SetupFile.fileName)" }
        var resultFile: String { "\(boot)/\(SetupReport.fileName)" }
        func system(_ path: String) -> String { root == "/" ? path : root + path }
        var kept: String { system("/var/lib/trackd-setup/setup.txt") }
        /// The owner code alone, for trackd-web (the image's drop-in hands it over as a systemd credential).
        var ownerCode: String { system("/var/lib/trackd-setup/owner-code") }
        /// The car's Wi-Fi the board made when no file gave one: its name and passphrase, a line each.
        var madeWiFi: String { system("/var/lib/trackd-setup/made-car-wifi") }
        /// The car's Wi-Fi in use (given or made), the same way, for trackd-web (a credential, as the owner code).
        var carWiFi: String { system("/var/lib/trackd-setup/car-wifi") }
        var hostapd: String { system("/etc/hostapd/hostapd.conf") }
        var accessPointNetwork: String { system("/etc/systemd/network/60-trackd-car-wifi.network") }
        /// The known network the board joins beside the car's: wpa_supplicant's configuration and networkd's.
        var knownNetwork: String { system("/etc/wpa_supplicant/trackd-known-wifi.conf") }
        var stationNetwork: String { system("/etc/systemd/network/60-trackd-known-wifi.network") }
        var appliedHash: String { system("/var/lib/trackd-setup/card.sha256") }
        var configuration: String { system("/etc/trackd/trackd.conf") }
        var zoneinfo: String { system(ZoneInfo.defaultDirectory) }
        /// The kernel's command line as the Pi's firmware reads it, where Raspberry Pi Imager adds its words.
        var cmdline: String { "\(boot)/cmdline.txt" }
        func onCard(_ name: String) -> String { "\(boot)/\(name)" }
    }

    /// What a run did.
    public enum Outcome: Sendable, Hashable {
        /// The file was applied; the files written, as paths on the system.
        case applied(SetupFile, written: [String])
        /// The file is the one handled last time: nothing to do.
        case unchanged
        /// The file has wrong lines (or cannot be read): nothing was applied.
        case refused(SetupFileError)
        /// There is no setup file.
        case missing
    }

    public let paths: Paths
    public let version: String

    public init(paths: Paths = Paths(), version: String = TrackVersion.string) {
        self.paths = paths
        self.version = version
    }

    /// Reads the setup file and applies it, or says why not in the result file.
    public func run() throws(SetupApplierError) -> Outcome {
        // Raspberry Pi Imager's words on the kernel's command line go first: with Imager 1's, the board would boot
        // into nothing but its firstrun.sh again and again. What Imager wrote is still read below (and at every boot
        // until it has been applied).
        try removeImagerBootWords()
        let countries = try self.countries(zoneinfo: paths.zoneinfo)
        // What the board kept from the file applied last: read as a file over nothing.
        let previous = try read(paths.kept).flatMap {
            try? SetupApplier.parse($0, over: nil, countries: countries, zoneinfo: paths.zoneinfo).get()
        }
        let imager = try readImager()
        guard let card = try read(paths.setupFile) ?? (imager == nil ? nil : []) else {
            // The board stays claimable: an owner code is made if it has none. Said once: the result file is written
            // only when it does not say so already.
            let made = try boardsOwn(for: previous, kept: previous).made
            let text = SetupReport.missing(made: made, keeps: previous != nil)
            if try read(paths.resultFile).map({ String(decoding: $0, as: UTF8.self) }) != text {
                try write(Array(text.utf8), to: paths.resultFile, mode: 0o644)
            }
            return .missing
        }
        let hash = SHA256.hex(of: card + (imager?.bytes ?? []))
        if try read(paths.appliedHash).map({ String(decoding: $0, as: UTF8.self) }) == hash + "\n" { return .unchanged }

        // Imager's settings lie beneath the card's file: what the file gives wins; the SSH keys of both are taken.
        var base = previous
        if let imager {
            switch imager.lines.flatMap({ lines in
                SetupApplier.parse(lines.text, over: previous, countries: countries, zoneinfo: paths.zoneinfo)
                    .mapError { SetupApplier.placed($0, lines.origins) }
            }) {
            case .success(let given): base = given
            case .failure(let error):
                let made = try boardsOwn(for: previous, kept: previous).made
                try write(Array(SetupReport.refused(error, made: made).utf8), to: paths.resultFile, mode: 0o644)
                try markHandled(hash)
                return .refused(error)
            }
        }
        switch SetupApplier.parse(card, over: base, countries: countries, zoneinfo: paths.zoneinfo).map({ setup in
            var setup = setup
            for key in imager?.customisation.sshKeys ?? [] where !setup.sshKeys.contains(key.value) {
                setup.sshKeys.append(key.value)
            }
            return setup
        }) {
        case .failure(let error):
            let made = try boardsOwn(for: previous, kept: previous).made
            try write(Array(SetupReport.refused(error, made: made).utf8), to: paths.resultFile, mode: 0o644)
            try markHandled(hash)
            return .refused(error)
        case .success(let setup):
            var written: [String]
            let made: SetupMade
            do throws(SetupApplierError) {
                // What the board made stays out of the kept setup: there, everything is what a file gave.
                let own = try boardsOwn(for: setup, kept: previous)
                made = own.made
                written = try apply(setup) + own.written
            } catch {
                // Said on the card too; the hash is not kept, so the next boot tries again.
                try? write(Array(SetupReport.failed("\(error)").utf8), to: paths.resultFile, mode: 0o644)
                throw error
            }
            // Kept by the board first; only then may the card's copy lose its secrets.
            try write(setup.stored, to: paths.kept, mode: 0o600, folderMode: 0o700)
            let cleaned = SetupFile.withoutSecrets(card)
            if cleaned != card { try write(cleaned, to: paths.setupFile, mode: 0o644) }
            // Imager's files hold the Wi-Fi's key (and a password's hash): gone once the board keeps what it took.
            for name in imager?.customisation.files ?? [] {
                guard unlink(paths.onCard(name)) == 0 || errno == ENOENT else {
                    throw .cannotWrite(paths.onCard(name), "unlink", Errno(rawValue: errno))
                }
            }
            try write(Array(SetupReport.applied(setup, version: version, made: made,
                                                imager: imager?.customisation).utf8), to: paths.resultFile, mode: 0o644)
            try markHandled(SHA256.hex(of: cleaned))
            return .applied(setup, written: written + [paths.kept])
        }
    }

    /// A setup file's bytes, for `check`; an error names the path.
    public func readSetup(at path: String) throws(SetupApplierError) -> [UInt8] {
        guard let bytes = try read(path) else { throw .cannotRead(path, .noSuchFileOrDirectory) }
        return bytes
    }

    /// Checks a setup file against the countries and zones of the time-zone database at `zoneinfo`.
    public func check(_ bytes: [UInt8], zoneinfo: String) throws(SetupApplierError) -> Result<SetupFile, SetupFileError> {
        SetupApplier.parse(bytes, over: nil, countries: try countries(zoneinfo: zoneinfo), zoneinfo: zoneinfo)
    }

    /// Reads a setup file over `previous` with the countries and the zones of the time-zone database at `zoneinfo`.
    private static func parse(_ bytes: [UInt8], over previous: SetupFile?, countries: Set<String>,
                              zoneinfo: String) -> Result<SetupFile, SetupFileError> {
        SetupFile.parse(bytes, over: previous, countries: countries) { id in
            ZoneInfo.rules(for: id, directory: zoneinfo) != nil
        }
    }

    /// The countries of the time-zone database at `zoneinfo` (its `iso3166.tab`); none when it has no table.
    private func countries(zoneinfo: String) throws(SetupApplierError) -> Set<String> {
        try read("\(zoneinfo)/iso3166.tab").map(SetupApplier.countries) ?? []
    }

    /// Writes the settings into the system's files; the paths written.
    private func apply(_ setup: SetupFile) throws(SetupApplierError) -> [String] {
        var written: [String] = []
        // trackd.conf: its keys set in the package's own file, checked as trackd would read it before it is written.
        guard let current = try read(paths.configuration) else {
            throw .missing(paths.configuration, "trackd's configuration; is trackd installed?")
        }
        var text = String(decoding: current, as: UTF8.self)
        let settings: [(String, String, String?)] = [
            ("daemon", "source", setup.receiver.description),
            ("obd", "adapter", setup.obd?.description),
            ("profile", "driver", setup.driver), ("profile", "plate", setup.plate),
            ("profile", "company", setup.company), ("profile", "time_zone", setup.timeZone),
            ("profile", "country", setup.taxCountry?.rawValue),
        ]
        // What the file says now, as trackd reads it: a key that already says the same is left as it is (its line, its
        // comment), so that trackd is not started again for nothing.
        let now = (try? ConfigurationFile.parse(text, path: paths.configuration))
            .map { EffectiveConfiguration(file: $0, path: paths.configuration) }
        let said: [String: String?] = [
            "source": now?.source.description, "adapter": now?.obd.adapter?.description,
            "driver": now?.profile.driver, "plate": now?.profile.plate, "company": now?.profile.company,
            "time_zone": now?.profile.timeZone, "country": now?.profile.country,
        ]
        for (section, key, value) in settings {
            // A profile key not given keeps what the file has; the source and the adapter are always the file's.
            if value == nil && section == "profile" { continue }
            if let already = said[key], already == value { continue }
            text = ConfigurationFile.setting(key, in: section, to: value, in: text)
        }
        do throws(ConfigurationError) {
            _ = try ConfigurationFile.parse(text, path: paths.configuration)
        } catch {
            throw .configuration(error)
        }
        if Array(text.utf8) != current {
            try write(Array(text.utf8), to: paths.configuration, mode: 0o644)
            written.append(paths.configuration)
        }

        // The system's time zone (the journal's and the shell's; trackd's dates follow the log's profile).
        if let zone = setup.timeZone {
            let link = paths.system("/etc/localtime")
            let target = "\(ZoneInfo.defaultDirectory)/\(zone)"
            if readLink(link) != target {
                let temporary = link + ".trackd-setup"
                unlink(temporary)
                guard symlink(target, temporary) == 0 else { throw .cannotWrite(link, "symlink", Errno(rawValue: errno)) }
                guard rename(temporary, link) == 0 else { throw .cannotWrite(link, "rename", Errno(rawValue: errno)) }
                written.append(link)
            }
            try write(Array("\(zone)\n".utf8), to: paths.system("/etc/timezone"), mode: 0o644)
            written.append(paths.system("/etc/timezone"))
        }

        // Root's SSH keys: sshd runs only while this file is not empty (the image's ssh.service drop-in).
        if !setup.sshKeys.isEmpty {
            let keys = paths.system("/root/.ssh/authorized_keys")
            try write(Array(setup.sshKeys.map { $0 + "\n" }.joined().utf8), to: keys, mode: 0o600, folderMode: 0o700)
            written.append(keys)
        }

        // The host name, `trackd-PLATE` (avahi's name for the board on every network), and the hosts file's line for it.
        if setup.plate != nil {
            let name = setup.hostName
            if try replace(paths.system("/etc/hostname"), with: Array("\(name)\n".utf8), mode: 0o644) {
                written.append(paths.system("/etc/hostname"))
            }
            let hosts = try read(paths.system("/etc/hosts")).map { String(decoding: $0, as: UTF8.self) } ?? ""
            var lines = hosts.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            let line = "127.0.1.1\t\(name)"
            if let index = lines.firstIndex(where: { $0.hasPrefix("127.0.1.1") }) { lines[index] = line } else { lines.append(line) }
            if try replace(paths.system("/etc/hosts"), with: Array((lines.joined(separator: "\n") + "\n").utf8), mode: 0o644) {
                written.append(paths.system("/etc/hosts"))
            }
        }

        // The known network (the office's, home), joined on a second interface of the car's radio.
        if let supplicant = setup.knownNetworkConfiguration() {
            for (path, text, mode) in [(paths.knownNetwork, supplicant, mode_t(0o600)),
                                       (paths.stationNetwork, SetupFile.knownNetwork(), mode_t(0o644))]
            where try replace(path, with: Array(text.utf8), mode: mode) {
                written.append(path)
            }
        }
        return written
    }

    /// What a board has in every case, from `setup` (the file's, or what the board kept) or made by the board: the
    /// owner code and the car's Wi-Fi (hostapd's and networkd's files). `made`: what the board made, for the result
    /// file; `written`: the files changed.
    private func boardsOwn(for setup: SetupFile?, kept: SetupFile?) throws(SetupApplierError)
        -> (made: SetupMade, written: [String]) {
        var made = SetupMade()
        var written: [String] = []
        let owner = try ownerCode(given: setup?.ownerCode, kept: kept)
        made.ownerCode = owner.made
        if owner.written { written.append(paths.ownerCode) }

        var network = setup ?? SetupFile()
        if network.carWiFi == nil {
            let wifi = try madeWiFi()
            network.carWiFi = wifi
            made.carWiFi = wifi
        }
        if let hostapd = network.hostapdConfiguration(), try replace(paths.hostapd, with: Array(hostapd.utf8), mode: 0o600) {
            written.append(paths.hostapd)
        }
        if let wifi = network.carWiFi, try replace(paths.carWiFi, with: wifi.fileContents, mode: 0o600, folderMode: 0o700) {
            written.append(paths.carWiFi)
        }
        if try replace(paths.accessPointNetwork, with: Array(SetupFile.accessPointNetwork().utf8), mode: 0o644) {
            written.append(paths.accessPointNetwork)
        }
        return (made, written)
    }

    /// The car's Wi-Fi the board made (made once, then kept): `trackd-` and four digits, and a passphrase of twelve
    /// letters and digits in threes (no 0/o, 1/l/i to mix up when typed from the result file).
    private func madeWiFi() throws(SetupApplierError) -> WiFiNetwork {
        if let kept = try read(paths.madeWiFi).flatMap(WiFiNetwork.init(file:)) { return kept }
        var generator = SystemRandomNumberGenerator()
        let name = "trackd-" + (0..<4).map { _ in String(UInt8.random(in: 0...9, using: &generator)) }.joined()
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let letters = (0..<12).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        let passphrase = stride(from: 0, to: 12, by: 3).map { String(letters[$0..<$0 + 3]) }.joined(separator: "-")
        let wifi = WiFiNetwork(name: name, passphrase: passphrase)
        try write(wifi.fileContents, to: paths.madeWiFi, mode: 0o600, folderMode: 0o700)
        return wifi
    }

    /// The owner code: `given` (written for trackd-web when it changed), else the one the board has, else a new one of
    /// twelve random digits (`made`: to be shown in the result file). `kept`: the setup the board kept from before.
    private func ownerCode(given: String?, kept: SetupFile?) throws(SetupApplierError)
        -> (code: String, made: String?, written: Bool) {
        let current = try read(paths.ownerCode).map { String(decoding: $0, as: UTF8.self) }
            .map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
        if let given {
            guard given != current else { return (given, nil, false) }
            try write(Array((given + "\n").utf8), to: paths.ownerCode, mode: 0o600, folderMode: 0o700)
            return (given, nil, true)
        }
        if let current, !current.isEmpty {
            // Made by the board before, unless the kept setup says it was given.
            return (current, kept?.ownerCode == current ? nil : current, false)
        }
        var generator = SystemRandomNumberGenerator()
        let digits = (0..<12).map { _ in String(UInt8.random(in: 0...9, using: &generator)) }.joined()
        let code = [digits.prefix(4), digits.dropFirst(4).prefix(4), digits.suffix(4)].joined(separator: "-")
        try write(Array((code + "\n").utf8), to: paths.ownerCode, mode: 0o600, folderMode: 0o700)
        return (code, code, true)
    }

    /// What Raspberry Pi Imager wrote onto the card: its cloud-init files (Imager 2) or else its firstrun.sh (Imager 1);
    /// `nil` when there is neither. `lines`: its settings as setup lines, with the file and line each came from;
    /// `bytes`: the files' contents, for the hash of what was handled.
    private func readImager() throws(SetupApplierError) -> (customisation: ImagerCustomisation,
        lines: Result<(text: [UInt8], origins: [Int: (file: String, line: Int)]), SetupFileError>, bytes: [UInt8])? {
        let userData = try read(paths.onCard("user-data"))
        let networkConfig = try read(paths.onCard("network-config"))
        let parsed: Result<ImagerCustomisation, SetupFileError>
        let bytes: [UInt8]
        if userData != nil || networkConfig != nil {
            parsed = ImagerCustomisation.cloudInit(userData: userData, networkConfig: networkConfig)
            bytes = (userData ?? []) + (networkConfig ?? [])
        } else if let script = try read(paths.onCard(ImagerCustomisation.scriptFile)) {
            parsed = .success(ImagerCustomisation.firstRun(script))
            bytes = script
        } else {
            return nil
        }
        switch parsed {
        case .failure(let error): return (ImagerCustomisation(), .failure(error), bytes)
        case .success(let customisation): return (customisation, .success(customisation.setupLines), bytes)
        }
    }

    /// A setup error of Imager's settings, its problems placed in Imager's files.
    private static func placed(_ error: SetupFileError, _ origins: [Int: (file: String, line: Int)]) -> SetupFileError {
        guard case .problems(let problems) = error else { return error }
        return .problems(problems.map { problem in
            var problem = problem
            if let origin = origins[problem.line] {
                problem.line = origin.line
                problem.file = origin.file
            }
            return problem
        })
    }

    /// Takes Raspberry Pi Imager's words off cmdline.txt: Imager 1's (`systemd.run=/boot/firstrun.sh`, its reboot and
    /// `systemd.unit=kernel-command-line.target`, which boot the board into its script alone) and Imager 2's
    /// `ds=nocloud;i=…` (for a cloud-init the image does not have). The rest of the line stays as it is.
    private func removeImagerBootWords() throws(SetupApplierError) {
        guard let bytes = try read(paths.cmdline) else { return }
        var line = String(decoding: bytes, as: UTF8.self)
        var end = ""
        while let last = line.last, last == "\n" || last == "\r" { end = String(last) + end; line.removeLast() }
        let imagers: [String] = ["systemd.run=/boot/firstrun.sh", "systemd.run_success_action=",
                                 "systemd.unit=kernel-command-line.target", "ds=nocloud"]
        // Word by word on single spaces, so that the rest of the line stays exactly as it was.
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        let kept = words.filter { word in !imagers.contains { word.hasPrefix($0) } }
        guard kept.count != words.count else { return }
        try write(Array((kept.joined(separator: " ") + (end.isEmpty ? "\n" : end)).utf8), to: paths.cmdline, mode: 0o755)
    }

    /// Keeps the hash of the card's file as handled, so that the next boot leaves it alone.
    private func markHandled(_ hash: String) throws(SetupApplierError) {
        try write(Array((hash + "\n").utf8), to: paths.appliedHash, mode: 0o600, folderMode: 0o700)
    }

    /// The codes of tzdata's `iso3166.tab`: the first field of each line that is not a comment.
    static func countries(_ table: [UInt8]) -> Set<String> {
        Set(String(decoding: table, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let code = line.split(separator: "\t").first, code.count == 2 else { return nil }
            return String(code)
        })
    }

    /// A file's bytes; `nil` when it does not exist.
    private func read(_ path: String) throws(SetupApplierError) -> [UInt8]? {
        do {
            let file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            return try file.closeAfter {
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
                    if count == 0 { return bytes }
                    bytes += chunk[0..<count]
                    guard bytes.count <= 1 << 20 else { throw Errno.fileTooLarge }
                }
            }
        } catch Errno.noSuchFileOrDirectory {
            return nil
        } catch {
            throw .cannotRead(path, error as? Errno ?? .ioError)
        }
    }

    /// Writes `bytes` to `path` (as `write`) unless the file holds them already; whether it wrote.
    private func replace(_ path: String, with bytes: [UInt8], mode: mode_t,
                         folderMode: mode_t = 0o755) throws(SetupApplierError) -> Bool {
        guard try read(path) != bytes else { return false }
        try write(bytes, to: path, mode: mode, folderMode: folderMode)
        return true
    }

    /// Replaces a file atomically, making its folder (with `folderMode`; the ones above it 0755) if it is missing.
    private func write(_ bytes: [UInt8], to path: String, mode: mode_t, folderMode: mode_t = 0o755) throws(SetupApplierError) {
        var missing: [String] = []
        var folder = path
        while let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            folder = String(folder[..<slash])
            if access(folder, F_OK) == 0 { break }
            missing.append(folder)
        }
        // Exactly the mode, whatever the umask (chmod after mkdir: a process that narrows its umask for a moment,
        // as a server binding its socket does, would otherwise leave /root/.ssh 0600 and unusable).
        for (index, folder) in missing.enumerated().reversed() {
            let mode = index == 0 ? folderMode : 0o755
            if mkdir(folder, mode) == 0 {
                guard chmod(folder, mode) == 0 else { throw .cannotWrite(folder, "chmod", Errno(rawValue: errno)) }
            } else if errno != EEXIST {
                throw .cannotWrite(folder, "mkdir", Errno(rawValue: errno))
            }
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(bytes, to: path, mode: mode)
        } catch {
            throw .cannotWrite(path, error.step, error.errno)
        }
    }

    /// Where a symbolic link points; `nil` if it is not one.
    private func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why the setup could not be applied at all (a wrong line is not this: it is a `refused` outcome).
public enum SetupApplierError: Error, Sendable, CustomStringConvertible {
    case cannotRead(String, Errno)
    case cannotWrite(String, String, Errno)
    case missing(String, String)
    /// The configuration the setup would give is not one trackd reads (a fault of trackd's, not of the file).
    case configuration(ConfigurationError)

    public var description: String {
        switch self {
        case .cannotRead(let path, let errno): "cannot read \(path): \(errno)"
        case .cannotWrite(let path, let step, let errno): "cannot write \(path): \(step) failed: \(errno)"
        case .missing(let path, let what): "\(path) is missing (\(what))"
        case .configuration(let error): "the setup would give a configuration trackd cannot read: \(error)"
        }
    }
}
