#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// A serial device opened for reading NMEA: exclusive, raw, 8N1, no flow control, non-blocking.
///
/// Exclusive twice over: `flock` keeps out every other process that locks (another trackd, gpsd), even one
/// running as root, and `TIOCEXCL` makes the kernel refuse further opens by anyone without `CAP_SYS_ADMIN`
/// (a stray `cat`). The lock goes with the descriptor; `TIOCEXCL` is cleared again on `close`, because on a
/// pseudo-terminal it would otherwise outlive us for as long as the master is open.
struct SerialPort: ~Copyable {
    /// The open descriptor, for `poll` and `read`.
    let descriptor: Int32
    /// The path as given.
    let path: String

    /// Opens `path` at `baud` and configures it; nothing is read or written.
    init(path: String, baud: Int) throws(SerialPortError) {
        guard let speed = SerialPort.speed(forBaud: baud) else { throw .unsupportedBaud(baud) }
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SerialPortError(opening: path, errno: errno) }
        // Until the lock is ours, close without clearing TIOCEXCL: it may be another process's.
        if let error = SerialPort.lock(descriptor) {
            _ = Glibc.close(descriptor)
            throw error == EWOULDBLOCK ? .inUse(path) : SerialPortError(configuring: path, errno: error)
        }
        do throws(SerialPortError) {
            try SerialPort.configure(descriptor, path: path, baud: baud, speed: speed)
        } catch {
            _ = Glibc.close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        _ = ioctl(descriptor, UInt(TIOCNXCL))
        _ = Glibc.close(descriptor)
    }

    /// Closes the port now.
    consuming func close() {}

    /// Takes the `flock`; `nil` once it is ours, else the `errno`.
    ///
    /// A lock that is busy is asked for again for a quarter of a second before the device counts as in use: a
    /// child this process (or another) is spawning shares the descriptors it had open — a port just closed, with its
    /// lock — from `fork` until `exec` closes them, and a port reopened in that moment (the next speed of a probe,
    /// the chosen receiver taken over) would otherwise be "in use" by ourselves. A program that holds the port
    /// (gpsd) still holds it a quarter of a second later.
    private static func lock(_ descriptor: Int32) -> Int32? {
        var attempt = 0
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return nil }
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR, attempt < lockAttempts else { return error }
            attempt += 1
            usleep(25_000)
        }
    }

    /// How often a busy lock is asked for again, 25 ms apart.
    private static let lockAttempts = 10

    /// Raw mode, 8N1, no flow control, `VMIN = VTIME = 0`, the speed; then stale input is dropped.
    private static func configure(_ descriptor: Int32, path: String, baud: Int, speed: speed_t) throws(SerialPortError) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialPortError(configuring: path, errno: errno)
        }
        guard ioctl(descriptor, UInt(TIOCEXCL)) == 0 else {
            throw SerialPortError(configuring: path, errno: errno)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        settings.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        withUnsafeMutableBytes(of: &settings.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 0
            controlCharacters[Int(VTIME)] = 0
        }
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0 else {
            throw .unsupportedBaud(baud)
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            let error = errno
            throw error == EINVAL ? .unsupportedBaud(baud) : SerialPortError(configuring: path, errno: error)
        }
        _ = tcflush(descriptor, TCIFLUSH)
    }

    /// The termios speed constant for a baud rate in `SourceAddress.supportedBaudRates`.
    static func speed(forBaud baud: Int) -> speed_t? {
        // Converted one by one: glibc 2.41 imports the B* constants as Int32, glibc 2.42 and later as UInt32.
        switch baud {
        case 4800: speed_t(B4800)
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115_200: speed_t(B115200)
        case 230_400: speed_t(B230400)
        case 460_800: speed_t(B460800)
        case 921_600: speed_t(B921600)
        default: nil
        }
    }
}

/// Why a serial receiver cannot be opened or read, with what to do about it.
public enum SerialPortError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The baud rate is not one of `SourceAddress.supportedBaudRates`.
    case unsupportedBaud(Int)
    /// Nothing at the path (not plugged in, or the udev link is missing).
    case notPresent(String, Errno)
    /// The user may not open the device.
    case permissionDenied(String)
    /// Another process has the device open exclusively.
    case inUse(String)
    /// The path is not a serial device.
    case notATerminal(String)
    /// The device went away while it was being opened.
    case vanished(String, Errno)
    /// Any other failure to open or configure the device.
    case cannotOpen(String, Errno)

    /// Classifies a failed `open(2)`.
    init(opening path: String, errno code: Int32) {
        switch code {
        case ENOENT, ENXIO, ENODEV: self = .notPresent(path, Errno(rawValue: code))
        case EACCES, EPERM: self = .permissionDenied(path)
        case EBUSY: self = .inUse(path)
        case EISDIR: self = .notATerminal(path)
        default: self = .cannotOpen(path, Errno(rawValue: code))
        }
    }

    /// Classifies a failed `flock`, `ioctl` or `tcsetattr` on a descriptor that did open.
    init(configuring path: String, errno code: Int32) {
        switch code {
        case ENOTTY, EINVAL: self = .notATerminal(path)
        case EIO, ENXIO, ENODEV: self = .vanished(path, Errno(rawValue: code))
        case EACCES, EPERM: self = .permissionDenied(path)
        default: self = .cannotOpen(path, Errno(rawValue: code))
        }
    }

    /// Whether trying again later can help (a device may be plugged in, freed, or given the right group).
    public var isRetryable: Bool {
        switch self {
        case .unsupportedBaud, .notATerminal: false
        case .notPresent, .permissionDenied, .inUse, .vanished, .cannotOpen: true
        }
    }

    public var description: String {
        switch self {
        case .unsupportedBaud(let baud):
            "unsupported baud rate \(baud): use one of "
                + SourceAddress.supportedBaudRates.map(String.init).joined(separator: ", ")
        case .notPresent(let path, let error):
            "device \(path) not present: \(error.description)"
        case .permissionDenied(let path):
            "no permission to open \(path): add the user to the dialout group "
                + "(sudo usermod -aG dialout USER, then log in again) or adjust the udev rule"
        case .inUse(let path):
            "\(path) is in use by another process (another trackd, gpsd, ModemManager or a terminal program); "
                + "stop it or use another device"
        case .notATerminal(let path):
            "\(path) is not a serial device: give the receiver's tty, e.g. serial:///dev/ttyACM0"
        case .vanished(let path, let error):
            "device \(path) unplugged while opening (\(error.description))"
        case .cannotOpen(let path, let error):
            "cannot open \(path): \(error.description)"
        }
    }
}
