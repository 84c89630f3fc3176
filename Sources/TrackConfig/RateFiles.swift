#if canImport(Glibc)
import Glibc
#endif
import TrackCore

/// The rate files on this machine: the package's table and the user's own rows, read into a `RateTable`
/// (etc/rates.conf says the format; docs/countries.md, "Rates").
///
/// - the package's table: `$TRACKD_RATES` when set, else `share/trackd/rates.conf` beside the program's `bin`
///   folder (`/usr/share/trackd/rates.conf` for `/usr/bin/trackd`), else `etc/rates.conf` of the source tree a
///   SwiftPM build ran in (`.build/TRIPLE/debug/trackd`);
/// - the user's rows: every `*.conf` in `$TRACKD_RATES_DIR`, else `$CONFIGURATION_DIRECTORY/rates.d` under systemd,
///   else `/etc/trackd/rates.d`, in name order.
public struct RateFiles: Sendable {
    /// The table from every file that could be read and was right.
    public var table: RateTable
    /// The files read, in order.
    public var files: [String]
    /// A file with a wrong line, left out whole: `FILE:LINE: what is wrong`.
    public var refused: [RateFileError]
    /// What else is wrong: no package table found, a file that cannot be read.
    public var problems: [String]

    /// Every problem as a line a person reads: the refused files' lines, then the rest.
    public var warnings: [String] {
        refused.map { "\($0) (the file is left out)" } + problems
    }

    /// Reads the table as the environment and the running program place it.
    public static func load(environment: [String: String], executable: String? = currentExecutable()) -> RateFiles {
        var paths: [String] = []
        var problems: [String] = []
        if let package = packageTable(environment: environment, executable: executable) {
            paths.append(package)
        } else {
            problems.append("no rate table found (looked for \(packageCandidates(environment: environment, executable: executable).joined(separator: ", "))): no allowance can be worked out")
        }
        let directory = userDirectory(environment: environment)
        paths += conf(in: directory)
        var texts: [(name: String, text: String)] = []
        for path in paths {
            do {
                texts.append((path, try ConfigurationFile.read(path)))
            } catch {
                problems.append("\(error)")
            }
        }
        let read = RateTable.reading(texts)
        return RateFiles(table: read.table, files: texts.map(\.name), refused: read.refused, problems: problems)
    }

    /// The package's table: the first of `packageCandidates` that exists.
    static func packageTable(environment: [String: String], executable: String?) -> String? {
        packageCandidates(environment: environment, executable: executable).first { access($0, R_OK) == 0 }
    }

    /// Where the package's table may be, in order.
    static func packageCandidates(environment: [String: String], executable: String?) -> [String] {
        if let explicit = environment["TRACKD_RATES"], !explicit.isEmpty { return [explicit] }
        var candidates: [String] = []
        if let executable, let bin = parent(of: executable) {
            if let prefix = parent(of: bin) { candidates.append("\(prefix)/share/trackd/rates.conf") }
            // A SwiftPM build: SOURCE/.build/TRIPLE/CONFIGURATION/PROGRAM.
            if let triple = parent(of: bin), let build = parent(of: triple), let source = parent(of: build),
               build.hasSuffix("/.build") || build.hasSuffix("/.build-arm64") {
                candidates.append("\(source)/etc/rates.conf")
            }
        }
        if !candidates.contains("/usr/share/trackd/rates.conf") { candidates.append("/usr/share/trackd/rates.conf") }
        return candidates
    }

    /// The folder of the user's own rows.
    public static func userDirectory(environment: [String: String]) -> String {
        if let explicit = environment["TRACKD_RATES_DIR"], !explicit.isEmpty { return explicit }
        return "\(environment["CONFIGURATION_DIRECTORY"] ?? "/etc/trackd")/rates.d"
    }

    /// The `*.conf` files in `directory`, in name order (none when it does not exist).
    static func conf(in directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".conf") && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted().map { "\(directory)/\($0)" }
    }

    /// The folder `path` is in, without a trailing slash; `nil` at the root.
    static func parent(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }

    /// The running program's path (`/proc/self/exe`), or `nil`.
    public static func currentExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
