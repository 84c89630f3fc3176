#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TrackCore

/// The system's time-zone database: the TZif files under `/usr/share/zoneinfo` (Debian's tzdata), or under the
/// folder `TZDIR` names, read into `ZoneRules`.
///
/// This is the I/O half of named time zones; `ZoneRules` in TrackCore is the pure half. FoundationEssentials'
/// `TimeZone` knows only fixed offsets from GMT.
public enum ZoneInfo {
    /// Where Debian's tzdata installs the zones.
    public static let defaultDirectory = "/usr/share/zoneinfo"
    /// The largest file read, bytes (tzdata's largest is a few kilobytes).
    static let sizeLimit = 1 << 20

    /// The rules of the IANA zone `identifier` (`Europe/Tallinn`, `UTC`), from the folder `TZDIR` names when it is
    /// set and not empty, else `/usr/share/zoneinfo`; `nil` for a name that cannot be a zone (`isValidIdentifier`),
    /// a zone the folder has no file for, or a file that is not a valid TZif file.
    public static func rules(for identifier: String) -> ZoneRules? {
        rules(for: identifier, directory: directory)
    }

    /// The rules of the IANA zone `identifier` from the TZif file under `directory`; `nil` as for `rules(for:)`.
    public static func rules(for identifier: String, directory: String) -> ZoneRules? {
        guard isValidIdentifier(identifier), !isNoZone(identifier) else { return nil }
        let path = "\(directory)/\(identifier)"
        if let known = loaded.withLock({ $0[path] }) { return known }
        guard let bytes = contents(of: path), let rules = try? ZoneRules(tzif: bytes) else { return nil }
        loaded.withLock { $0[path] = rules }
        return rules
    }

    /// The zones read so far, by path: each file is read once (a log uses one or two zones, asked for at every
    /// trip's date).
    private static let loaded = Mutex<[String: ZoneRules]>([:])

    /// The files and trees Debian's tzdata adds that are TZif files but no zone's id: `localtime`, `posixrules`,
    /// `posix/…`, and `right/…` (whose leap seconds `ZoneRules` does not count).
    static func isNoZone(_ identifier: String) -> Bool {
        ["localtime", "posixrules"].contains(identifier) || identifier.hasPrefix("posix/")
            || identifier.hasPrefix("right/")
    }

    /// The folder read: `TZDIR` of this process's environment when set and not empty, else `defaultDirectory`.
    public static var directory: String {
        guard let value = getenv("TZDIR") else { return defaultDirectory }
        return directory(environment: ["TZDIR": String(cString: value)])
    }

    /// The folder `environment` names: its `TZDIR` when set and not empty, else `defaultDirectory`.
    public static func directory(environment: [String: String]) -> String {
        guard let value = environment["TZDIR"], !value.isEmpty else { return defaultDirectory }
        return value
    }

    /// Whether `identifier` may name a file inside the folder: not empty, not starting with `/`, without a `..`
    /// component or a NUL.
    public static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && !identifier.hasPrefix("/") && !identifier.utf8.contains(0)
            && !identifier.split(separator: "/", omittingEmptySubsequences: false).contains("..")
    }

    /// The bytes of the regular file at `path`; `nil` when it cannot be read or is larger than `sizeLimit`.
    static func contents(of path: String) -> [UInt8]? {
        // O_NONBLOCK: a FIFO of that name reads as empty rather than waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += buffer.prefix(count)
            guard bytes.count <= sizeLimit else { return nil }
        }
    }
}
