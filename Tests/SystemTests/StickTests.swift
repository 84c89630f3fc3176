import Foundation
import Glibc
import TestSupport
import Testing

/// The month's reports taken home on a USB stick (docs/install.md, "Taking the logs home"): trackd-stick against
/// FAT and exFAT images (and ext4), through loop devices and FUSE, with a real trackd holding a log of three months.
/// Needs root (mounts, loop devices), as CI runs: skipped otherwise, and then a failure where
/// `TRACKD_TESTS_NEED_ROOT=1` says they must run (`.ci/run` sets it; `StickTestsAsRoot`).
@Suite(.serialized, .enabled(if: getuid() == 0, "SKIPPED: StickTests need root (mounts, loop devices); CI runs the suite as root"))
struct StickTests {

    /// The time of making every report says (`SOURCE_DATE_EPOCH`): trackd-stick's files and trackctl's exports
    /// made with one clock, so that they can be compared byte for byte.
    static let epoch = "1764417600"

    /// A trackd whose log holds trips in September, October and November 2026 (one of them recorded, with its
    /// route), kept running on a receiver parked after the drive.
    struct Log {
        let folder: TemporaryFolder
        let trackd: Trackd
        /// The receiver (`trackctl play` on a pseudo-terminal), parked after the drive until the test ends.
        var receiver: TestSubprocess?
        var socket: String { trackd.socket }

        static func make() async throws -> Log {
            let folder = try TemporaryFolder()
            try Data().write(to: URL(fileURLWithPath: folder.file("stick.conf")))
            let recording = folder.file("drive.nmea")
            try DriveLog.piece(of: DriveLog.demo, seconds: 150, to: recording)
            try DriveLog.appendParking(to: recording, seconds: 5400)
            // The receiver is plugged in once the trip has been started (below), so that the drive is the trip's
            // whatever the machine's load. (Played by trackd from a file, the drive began with trackd, and on a busy
            // machine the trip was once started after the drive's moving part: a November GPX without a point.)
            let link = folder.file("gps0")
            let trackd = try await Trackd.start(state: folder.path, source: "serial://\(link)?baud=9600")
            var log = Log(folder: folder, trackd: trackd, receiver: nil)
            try await log.ask(["profile", "set", "--driver", "Kim Berg", "--plate", "ab 123", "--reason", "new log"])
            for trip in [["--date", "2026-09-15", "--distance", "42.5", "--business", "--purpose", "Delivery of spare parts",
                          "--customer", "Example Ltd", "--destination", "Tartu mnt 1, Tallinn"],
                         ["--date", "2026-10-10", "--distance", "12.0", "--private"],
                         ["--date", "2026-11-20", "--distance", "30.2", "--business", "--purpose", "Site visit"]] {
                try await log.ask(["add"] + trip + ["--reason", "paper log"])
            }
            try await log.ask(["start", "--business", "--purpose", "Delivery to the harbour"])
            log.receiver = try TestSubprocess(executable: Products.trackctl,
                                              arguments: ["play", recording, "--link", link, "--speed", "16"],
                                              outputPath: folder.file("play.log"))
            #expect(await trackd.reached("2026-11-22T08:02:40"), "\(trackd.process.output)")
            try await log.ask(["stop"])
            return log
        }

        @discardableResult
        func ask(_ arguments: [String], adding: [String: String] = [:]) async throws -> CommandResult {
            let result = try await run(Products.trackctl, ["--socket", socket] + arguments, removing: ["TRACKD_SOCKET"],
                                       adding: adding)
            #expect(result.status == 0, "\(arguments): \(result.output) \(result.error)")
            return result
        }

        /// What the stick's car folder must hold: `trackctl export` of each month in each format, made at
        /// `StickTests.epoch`, and `trackctl verify`'s words.
        func expected() async throws -> [String: Data] {
            var files: [String: Data] = [:]
            for month in ["2026-09", "2026-10", "2026-11"] {
                for format in ["csv", "html", "gpx"] {
                    let output = folder.file("expected-\(month).\(format)")
                    try await ask(["export", "--format", format, "--month", month, "--output", output],
                                  adding: ["SOURCE_DATE_EPOCH": StickTests.epoch])
                    files["\(month).\(format)"] = try Data(contentsOf: URL(fileURLWithPath: output))
                }
            }
            let verify = try await run(Products.trackctl, ["--socket", socket, "verify"], removing: ["TRACKD_SOCKET"])
            #expect(verify.status == 0, "\(verify.output) \(verify.error)")
            files["verify.txt"] = Data(verify.output.utf8)
            return files
        }

