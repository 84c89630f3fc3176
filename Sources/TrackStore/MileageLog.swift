import FoundationEssentials
import CSQLite
#if canImport(Glibc)
import Glibc
#endif
import TrackSQLite
import TrackCore

/// The mileage log on disk: one SQLite file (WAL mode) with the profile, the trips and their tracks, events,
/// regular trips, odometer readings, the change history and the hash chain over all of it.
///
/// Every change that matters to the log (a trip opened, closed, edited or deleted, a reading, a profile change) is
/// one transaction that also appends to the hash chain, committed with `synchronous=FULL` so it survives a power
/// cut the moment the call returns. Track points arrive in batches (the daemon flushes once a second).
public final class MileageLog: Sendable {
    /// The file the log lives in (for a `--db` copy: the original's path).
    public let path: String
    /// Read-only logs (opened from a copy with `--db`) refuse every change.
    public let isReadOnly: Bool
    let writer: any DatabaseWriter
    /// A copy's folder, removed when the log is closed.
    private let temporaryDirectory: URL?
    /// The allowance rates as they stand at the moment of asking (`RateFiles` reads them again each time, so that a
    /// row added to /etc/trackd/rates.d counts in the next report without a restart); none by default.
    let rates: @Sendable () -> RateTable

    private init(path: String, writer: any DatabaseWriter, isReadOnly: Bool, temporaryDirectory: URL?,
                 rates: @escaping @Sendable () -> RateTable) {
        self.path = path
        self.writer = writer
        self.isReadOnly = isReadOnly
        self.temporaryDirectory = temporaryDirectory
        self.rates = rates
    }

    deinit {
        if let temporaryDirectory {
            try? FileManager.default.removeItem(at: temporaryDirectory)
        }
    }

    /// The page size of new logs, bytes.
    static let pageSize = 1024

    /// The page cache of each connection to the daemon's log, KiB.
    static let cacheKiB = 512

    /// How long a write waits for another program's lock on the log before it fails as `StorageFault.locked`,
    /// seconds, unless told otherwise (`log.busy_timeout`). Less than the engine may stand still before systemd's
    /// watchdog counts it as stuck (half of `WatchdogSec=10s`): a lock held longer costs the daemon nothing but a
    /// retry at the next commit interval, with what waits kept in memory, instead of a restart by the watchdog.
    public static let defaultBusyTimeout: Double = 2

    /// Opens (creating if needed) the daemon's log at `path` and brings its schema up to date; a write waits up to
    /// `busyTimeout` seconds for another program's lock; its reports pay allowances by `rates`.
    public static func open(path: String, busyTimeout: Double = defaultBusyTimeout,
                            rates: @escaping @Sendable () -> RateTable = { RateTable() }) throws(StoreError) -> MileageLog {
        if FileManager.default.fileExists(atPath: path) {
            try checkHeader(path: path)
            try checkOwner(path: path)
        }
        // For trackd and its group only, whatever the umask: SQLite gives the -wal and -shm the log's mode.
        do {
            try FileModes.prepareFile(path)
            try FileModes.tighten(path + "-wal", to: FileModes.file)
            try FileModes.tighten(path + "-shm", to: FileModes.file)
            try FileModes.tighten(TrackPointFile.path(forLog: path), to: FileModes.file)
        } catch {
            throw .cannotOpen(path: path, detail: "\(error)")
        }
        var configuration = Configuration()
        configuration.busyTimeout = busyTimeout
        configuration.prepareDatabase = { db in
            // A new log gets 1 KiB pages (an existing one keeps its size): a commit of a few track points then
            // writes about 1 KiB of WAL instead of 4, which is what the card wears by (docs/storage.md).
            try db.execute(sql: "PRAGMA page_size = \(MileageLog.pageSize)")
            // Keep the WAL small on the card once it has been checkpointed.
            try db.execute(sql: "PRAGMA journal_size_limit = 1048576")
            // A page cache of 512 KiB per connection instead of SQLite's 2 MiB: trackd appends at the end of the
            // track and reads little, and a board has little memory (docs/benchmarks.md, "Memory over a long drive").
            try db.execute(sql: "PRAGMA cache_size = -\(MileageLog.cacheKiB)")
            // What is deleted is overwritten with zeros, not merely unlinked: an erased route or name must not stay
            // readable in the file's free space (docs/privacy.md). trackd deletes little but in erasures.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // Every commit reaches the card before it returns: a power cut loses nothing committed. Set here, on
            // the one connection that writes (SQLite's default in WAL mode is already FULL; said, not assumed).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw wrap(error, path: path, operation: "open the log")
        }
        let log = MileageLog(path: path, writer: pool, isReadOnly: false, temporaryDirectory: nil, rates: rates)
        try log.migrate()
        // An erasure cut off by a power loss after its commit may have left erased pages in the WAL: empty it.
        // Best effort: a full or read-only card must not keep the daemon from starting (its writes then wait).
        try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return log
    }

