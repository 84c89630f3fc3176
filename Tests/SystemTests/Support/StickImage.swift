import Foundation
import TestSupport

/// A USB stick for the tests: a FAT, exFAT or ext4 image made by Debian's mkfs tools, attached as a loop device
/// (as the kernel shows a real stick) or mounted directly through FUSE (fusefat for FAT; exfat-fuse for exFAT on a
/// kernel without exFAT, as trackd-stick itself does). fusefat shows a FAT's label as a file of that name, so a
/// FAT image mounted through it has no label (its stick is marked by its trackd folder).
struct StickImage {
    enum Kind: String, Sendable {
        case fat = "vfat"
        case exfat
        case ext4
    }

    let path: String
    let kind: Kind

    /// Makes an image of `megabytes` with `label` (none when `nil`).
    static func make(_ kind: Kind, megabytes: Int, label: String?, at path: String) async throws -> StickImage {
        _ = try await checked("/usr/bin/truncate", ["-s", "\(megabytes)M", path])
        switch kind {
        case .fat: _ = try await checked("/sbin/mkfs.vfat", (label.map { ["-n", $0] } ?? []) + [path])
        case .exfat: _ = try await checked("/sbin/mkfs.exfat", (label.map { ["-L", $0] } ?? []) + [path])
        case .ext4: _ = try await checked("/sbin/mkfs.ext4", ["-q", "-F"] + (label.map { ["-L", $0] } ?? []) + [path])
        }
        return StickImage(path: path, kind: kind)
    }

    /// Attaches the image as a loop device (read-only when asked): its path (`/dev/loop3`).
    func attach(readOnly: Bool = false) async throws -> String {
        let result = try await checked("/sbin/losetup", ["--find", "--show"] + (readOnly ? ["--read-only"] : []) + [path])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Mounts the image (through a loop device for exFAT, whose FUSE driver wants a block device) on `point`, as a
    /// person would by hand: the folder to give `trackd-stick --folder`. The loop device, if one was attached.
    func mount(on point: String) async throws -> String? {
        try FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        switch kind {
        case .fat:
            try await fuse("/usr/bin/fusefat", ["-o", "rw+", path, point], point: point)
            return nil
        case .exfat:
            let device = try await attach()
            try await fuse("/sbin/mount.exfat-fuse", [device, point], point: point)
            return device
        case .ext4:
            let device = try await attach()
            _ = try await checked("/bin/mount", [device, point])
            return device
        }
    }

    /// Starts a FUSE driver in a session of its own (it outlives the test's handle on it, as a mount does), its
    /// output to a file (a daemon holding a pipe would keep a reader waiting), and waits until its filesystem is
    /// mounted on `point`.
    private func fuse(_ program: String, _ arguments: [String], point: String) async throws {
        let driver = try TestSubprocess(executable: "/usr/bin/setsid", arguments: [program] + arguments,
                                        outputPath: "\(point).fuse.log")
        let mounted = await poll(upTo: 30) {
            let table = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
            return table.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == point }
                || (!driver.isRunning && driver.exitStatus != 0)
        }
        guard mounted, driver.isRunning || driver.exitStatus == 0 else {
            throw SubprocessError("\(program) did not mount \(point): \(driver.output)")
        }
    }

    /// Unmounts `point` and detaches `device`.
    static func unmount(_ point: String, device: String?) async throws {
        _ = try await checked("/bin/umount", [point])
        if let device { try await detach(device) }
    }

    /// Detaches a loop device.
    static func detach(_ device: String) async throws {
        _ = try await checked("/sbin/losetup", ["--detach", device])
    }

    /// fsck's verdict on the image, without changing it (`-n`): its exit status and what it said.
    func check() async throws -> CommandResult {
        switch kind {
        case .fat: try await run("/sbin/fsck.vfat", ["-n", path])
        case .exfat: try await run("/sbin/fsck.exfat", ["-n", path])
        case .ext4: try await run("/sbin/e2fsck", ["-n", "-f", path])
        }
    }

    /// Runs a program that must succeed.
    @discardableResult
    static func checked(_ program: String, _ arguments: [String]) async throws -> CommandResult {
        let result = try await run(program, arguments)
        guard result.status == 0 else {
            throw SubprocessError("\(program) \(arguments.joined(separator: " ")) exited \(result.status): \(result.output) \(result.error)")
        }
        return result
    }

    private func checked(_ program: String, _ arguments: [String]) async throws -> CommandResult {
        try await Self.checked(program, arguments)
    }
}