        /// `trackctl --json status`'s last copy to a stick.
        func lastCopy() async -> [String: Any]? {
            await trackd.status()?["stick"] as? [String: Any]
        }

        func stop() async {
            await trackd.stop()
        }
    }

    /// Runs trackd-stick with `arguments` against `log`'s trackd.
    static func stick(_ arguments: [String], log: Log, adding: [String: String] = [:]) async throws -> CommandResult {
        try await run(Products.trackdStick, arguments + ["--control-socket", log.socket, "--config", log.folder.file("stick.conf")],
                      removing: ["TRACKD_SOCKET", "INVOCATION_ID", "JOURNAL_STREAM"],
                      adding: ["SOURCE_DATE_EPOCH": epoch].merging(adding) { $1 })
    }

    /// The files of the car's folder under `root` (names not starting with a dot), with their bytes.
    static func files(under root: String) throws -> [String: Data] {
        let folder = "\(root)/trackd/AB-123"
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        return files
    }

    @Test func aFATStickGetsEveryMonthAsTrackctlExportsItThenOnlyWhatChanged() async throws {
        let log = try await Log.make()
        let image = try await StickImage.make(.fat, megabytes: 64, label: nil, at: log.folder.file("fat.img"))
        let point = log.folder.file("fat")
        _ = try await image.mount(on: point)

        let first = try await Self.stick(["--folder", point], log: log)
        #expect(first.status == 0, "\(first.output) \(first.error)")
        var expected = try await log.expected()
        var onStick = try Self.files(under: point)
        #expect(Set(onStick.keys) == Set(expected.keys).union(["README.txt"]), "\(onStick.keys.sorted())")
        for (name, bytes) in expected { #expect(onStick[name] == bytes, "\(name) equals trackctl's, byte for byte") }
        #expect(String(decoding: onStick["verify.txt"] ?? Data(), as: UTF8.self).hasPrefix("intact: "))
        #expect(String(decoding: onStick["2026-11.gpx"] ?? Data(), as: UTF8.self).contains("<trkpt "), "the drive's route")
        var copy = await log.lastCopy()
        #expect(copy?["written"] as? Int == 11 && copy?["unchanged"] as? Int == 0, "\(copy ?? [:])")
        #expect(copy?["folder"] as? String == "trackd/AB-123")
        let status = try await log.ask(["status"])
        #expect(status.output.contains("  stick    last copy "), "\(status.output)")
        #expect(status.output.contains("trackd/AB-123: 11 files written, 0 unchanged"), "\(status.output)")

        // Plugged in again with nothing changed: nothing written.
        let second = try await Self.stick(["--folder", point], log: log)
        #expect(second.status == 0, "\(second.error)")
        copy = await log.lastCopy()
        #expect(copy?["written"] as? Int == 0 && copy?["unchanged"] as? Int == 11, "\(copy ?? [:])")

        // October's trip edited: October's table and report, and (for the chain head every report prints) the
        // other months' reports and the receipt; the other tables and the tracks stay.
        try await log.ask(["edit", "2", "--purpose", "Dentist", "--reason", "forgot it"])
        let third = try await Self.stick(["--folder", point], log: log)
        #expect(third.status == 0, "\(third.error)")
        copy = await log.lastCopy()
        #expect(copy?["written"] as? Int == 5 && copy?["unchanged"] as? Int == 6, "\(copy ?? [:])")
        expected = try await log.expected()
        onStick = try Self.files(under: point)
        for (name, bytes) in expected { #expect(onStick[name] == bytes, "\(name) after the edit") }

        // The drive's route erased: it reaches the stick at the next insertion.
        try await log.ask(["erase", "--routes", "--before", "2026-11-23", "--reason", "privacy", "--yes"])
        let fourth = try await Self.stick(["--folder", point], log: log)
        #expect(fourth.status == 0, "\(fourth.error)")
        onStick = try Self.files(under: point)
        expected = try await log.expected()
        for (name, bytes) in expected { #expect(onStick[name] == bytes, "\(name) after the erasure") }
        #expect(!String(decoding: onStick["2026-11.gpx"] ?? Data(), as: UTF8.self).contains("<trkpt "), "no route left")

        try await StickImage.unmount(point, device: nil)
        let fsck = try await image.check()
        #expect(fsck.status == 0, "the FAT is consistent: \(fsck.output) \(fsck.error)")
        await log.stop()
    }

    @Test func anExFATStickPluggedInIsReadMountedWrittenAndUnmounted() async throws {
        let log = try await Log.make()
        let image = try await StickImage.make(.exfat, megabytes: 64, label: "TRACKD", at: log.folder.file("exfat.img"))
        let device = try await image.attach()
        let mounts = log.folder.file("mounts")
        let result = try await Self.stick([device, "--mount-dir", mounts], log: log)
        #expect(result.status == 0, "\(result.output) \(result.error)")
        let table = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
        #expect(!table.contains(mounts), "unmounted when done: \(table)")
        try await StickImage.detach(device)
        let point = log.folder.file("look")
        let again = try await image.mount(on: point)
        let expected = try await log.expected()
        let onStick = try Self.files(under: point)
        for (name, bytes) in expected { #expect(onStick[name] == bytes, "\(name) equals trackctl's, byte for byte") }
        #expect(onStick["README.txt"].map { String(decoding: $0, as: UTF8.self).contains("YYYY-MM.html") } == true)
        try await StickImage.unmount(point, device: again)
        let copy = await log.lastCopy()
        #expect(copy?["label"] as? String == "TRACKD" && copy?["filesystem"] as? String == "exfat", "\(copy ?? [:])")
        await log.stop()
    }

    @Test func aStickIsMountedWithNothingToRunNoDevicesNoSetuidAndItsFilesForRootAndTheGroup() async throws {
        let log = try await Log.make()
        let image = try await StickImage.make(.exfat, megabytes: 64, label: "TRACKD", at: log.folder.file("exfat.img"))
        let device = try await image.attach()
        let mounts = log.folder.file("mounts")
        // Pulled out in the middle of the copy (killed), so that its mount is there to be read.
        let cut = try await Self.stick([device, "--mount-dir", mounts], log: log,
                                       adding: ["TRACKD_STICK_KILL_AFTER_BYTES": "2000"])
        #expect(cut.status != 0, "killed in the copy: \(cut.error)")
        let table = try String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
        let line = try #require(table.split(separator: "\n").first { $0.split(separator: " ").dropFirst().first?.hasPrefix(mounts) == true },
                                "trackd-stick's mount under \(mounts): \(table)")
        let fields = line.split(separator: " ").map(String.init)
        let point = fields[1]
        // The kernel's flags, whichever driver (the kernel's exFAT, or exfat-fuse here).
        let options = Set(fields[3].split(separator: ",").map(String.init))
        for option in ["rw", "nosuid", "nodev", "noexec", "noatime"] {
            #expect(options.contains(option), "\(option) in \(line)")
        }
        // fmask=0137, dmask=0027, uid=0, gid=trackd's: what the driver makes of them, on what was written.
        let group = getgrnam("trackd").map { $0.pointee.gr_gid } ?? 0
        var written: [(String, stat)] = []
        let root = "\(point)/trackd"
        for path in [root] + ((try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []).map({ "\(root)/\($0)" }) {
            var info = stat()
            if stat(path, &info) == 0 { written.append((path, info)) }
        }
        #expect(written.count >= 2, "the copy began: \(written.map(\.0))")
        for (path, info) in written {
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            #expect(info.st_mode & 0o777 == (isFolder ? 0o750 : 0o640), "\(path): \(String(info.st_mode & 0o777, radix: 8))")
            #expect(info.st_uid == 0 && info.st_gid == group, "\(path): \(info.st_uid):\(info.st_gid)")
        }
        _ = try await run("/bin/umount", [point])
        try await StickImage.detach(device)
        await log.stop()
    }

    @Test func aStickWithoutTheMarkIsLeftAloneUntilItHasATrackdFolder() async throws {
        let log = try await Log.make()
        let image = try await StickImage.make(.ext4, megabytes: 32, label: "HOLIDAYS", at: log.folder.file("ext4.img"))
        // The first look is read-only: not a byte of the stick changes (a read-write mount of ext4 alone writes its
        // superblock: the mount count and time).
        let untouched = try Data(contentsOf: URL(fileURLWithPath: log.folder.file("ext4.img")))
        let device = try await image.attach()
        let mounts = log.folder.file("mounts")
        let left = try await Self.stick([device, "--mount-dir", mounts], log: log)
        #expect(left.status == 0, "\(left.error)")
        #expect(left.error.contains("stick left alone: it has no trackd folder at its top and is not labelled TRACKD"),
                "\(left.error)")
        #expect(await log.lastCopy() == nil, "nothing recorded for a stick left alone")
        try await StickImage.detach(device)
        #expect(try Data(contentsOf: URL(fileURLWithPath: log.folder.file("ext4.img"))) == untouched,
                "the stick left alone is byte for byte as it was")
        let point = log.folder.file("look")
        var again = try await image.mount(on: point)
        #expect(try FileManager.default.contentsOfDirectory(atPath: point) == ["lost+found"], "nothing written to it")
        try FileManager.default.createDirectory(atPath: "\(point)/trackd", withIntermediateDirectories: false)
        try await StickImage.unmount(point, device: again)

        let marked = try await image.attach()
        // Mounted already (the board's own disk on USB, or by hand): left alone, marked or not.
        let busy = log.folder.file("busy")
        try FileManager.default.createDirectory(atPath: busy, withIntermediateDirectories: true)
        try await StickImage.checked("/bin/mount", ["-o", "ro", marked, busy])
        let mountedAlready = try await Self.stick([marked, "--mount-dir", mounts], log: log)
        try await StickImage.checked("/bin/umount", [busy])
        #expect(mountedAlready.status == 0, "\(mountedAlready.error)")
        #expect(mountedAlready.error.contains("stick left alone: \(marked) is mounted already, at \(busy)"),
                "\(mountedAlready.error)")
        #expect(await log.lastCopy() == nil, "nothing recorded for a stick mounted already")
        let taken = try await Self.stick([marked, "--mount-dir", mounts], log: log)
        #expect(taken.status == 0, "\(taken.error)")
        try await StickImage.detach(marked)
        again = try await image.mount(on: point)
        let expected = try await log.expected()
        let onStick = try Self.files(under: point)
        for (name, bytes) in expected { #expect(onStick[name] == bytes, "\(name) on the marked stick") }
        try await StickImage.unmount(point, device: again)
        await log.stop()
    }

    @Test func aCopyInterruptedAtTwentyRandomPointsLeavesOnlyCompleteFilesAndTheNextFinishesIt() async throws {
        let log = try await Log.make()
        let expected = try await log.expected()
        // The bytes of a whole copy (the files, the README and the manifest), measured on a first stick.
        let measure = try await StickImage.make(.exfat, megabytes: 64, label: "TRACKD", at: log.folder.file("measure.img"))
        let measured = log.folder.file("measured")
        let measureDevice = try await measure.mount(on: measured)
        _ = try await Self.stick(["--folder", measured], log: log)
        let folder = "\(measured)/trackd/AB-123"
        let total = try FileManager.default.contentsOfDirectory(atPath: folder).reduce(0) { sum, name in
            sum + ((try? FileManager.default.attributesOfItem(atPath: "\(folder)/\(name)")[.size] as? Int) ?? 0)
        }
        try await StickImage.unmount(measured, device: measureDevice)
        #expect(total > 10_000, "a copy of \(total) bytes")

        var random = SplitMix64(seed: 45)
        for round in 1...20 {
            let point = Int(random.next() % UInt64(total - 1)) + 1
            let image = try await StickImage.make(.exfat, megabytes: 64, label: "TRACKD",
                                                  at: log.folder.file("round-\(round).img"))
            let mounted = log.folder.file("round-\(round)")
            let device = try await image.mount(on: mounted)
            let cut = try await Self.stick(["--folder", mounted], log: log,
                                           adding: ["TRACKD_STICK_KILL_AFTER_BYTES": "\(point)"])
            #expect(cut.status != 0, "round \(round): killed after \(point) bytes")
            // Pulled out: the FUSE driver killed with whatever it had not written, the mount and device gone.
            _ = try await run("/usr/bin/pkill", ["-KILL", "-f", "mount.exfat-fuse \(device ?? "")"])
            _ = try await run("/bin/umount", ["--lazy", mounted])
            if let device { try await StickImage.detach(device) }

            // Plugged in again: only complete files under their names; then the copy finishes.
            let look = try await image.mount(on: mounted)
            let partial = (try? Self.files(under: mounted)) ?? [:]
            for (name, bytes) in partial where name != "README.txt" {
                #expect(expected[name] == bytes, "round \(round) (\(point) bytes): \(name) is complete or absent")
            }
            let finished = try await Self.stick(["--folder", mounted], log: log)
            #expect(finished.status == 0, "round \(round): \(finished.error)")
            let whole = try Self.files(under: mounted)
            for (name, bytes) in expected { #expect(whole[name] == bytes, "round \(round): \(name) completed") }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(mounted)/trackd/AB-123")
                .filter { $0.hasSuffix(".partial") }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
            try await StickImage.unmount(mounted, device: look)
        }
        await log.stop()
    }

    @Test func aFullAReadOnlyAndADamagedStickEachSayWhatIsWrongAndTrackdRecordsOn() async throws {
        let log = try await Log.make()
        let expected = try await log.expected()

        // Full: a small exFAT stick nearly filled by a file of its owner's (exFAT: fusefat, this machine's FAT
        // without the kernel's, answers a full disk with EPERM).
        let small = try await StickImage.make(.exfat, megabytes: 4, label: "TRACKD", at: log.folder.file("small.img"))
        let point = log.folder.file("small")
        let smallDevice = try await small.mount(on: point)
        var free = statvfs()
        statvfs(point, &free)
        let room = Int(free.f_bavail) * Int(free.f_bsize)
        try Data(count: max(0, room - 40_000)).write(to: URL(fileURLWithPath: "\(point)/films.bin"))
        let full = try await Self.stick(["--folder", point], log: log)
        #expect(full.status == 1, "\(full.error)")
        #expect(full.error.contains("the stick is full"), "\(full.error)")
        #expect((await log.lastCopy())?["problem"] as? String == "the stick is full")
        for (name, bytes) in (try? Self.files(under: point)) ?? [:] where name != "README.txt" {
            #expect(expected[name] == bytes, "\(name): complete or absent on a full stick")
        }
        #expect(FileManager.default.fileExists(atPath: "\(point)/films.bin"), "the owner's file stays")
        try await StickImage.unmount(point, device: smallDevice)

        // Read-only: the write-protect switch (a read-only loop device).
        let locked = try await StickImage.make(.ext4, megabytes: 32, label: "TRACKD", at: log.folder.file("locked.img"))
        let device = try await locked.attach(readOnly: true)
        let readOnly = try await Self.stick([device, "--mount-dir", log.folder.file("mounts")], log: log)
        try await StickImage.detach(device)
        #expect(readOnly.status == 1, "\(readOnly.error)")
        #expect(readOnly.error.contains("read-only"), "\(readOnly.error)")

        // Damaged: a FAT whose boot sector was overwritten.
        let broken = try await StickImage.make(.fat, megabytes: 16, label: "TRACKD", at: log.folder.file("broken.img"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: broken.path))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 512))
        try handle.close()
        let brokenDevice = try await broken.attach()
        let damaged = try await Self.stick([brokenDevice, "--mount-dir", log.folder.file("mounts")], log: log)
        try await StickImage.detach(brokenDevice)
        #expect(damaged.status == 1, "\(damaged.error)")
        #expect(damaged.error.contains("cannot read the filesystem of \(brokenDevice)"), "\(damaged.error)")

        // trackd recorded on throughout: its log is intact and writable, its receiver still read.
        let status = await log.trackd.status()
        #expect((status?["storage"] as? [String: Any])?["state"] as? String ?? "ok" == "ok", "\(status ?? [:])")
        let verify = try await log.ask(["verify"])
        #expect(verify.output.hasPrefix("intact: "))
        try await log.ask(["add", "--date", "2026-11-22", "--distance", "3.0", "--private", "--reason", "after the sticks"])
        await log.stop()
    }
}

/// Where the suite must run as root (CI sets `TRACKD_TESTS_NEED_ROOT=1`), StickTests skipped is a failure, not a
/// quiet skip. A suite of its own: StickTests' condition would skip it with them.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TRACKD_TESTS_NEED_ROOT"] == "1",
                "TRACKD_TESTS_NEED_ROOT is not 1: StickTests may be skipped when not root"))
struct StickTestsAsRoot {
    @Test func stickTestsAreNotSkippedWhereTheSuiteMustRunAsRoot() {
        #expect(getuid() == 0, "StickTests need root (mounts, loop devices) and were skipped: run the suite as root")
    }
}
