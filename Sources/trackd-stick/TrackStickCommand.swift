#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import Logging
import TrackConfig
import TrackCore
import TrackJournal
import TrackStick

/// `trackd-stick`: the month's reports onto a USB stick plugged into the car (docs/install.md, "Taking the logs
/// home"). udev starts it through trackd-stick@.service for each stick with a FAT, exFAT or ext4 filesystem.
@main
struct TrackStickCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackd-stick",
        abstract: "Copy the mileage log's monthly reports to a USB stick.",
        discussion: """
            Under systemd, udev starts it for each USB stick plugged in (trackd-stick@sda1.service runs \
            trackd-stick /dev/sda1): it mounts the stick (nosuid, nodev, noexec; FAT and exFAT readable by the \
            trackd group), writes trackd/PLATE/ with each month's CSV, printable report and GPX, the verify \
            receipt and a README.txt, and unmounts it. Which sticks qualify: trackd.conf's stick: section (by \
            default one with a trackd folder at its top, or labelled TRACKD). By hand, on a stick mounted \
            already: trackd-stick --folder /media/stick.
            """)

    @Argument(help: ArgumentHelp("The stick's block device (/dev/sda1).", valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp("Write to this folder (a stick mounted already) instead of mounting a device.",
                               valueName: "path"))
    var folder: String?

    @Option(help: ArgumentHelp("Where the device is mounted while the files are written (default: "
                               + "$RUNTIME_DIRECTORY under systemd, else /run/trackd-stick).", valueName: "path"))
    var mountDir: String?

    @Option(help: ArgumentHelp("trackd's configuration file, for its stick: section (default: "
                               + "$CONFIGURATION_DIRECTORY/trackd.conf, else /etc/trackd/trackd.conf).",
                               valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("trackd's control socket (default: $TRACKD_SOCKET, else /run/trackd/control.sock).",
                               valueName: "path"))
    var controlSocket: String?

    @Option(help: "Least important messages logged: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        if (device == nil) == (folder == nil) {
            throw ValidationError("give the stick's device (trackd-stick /dev/sda1) or a mounted folder (--folder PATH)")
        }
        if let folder, !folder.hasPrefix("/") { throw ValidationError("--folder \(folder): give an absolute path") }
    }

    func run() async throws {
        LogDestination.bootstrap(levels: LogLevelSwitch(logLevel), identifier: "trackd-stick")
        let logger = Logger(label: "trackd-stick")
        let environment = ProcessInfo.processInfo.environment
        let log = StickLog(socketPath: controlSocket ?? environment["TRACKD_SOCKET"] ?? "/run/trackd/control.sock")
        let copier = StickCopier(log: log, sourceDateEpoch: environment["SOURCE_DATE_EPOCH"])
        let killAfter = environment["TRACKD_STICK_KILL_AFTER_BYTES"].flatMap { Int($0) }
        if let folder {
            let copy = await Self.copy(to: folder, label: "", filesystem: "", copier: copier, killAfter: killAfter,
                                       logger: logger)
            await Self.record(copy, in: log, logger: logger)
            if !copy.isComplete { throw ExitCode(1) }
            return
        }
        guard let device else { throw ExitCode(1) }
        let settings: StickConfiguration
        do {
            settings = try ConfigurationFile.load(explicitPath: config, environment: environment).file.stick
        } catch {
            logger.error("cannot read the configuration: nothing copied", metadata: ["error": "\(error)"])
            throw ExitCode(1)
        }
        let mountRoot = mountDir ?? environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first.map(String.init)
            ?? "/run/trackd-stick"
        let session = StickSession(device: device, settings: settings, mountRoot: mountRoot, group: Self.trackdGroup)
        do {
            guard let mount = try await session.mountIfQualified(logger: logger) else { return }
            let copy = await Self.copy(to: mount.point, label: mount.filesystem.label, filesystem: mount.filesystem.type,
                                       copier: copier, killAfter: killAfter, logger: logger)
            var recorded = copy
            if !(await mount.unmount()), recorded.isComplete {
                recorded.problem = "the stick could not be unmounted cleanly (pulled out?): plug it in again"
                logger.error("the stick could not be unmounted cleanly", metadata: ["device": "\(device)"])
            }
            await Self.record(recorded, in: log, logger: logger)
            if recorded.isComplete {
                logger.notice("the stick can be pulled out", metadata: ["device": "\(device)"])
            } else {
                throw ExitCode(1)
            }
        } catch let error as StickError {
            logger.error("\(error)", metadata: ["device": "\(device)"])
            await Self.record(StickCopy(time: Self.stampedByTrackd, label: "", filesystem: "", folder: "", written: 0,
                                        unchanged: 0, removed: 0, chainHead: "", problem: error.reason),
                              in: log, logger: logger)
            throw ExitCode(1)
        }
    }

    /// Writes the files into `root`/trackd/CAR and says in the journal how it went.
    static func copy(to root: String, label: String, filesystem: String, copier: StickCopier, killAfter: Int?,
                     logger: Logger) async -> StickCopy {
        var car = "car"
        do {
            car = StickCopier.folderName(plate: try await copier.log.profile().plate)
            var folder = StickFolder(path: "\(root)/trackd/\(car)", killAfterBytes: killAfter)
            let result = try await copier.copy(into: &folder, car: car)
            let outcome = result.outcome
            logger.notice("reports copied to the stick", metadata: [
                "folder": "trackd/\(car)", "label": "\(label)", "written": "\(outcome.written.count)",
                "unchanged": "\(outcome.unchanged.count)", "removed": "\(outcome.removed.count)",
                "bytes": "\(outcome.bytes)", "files": "\(outcome.written.joined(separator: ", "))",
                "log": "\(result.intact ? "intact" : "ALTERED")",
            ])
            if !result.intact {
                logger.warning("the log's hash chain does not verify: see verify.txt on the stick and trackctl verify")
            }
            return StickCopy(time: Self.stampedByTrackd, label: label, filesystem: filesystem, folder: "trackd/\(car)",
                             written: outcome.written.count, unchanged: outcome.unchanged.count,
                             removed: outcome.removed.count, chainHead: result.chainHead)
        } catch {
            logger.error("\(error)", metadata: ["folder": "trackd/\(car)", "label": "\(label)"])
            return StickCopy(time: Self.stampedByTrackd, label: label, filesystem: filesystem, folder: "trackd/\(car)",
                             written: 0, unchanged: 0, removed: 0, chainHead: "", problem: error.reason)
        }
    }

    /// Records the copy in the log for `trackctl status`; trackd unreachable, the journal has it.
    static func record(_ copy: StickCopy, in log: StickLog, logger: Logger) async {
        do {
            _ = try await log.record(copy)
        } catch {
            logger.warning("the copy is not recorded in the log", metadata: ["error": "\(error)"])
        }
    }

    /// The copy's time as sent: trackd records each copy at its own clock's time (GPS time first), whatever it is
    /// given, so trackd-stick reads no clock.
    static let stampedByTrackd = UTCTime(nanosecondsSinceEpoch: 0)

    /// The trackd group, which may read the files of a FAT or exFAT stick while it is mounted; root's without it.
    static var trackdGroup: gid_t {
        getgrnam("trackd").map { $0.pointee.gr_gid } ?? 0
    }
}

extension Error {
    /// What a failure says in the log's record: a `StickError`'s short reason, else the error's words.
    fileprivate var reason: String { (self as? StickError)?.reason ?? "\(self)" }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
