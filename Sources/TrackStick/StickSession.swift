#if canImport(Glibc)
import Glibc
#endif
import Logging
import TrackConfig
import TrackService

/// One stick plugged in: its filesystem read, whether it qualifies (trackd.conf's `stick:` section), and its mount.
public struct StickSession: Sendable {
    public let device: String
    public let settings: StickConfiguration
    /// The folder under which the stick is mounted (`/run/trackd-stick`).
    public let mountRoot: String
    /// The group that may read a FAT or exFAT stick's files while it is mounted.
    public let group: gid_t

    public init(device: String, settings: StickConfiguration, mountRoot: String, group: gid_t) {
        self.device = device
        self.settings = settings
        self.mountRoot = mountRoot
        self.group = group
    }

    /// Where the filesystem on `device` is mounted already, from /proc/self/mountinfo (the kernel's mounts; one
    /// through a FUSE driver shows as the driver's, not the device's); `nil` when it is not.
    static func mountPoint(of device: String) -> String? {
        var info = stat()
        guard stat(device, &info) == 0, (info.st_mode & S_IFMT) == S_IFBLK else { return nil }
        let (major, minor) = ProcFile.majorMinor(UInt64(info.st_rdev))
        for line in (ProcFile.read("/proc/self/mountinfo") ?? "").split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 4, fields[2] == "\(major):\(minor)" { return String(fields[4]) }
        }
        return nil
    }

    /// The folder at a stick's top that marks it for the reports.
    public static let markFolder = "trackd"

    /// The stick mounted read-write when it qualifies; `nil` (and a line in the journal saying why) when it does not.
    /// A stick that qualifies by its folder only is looked at read-only first, so that nothing is written to one
    /// that does not.
    public func mountIfQualified(logger: Logger) async throws(StickError) -> StickMount? {
        if let place = Self.mountPoint(of: device) {
            logger.notice("""
                stick left alone: \(device) is mounted already, at \(place) (the board's own disk on USB, or a stick \
                someone mounted by hand)
                """, metadata: ["device": "\(device)"])
            return nil
        }
        let filesystem = try StickFilesystem.probe(device)
        guard StickFilesystem.supported.contains(filesystem.type) else {
            throw .unsupportedFilesystem(device: device, type: filesystem.type.isEmpty ? "unknown" : filesystem.type)
        }
        let point = "\(mountRoot)/\(device.split(separator: "/").last.map(String.init) ?? "stick")"
        if mkdir(mountRoot, 0o700) != 0 && errno != EEXIST {
            throw .cannotMount(device: device, detail: "cannot make \(mountRoot): \(String(cString: strerror(errno)))")
        }
        let labelled = !filesystem.label.isEmpty
            && filesystem.label.uppercased() == settings.label.uppercased()
        if settings.accept == .any || labelled {
            return try await StickMount.mount(device, filesystem: filesystem, on: point, readOnly: false, group: group)
        }
        let look = try await StickMount.mount(device, filesystem: filesystem, on: point, readOnly: true, group: group)
        let marked = look.hasFolder(Self.markFolder)
        await look.unmount()
        guard marked else {
            logger.notice("""
                stick left alone: it has no \(Self.markFolder) folder at its top and is not labelled \(settings.label) \
                (make the folder on it, or label it \(settings.label); trackd.conf's stick.accept: any takes every stick)
                """, metadata: ["device": "\(device)", "label": "\(filesystem.label)", "filesystem": "\(filesystem.type)"])
            return nil
        }
        return try await StickMount.mount(device, filesystem: filesystem, on: point, readOnly: false, group: group)
    }
}