    /// Opens a log for reading without touching it: the file and its `-wal` are copied to a private temporary
    /// folder first (so a card mounted read-only, or a log with pending WAL frames, reads the same), and every change
    /// is refused; its reports pay allowances by `rates`.
    public static func openCopy(of path: String,
                                rates: @escaping @Sendable () -> RateTable = { RateTable() }) throws(StoreError) -> MileageLog {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .cannotOpen(path: path, detail: "no such file")
        }
        try checkHeader(path: path)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trackctl-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        let copy = directory.appendingPathComponent("trackd.sqlite")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try FileManager.default.copyItem(atPath: path, toPath: copy.path)
            if FileManager.default.fileExists(atPath: path + "-wal") {
                try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy.path + "-wal")
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw .cannotOpen(path: path, detail: "copying it to \(directory.path) failed: \(error)")
        }
        do {
            try checkOwner(path: copy.path, reportedAs: path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: copy.path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw wrap(error, path: path, operation: "open the copy of the log")
        }
        let log = MileageLog(path: path, writer: queue, isReadOnly: true, temporaryDirectory: directory, rates: rates)
        // Older logs are brought up to date in the copy only; the original is never written.
        try log.migrate()
        // The running trip's newest points may wait in the point file beside the log (trackd stopped by a power
        // cut): the copy takes them, as trackd would at its next start.
        do {
            if let contents = try TrackPointFile.read(path: TrackPointFile.path(forLog: path)) {
                try queue.write { db in try MileageLog.settle(contents, db) }
            }
        } catch let error as StoreError where error.isRefusal {
            // Points of a trip the log closed already: trackd gives them up too.
        } catch {
            throw wrap(error, path: path, operation: "take the point file into the copy of the log")
        }
        return log
    }

    /// The schema steps applied to this log.
    public func appliedMigrations() throws(StoreError) -> [String] {
        do {
            return try writer.read { db in try MileageLog.migrator.appliedMigrations(db) }
        } catch {
            throw MileageLog.wrap(error, path: path, operation: "read the schema version")
        }
    }

    /// SQLite's own check of the file: `ok`, or the problems found.
    public func integrityCheck() throws(StoreError) -> [String] {
        do {
            return try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        } catch {
            throw MileageLog.wrap(error, path: path, operation: "check the file")
        }
    }

    // MARK: - Internals

    private func migrate() throws(StoreError) {
        do {
            let superseded = try writer.read { db in
                try MileageLog.migrator.hasBeenSuperseded(db)
                    ? Set(try MileageLog.migrator.appliedIdentifiers(db)).subtracting(MileageLog.migrator.migrations).sorted()
                    : []
            }
            if !superseded.isEmpty { throw StoreError.newerSchema(path: path, unknown: superseded) }
            try MileageLog.migrator.migrate(writer)
        } catch let error as StoreError {
            throw error
        } catch {
            throw MileageLog.wrap(error, path: path, operation: "prepare the log's tables")
        }
    }

    /// A file that exists must start like an SQLite database.
    private static func checkHeader(path: String) throws(StoreError) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, detail: "permission denied or not a file") }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        let count = Glibc.read(descriptor, &header, header.count)
        guard count >= 0 else { throw .cannotOpen(path: path, detail: "permission denied or not a file") }
        if count == 0 { return }  // An empty file becomes a new log.
        guard header.prefix(count).elementsEqual("SQLite format 3\0".utf8) else { throw .notADatabase(path: path) }
    }

    /// Refuses, before anything is written to it, an SQLite database that another application made.
    private static func checkOwner(path: String, reportedAs name: String? = nil) throws(StoreError) {
        var configuration = Configuration()
        configuration.readonly = true
        // With no -wal beside it (trackd closed the log), the file holds every commit: read as a file nothing
        // changes, SQLite makes no -shm for this look, which the log's own opening would only make again (32 KiB
        // written to the card at every start; docs/storage.md).
        var wal = stat()
        configuration.immutable = stat(path + "-wal", &wal) != 0 || wal.st_size == 0
        let foreign: [String]
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            foreign = try queue.read { db -> [String] in
                guard try !db.tableExists("grdb_migrations") else { return [] }
                return try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
            }
        } catch {
            return  // Opening it for the log reports what is wrong with the file.
        }
        if !foreign.isEmpty { throw .foreignDatabase(path: name ?? path, tables: foreign) }
    }

    /// Runs a write transaction; database errors become `StoreError`s naming the operation.
    func write<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        guard !isReadOnly else {
            throw .readOnly("this log was opened read-only with --db (a copy of \(path)); changes go through the daemon")
        }
        do {
            // A write transaction, with the errno SQLite saw kept when the storage fails (it says full or read-only).
            return try await writer.writeWithoutTransaction { db in
                do {
                    var result: T?
                    try db.inTransaction {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                } catch let error as DatabaseError {
                    throw FailedWrite(error: error, systemErrno: sqlite3_system_errno(db.sqliteConnection))
                }
            }
        } catch let error as StoreError {
            throw error
        } catch let failed as FailedWrite {
            let code = failed.error.resultCode.primaryResultCode.rawValue
            if let fault = StorageFault.diagnose(resultCode: code, systemErrno: failed.systemErrno,
                                                 message: failed.error.message ?? "\(failed.error.resultCode)", path: path) {
                throw .cannotWrite(path: path, operation: operation, fault: fault)
            }
            throw MileageLog.wrap(failed.error, path: path, operation: operation)
        } catch {
            throw MileageLog.wrap(error, path: path, operation: operation)
        }
    }

    /// A database error in a write transaction and the errno SQLite saw.
    private struct FailedWrite: Error {
        let error: DatabaseError
        let systemErrno: Int32
    }

    /// Runs a read; database errors become `StoreError`s naming the operation.
    func read<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw MileageLog.wrap(error, path: path, operation: operation)
        }
    }

    static func wrap(_ error: any Error, path: String, operation: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode.primaryResultCode {
            case .SQLITE_NOTADB: return .notADatabase(path: path)
            case .SQLITE_CORRUPT: return .corrupt(path: path, detail: error.message ?? "malformed")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
                return .cannotOpen(path: path, detail: error.message ?? "\(error.resultCode)")
            default: return .database(operation: operation, detail: error.message ?? "\(error)")
            }
        }
        return .database(operation: operation, detail: "\(error)")
    }
}
