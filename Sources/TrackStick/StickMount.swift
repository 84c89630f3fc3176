#if canImport(Glibc)
import Glibc
#endif
import TrackService

/// A stick mounted for trackd-stick: by mount(8), with options that let nothing on it run or act as a device
/// (nosuid, nodev, noexec), no access times written, and for FAT and exFAT the files owned by root and readable by
/// the trackd group only. A kernel without exFAT gets exfat-fuse's (`mount -t exfat-fuse`) when it is installed; the
/// mount's own flags are set once more on the mount point whatever the driver made of them.
public struct StickMount: Sendable {
    /// The device (`/dev/sda1`).
    public let device: String
    /// The folder it is mounted on.
    public let point: String
    public let filesystem: StickFilesystem

    /// The mount's own flags: read-write or read-only, nothing on it run, no device files or set-user-ID honoured,
    /// no access times written.
    static func flags(readOnly: Bool) -> [String] {
        [readOnly ? "ro" : "rw", "nosuid", "nodev", "noexec", "noatime"]
    }

    /// The options for `filesystem`, read-write or read-only, with `group` owning the files of FAT and exFAT.
    static func options(for filesystem: StickFilesystem, readOnly: Bool, group: gid_t) -> String {
        var options = flags(readOnly: readOnly)
        switch filesystem.type {
        case "vfat": options += ["uid=0", "gid=\(group)", "fmask=0137", "dmask=0027", "utf8", "flush"]
        case "exfat": options += ["uid=0", "gid=\(group)", "fmask=0137", "dmask=0027"]
        default: break
        }
        return options.joined(separator: ",")
    }

    /// Mounts `device` on `point` (made if missing).
    public static func mount(_ device: String, filesystem: StickFilesystem, on point: String, readOnly: Bool,
                             group: gid_t) async throws(StickError) -> StickMount {
        if mkdir(point, 0o700) != 0 && errno != EEXIST {
            throw .cannotMount(device: device, detail: "cannot make the folder \(point): \(String(cString: strerror(errno)))")
        }
        let options = options(for: filesystem, readOnly: readOnly, group: group)
        var outcome = await run(["/bin/mount", "-t", filesystem.type, "-o", options, device, point])
        if outcome.failed, filesystem.type == "exfat", outcome.output.contains("unknown filesystem type"),
           access("/sbin/mount.exfat-fuse", X_OK) == 0 {
            outcome = await run(["/bin/mount", "-t", "exfat-fuse", "-o", options, device, point])
        }
        if outcome.failed {
            rmdir(point)
            throw .cannotMount(device: device, detail: outcome.detail)
        }
        // The flags again, on the mount itself: a FUSE driver (exfat-fuse) takes the options but leaves noexec and
        // noatime off. A stick that cannot have them is not used.
        let flags = await run(["/bin/mount", "-o", (["remount", "bind"] + Self.flags(readOnly: readOnly)).joined(separator: ","),
                               point])
        let mounted = StickMount(device: device, point: point, filesystem: filesystem)
        if flags.failed {
            await mounted.unmount()
            throw .cannotMount(device: device, detail: "its mount's flags (noexec, nosuid, nodev) could not be set: \(flags.detail)")
        }
        return mounted
    }

    /// Unmounts the stick (which writes out what is still cached) and removes the folder; a stick that is gone or
    /// busy is detached lazily instead. Whether the clean unmount succeeded.
    @discardableResult
    public func unmount() async -> Bool {
        let clean = await Self.run(["/bin/umount", point])
        if clean.failed { _ = await Self.run(["/bin/umount", "--lazy", point]) }
        rmdir(point)
        return !clean.failed
    }

    /// Whether a folder `name` is at the top of the mounted stick.
    public func hasFolder(_ name: String) -> Bool {
        var info = stat()
        return stat("\(point)/\(name)", &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A run of mount(8) or umount(8) with a minute to finish.
    private static func run(_ command: [String]) async -> Result {
        Result(await AlertCommandRun(command: command, environment: ["LC_ALL": "C"], timeout: 60).run())
    }

    private struct Result {
        let outcome: AlertCommandRun.Outcome

        init(_ outcome: AlertCommandRun.Outcome) {
            self.outcome = outcome
        }

        var failed: Bool { outcome.ending != .exited(0) }
        var output: String { outcome.output }

        /// What mount said, on one line.
        var detail: String {
            let said = output.split(whereSeparator: \.isNewline).joined(separator: " ")
            switch outcome.ending {
            case .exited(let status): return said.isEmpty ? "mount exited \(status)" : said
            case .killed(let signal): return "mount was killed by signal \(signal)"
            case .timedOut: return "mount did not finish within a minute"
            case .stopped: return "stopped"
            case .cannotStart(let reason): return "mount could not be started: \(reason)"
            }
        }
    }
}
