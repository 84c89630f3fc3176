#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Why the reports did not reach a stick, said so that the person holding it knows what to do.
public enum StickError: Error, Sendable, CustomStringConvertible {
    /// The device could not be read for its filesystem (gone already, or no filesystem libblkid knows).
    case cannotProbe(device: String, reason: String)
    /// A filesystem trackd-stick does not write to.
    case unsupportedFilesystem(device: String, type: String)
    /// mount(8) refused.
    case cannotMount(device: String, detail: String)
    /// The stick is write-protected, or its filesystem was mounted read-only (the kernel does so after an error).
    case readOnly(path: String)
    /// No room left for the next file.
    case full(path: String)
    /// The filesystem answered with an error: damaged, or the stick failing.
    case damaged(path: String, errno: Errno)
    /// The stick went away in the middle.
    case pulledOut(path: String)
    /// Another error of the system's while writing `path`.
    case cannotWrite(path: String, step: String, errno: Errno)
    /// trackd could not be asked for the log.
    case trackdUnreachable(socket: String, reason: String)
    /// trackd refused or failed a request.
    case logRefused(what: String, reason: String)
    /// A report could not be made from the log.
    case cannotRender(file: String, reason: String)

    /// An error of a write to the stick, by what it means for the stick.
    static func writing(_ path: String, step: String, errno: Errno) -> StickError {
        switch errno {
        case .readOnlyFileSystem: .readOnly(path: path)
        case .noSpace, .fileTooLarge, Errno(rawValue: EDQUOT): .full(path: path)
        case .noSuchAddressOrDevice, Errno(rawValue: ENODEV), Errno(rawValue: ENOTCONN): .pulledOut(path: path)
        case .ioError, Errno(rawValue: EUCLEAN), Errno(rawValue: EBADMSG): .damaged(path: path, errno: errno)
        default: .cannotWrite(path: path, step: step, errno: errno)
        }
    }

    /// A short reason, for the log's record of the copy and `trackctl status`.
    public var reason: String {
        switch self {
        case .cannotProbe: "the stick could not be read"
        case .unsupportedFilesystem(_, let type): "its filesystem (\(type)) is not FAT, exFAT or ext4"
        case .cannotMount: "the stick could not be mounted"
        case .readOnly: "the stick is read-only"
        case .full: "the stick is full"
        case .damaged: "the stick's filesystem is damaged"
        case .pulledOut: "the stick was pulled out"
        case .cannotWrite(_, let step, let errno): "\(step) failed: \(errno)"
        case .trackdUnreachable: "trackd could not be reached"
        case .logRefused(let what, _): "trackd did not give \(what)"
        case .cannotRender(let file, _): "\(file) could not be made"
        }
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .cannotProbe(let device, let reason):
            "cannot read the filesystem of \(device): \(reason); plug the stick in again, or format it (FAT, exFAT or ext4)"
        case .unsupportedFilesystem(let device, let type):
            "\(device) has a \(type) filesystem: trackd-stick writes to FAT (vfat), exFAT and ext4 only; format the "
                + "stick with one of them (on Windows or a Mac: exFAT or FAT32)"
        case .cannotMount(let device, let detail):
            "cannot mount \(device): \(detail); check the stick on a computer (Windows: Check Disk; Linux: fsck)"
        case .readOnly(let path):
            "the stick is read-only (writing \(path)): slide its write-protect switch off, or check its filesystem on "
                + "a computer (the system mounts a damaged FAT read-only); nothing was lost, plug it in again after"
        case .full(let path):
            "the stick is full (writing \(path)): make room on it and plug it in again; the files written so far are "
                + "complete, the rest follows next time"
        case .damaged(let path, let errno):
            "the stick's filesystem answered \(errno) (writing \(path)): it is damaged or failing; check it on a "
                + "computer (Windows: Check Disk; Linux: fsck) or use another stick; the log is untouched"
        case .pulledOut(let path):
            "the stick went away while \(path) was written: the files on it are complete ones or none; plug it in "
                + "again to finish"
        case .cannotWrite(let path, let step, let errno):
            "cannot write \(path): \(step) failed: \(errno)"
        case .trackdUnreachable(let socket, let reason):
            "trackd cannot be reached at \(socket) (\(reason)): is it running? (systemctl status trackd); plug the "
                + "stick in again once it is"
        case .logRefused(let what, let reason):
            "trackd did not give \(what): \(reason)"
        case .cannotRender(let file, let reason):
            "cannot make \(file): \(reason)"
        }
    }
}
