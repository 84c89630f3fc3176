#if canImport(Glibc)
import Glibc
#endif

extension ProfileSettings {
    /// Whether `name` is a zone of the system's time-zone database: `$TZDIR/NAME` (`/usr/share/zoneinfo/NAME` when
    /// `TZDIR` is not set, as in glibc) is a TZif file. A name that could leave the folder (`..`, a leading `/`)
    /// is not, nor the files and trees Debian adds that are no zone's id (`localtime`, `posixrules`, `posix/…`,
    /// `right/…`), which the log's reports could not use; `folder` replaces the database's for tests.
    static func isTimeZone(_ name: String, folder: String? = nil) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains(".."), !name.contains("\0"),
              !["localtime", "posixrules"].contains(name), !name.hasPrefix("posix/"), !name.hasPrefix("right/")
        else { return false }
        let database = folder ?? getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? "/usr/share/zoneinfo"
        // O_NONBLOCK: a FIFO of that name reads as empty rather than waiting for a writer.
        let descriptor = open("\(database)/\(name)", O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        return Glibc.read(descriptor, &magic, magic.count) == magic.count && magic == Array("TZif".utf8)
    }
}
