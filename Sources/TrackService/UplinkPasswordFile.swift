#if canImport(Glibc)
import Glibc
#endif

/// The broker's password, from a file only trackd may read: `uplink.password_file`, else the systemd credential
/// `mqtt-password` (`LoadCredential=`, in `$CREDENTIALS_DIRECTORY`).
public enum UplinkPasswordFile {
    /// Why the password cannot be used.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case cannotRead(path: String, reason: String)
        /// Others than its owner and group may read it: a password any user of the board can read is not one.
        case readableByOthers(path: String, mode: String)
        case empty(path: String)

        public var description: String {
            switch self {
            case .cannotRead(let path, let reason): "cannot read the broker's password from \(path): \(reason)"
            case .readableByOthers(let path, let mode):
                "\(path) is readable by every user (mode \(mode)): chmod 600 it, owned by trackd or root"
            case .empty(let path): "\(path) is empty: it should hold the broker's password"
            }
        }
    }

    /// The file to read: the configured one, else the systemd credential when there is one.
    public static func path(configured: String?, environment: [String: String]) -> String? {
        if let configured { return configured }
        guard let directory = environment["CREDENTIALS_DIRECTORY"] else { return nil }
        let path = "\(directory)/mqtt-password"
        return access(path, F_OK) == 0 ? path : nil
    }

    /// The password: the file's first line.
    public static func read(_ path: String) throws(Failure) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var information = stat()
        guard fstat(descriptor, &information) == 0 else {
            throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
        }
        if information.st_mode & S_IROTH != 0 {
            throw .readableByOthers(path: path, mode: String(information.st_mode & 0o777, radix: 8))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes += buffer.prefix(count)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let password = String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard !password.isEmpty else { throw .empty(path: path) }
        return password.hasSuffix("\r") ? String(password.dropLast()) : password
    }
}
