#if canImport(Glibc)
import Glibc
#endif
import CPseudoTerminal
import Synchronization
import SystemPackage
import TrackCore

/// A pseudo-terminal pair that stands in for a serial GNSS receiver: what is written to the master arrives at the
/// slave, which a reader opens like `/dev/ttyACM0`.
///
/// The slave is put in raw mode at once, so bytes reach a reader unchanged even before it configures the port.
/// No descriptor of the slave is kept open here: while no reader has it open the master polls `POLLHUP`, which
/// is how `NMEAPlayer` knows to hold its data. Optionally a symbolic link at a stable path points to the slave,
/// as udev's `/dev/gps0` points to the real device. `close` (or deinit) closes the master, which to the reader
/// looks like the receiver being unplugged, and removes the link.
public final class PseudoTerminal: Sendable {
    /// The master side (non-blocking): write here what the "receiver" sends.
    public let masterDescriptor: Int32
    /// The slave device, e.g. `/dev/pts/7`.
    public let slavePath: String
    /// The symbolic link to the slave, if one was asked for.
    public let linkPath: String?
    private let closed = Atomic<Bool>(false)

    /// Creates the pair; with `linkPath`, also a symbolic link there to the slave, replacing an older link (but
    /// never a file or directory).
    public init(linkPath: String? = nil) throws(PseudoTerminalError) {
        // Close-on-exec from the start: a program started by another thread meanwhile must not inherit the master.
        let master = trackd_posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw .cannotCreate("posix_openpt", Errno(rawValue: errno)) }
        var slave: String
        do throws(PseudoTerminalError) {
            _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
            guard trackd_grantpt(master) == 0 else { throw .cannotCreate("grantpt", Errno(rawValue: errno)) }
            guard trackd_unlockpt(master) == 0 else { throw .cannotCreate("unlockpt", Errno(rawValue: errno)) }
            var name = [CChar](repeating: 0, count: 128)
            let result = trackd_ptsname_r(master, &name, name.count)
            guard result == 0 else { throw .cannotCreate("ptsname_r", Errno(rawValue: result)) }
            slave = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            try PseudoTerminal.makeRaw(slave)
            if let linkPath { try PseudoTerminal.link(linkPath, to: slave) }
        } catch {
            _ = Glibc.close(master)
            throw error
        }
        masterDescriptor = master
        slavePath = slave
        self.linkPath = linkPath
    }

    deinit {
        close()
    }

    /// Whether `close` was called.
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Removes the link (if it still points to this slave) and closes the master: the "receiver" is unplugged.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if let linkPath, PseudoTerminal.target(of: linkPath) == slavePath {
            _ = unlink(linkPath)
        }
        _ = Glibc.close(masterDescriptor)
    }

    /// Waits until the reader has taken everything written so far, up to `timeout` seconds; `false` if it has
    /// not, or if that cannot be told. Closing the master discards what is unread, so call this before `close`
    /// when the end of the data is not meant to be a pulled plug.
    @discardableResult
    public func waitUntilDrained(timeout: Double, stop: StopSignal) -> Bool {
        guard !isClosed else { return false }
        // Only the slave side knows what is unread; a reader's TIOCEXCL keeps others out unless privileged.
        let descriptor = open(slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            stop.sleep(seconds: min(timeout, 1))
            return false
        }
        defer { _ = Glibc.close(descriptor) }
        let start = MonotonicClock.now()
        // Give bytes in the kernel's flip buffer time to reach the read queue before looking.
        guard stop.sleep(seconds: 0.02) else { return false }
        while MonotonicClock.now().seconds(since: start) < timeout {
            var unread: Int32 = 0
            guard ioctl(descriptor, UInt(FIONREAD), &unread) == 0 else { return false }
            if unread == 0 { return true }
            guard stop.sleep(seconds: 0.05) else { return false }
        }
        return false
    }

    /// Opens the slave once to put it in raw mode (no echo, no line editing, no CR/LF translation, 8 bits).
    private static func makeRaw(_ slave: String) throws(PseudoTerminalError) {
        let descriptor = open(slave, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotCreate("open \(slave)", Errno(rawValue: errno)) }
        defer { _ = Glibc.close(descriptor) }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { throw .cannotCreate("tcgetattr", Errno(rawValue: errno)) }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw .cannotCreate("tcsetattr", Errno(rawValue: errno))
        }
    }

    /// Points a symbolic link at `path` to `slave`, atomically replacing an older link.
    private static func link(_ path: String, to slave: String) throws(PseudoTerminalError) {
        var status = stat()
        if lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFLNK {
            throw .notALink(path)
        }
        let temporary = "\(path).\(getpid()).tmp"
        _ = unlink(temporary)
        guard symlink(slave, temporary) == 0 else { throw .cannotLink(path, Errno(rawValue: errno)) }
        guard rename(temporary, path) == 0 else {
            let error = errno
            _ = unlink(temporary)
            throw .cannotLink(path, Errno(rawValue: error))
        }
    }

    /// Where the symbolic link at `path` points, or `nil`.
    static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A pseudo-terminal that cannot be set up.
public enum PseudoTerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A step of creating the pair failed (`posix_openpt`, `grantpt`, …).
    case cannotCreate(String, Errno)
    /// Something other than a symbolic link is in the way of the link.
    case notALink(String)
    /// The link cannot be created there.
    case cannotLink(String, Errno)

    public var description: String {
        switch self {
        case .cannotCreate(let step, let error):
            "cannot create a pseudo-terminal (\(step)): \(error.description)"
        case .notALink(let path):
            "\(path) exists and is not a symbolic link; refusing to replace it (choose another path, e.g. /tmp/gps0)"
        case .cannotLink(let path, let error):
            switch error {
            case .noSuchFileOrDirectory:
                "cannot create the link \(path): its directory does not exist"
            case .permissionDenied, .notPermitted, .readOnlyFileSystem:
                "cannot create the link \(path): \(error.description) (choose a path you can write to, e.g. /tmp/gps0)"
            default:
                "cannot create the link \(path): \(error.description)"
            }
        }
    }
}
