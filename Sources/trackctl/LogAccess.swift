import ArgumentParser
import ControlSocket
import FoundationEssentials
import SystemPackage
import Synchronization
import TrackConfig
import TrackCore
import TrackReports
import TrackStore
import TrackctlTexts

/// The mileage log as trackctl reaches it: through trackd's socket, or (with `--db`) from a copy of a database file.
enum LogAccess {
    /// Reads through trackd with `method`, or runs `offline` on a read-only copy of the `--db` file.
    static func read<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ options: ConnectionOptions, _ method: ControlMethod, _ params: Params, as type: Result.Type,
        offline: (MileageLog, UTCTime) async throws -> Result
    ) async throws -> Result {
        guard let path = options.db else {
            return try await ControlCall.run(options) { connection in
                try await connection.call(method, params: params, result: Result.self)
            }
        }
        return try await withCopy(of: path, json: options.json) { log in
            try await offline(log, now())
        }
    }

    /// The allowance rates as they stand now (the package's table and /etc/trackd/rates.d); what is wrong with them
    /// goes to standard error.
    static func rates() -> RateTable {
        let files = RateFiles.load(environment: ProcessInfo.processInfo.environment)
        for warning in files.warnings {
            _ = try? FileDescriptor.standardError.writeAll(t("trackctl: allowance rates: \(warning)\n").utf8)
        }
        return files.table
    }

    /// The time now, by this machine's clock.
    static func now() -> UTCTime {
        UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970)
    }

    /// The log's profile: the one read for trackctl's language on this run's first connection, else asked for.
    static func profile(_ options: ConnectionOptions) async throws -> LogProfile {
        if let profile = kept.withLock({ $0 }) { return profile }
        return try await read(options, .profile, NoParams(), as: LogProfile.self) { log, _ in
            try await log.profile()
        }
    }

    /// The profile as read this run (for trackctl's language), kept so that the command does not ask again.
    private static let kept = Mutex<LogProfile?>(nil)

    /// Keeps `profile`, read this run, and hears its language (`Speech`).
    static func heard(_ profile: LogProfile?) {
        kept.withLock { $0 = profile }
        Speech.hear(profile: profile?.language)
    }

    /// The unit the profile's user reads distances in; kilometres when the profile cannot be read (a daemon that
    /// keeps no log).
    static func unit(_ options: ConnectionOptions) async throws -> DistanceUnit {
        (try? await profile(options))?.distanceUnit ?? .kilometres
    }

    /// The log's local calendar (its profile's time zone), in which trips' times are shown; nil when the profile's
    /// zone cannot be read.
    static func calendar(_ options: ConnectionOptions) async throws -> LocalCalendar? {
        try? LocalCalendar(profile: try await profile(options))
    }

    /// Asks trackd to change the log; refused with `--db`, which never writes.
    static func change<Params: Codable & Sendable, Result: Codable & Sendable>(
        _ options: ConnectionOptions, _ method: ControlMethod, _ params: Params, as type: Result.Type, command: String
    ) async throws -> Result {
        if let path = options.db {
            throw Failure.exit(t("'\(command)' changes the log, and --db only reads \(path) without changing it; run the command where trackd runs, without --db"), status: ExitStatus.refused,
                               json: options.json)
        }
        return try await ControlCall.run(options) { connection in
            try await connection.call(method, params: params, result: Result.self)
        }
    }

    /// Opens a read-only copy of `path`, runs `body`, and removes the copy before returning or exiting.
    private static func withCopy<Result>(of path: String, json: Bool,
                                         _ body: (MileageLog) async throws -> Result) async throws -> Result {
        do {
            let log = try MileageLog.openCopy(of: path, rates: { rates() })
            if !json, Speech.listensToProfile { heard(try? await log.profile()) }
            return try await body(log)
        } catch let error as StoreError {
            throw Failure.exit("\(error)", status: ExitStatus.refused, json: json)
        }
    }
}

/// trackctl's exit statuses.
enum ExitStatus {
    /// The request was refused or failed (bad input, unknown trip, an unreadable log…); nothing was changed.
    static let refused: Int32 = 1
    /// trackd could not be reached.
    static let unreachable: Int32 = 2
    /// `verify` found the log altered.
    static let broken: Int32 = 3
    /// `check` found something a tax office would question.
    static let findings: Int32 = 4
}
