import TrackSQLite
import TrackWebClient

/// The paired devices in trackd-web's own SQLite file (`STATE_DIR/devices.sqlite`): each device's name, role, the
/// SHA-256 of its session token (the token itself is never stored), when it was paired, last used and revoked.
/// Every change is one transaction with `synchronous=FULL`: a power cut keeps a pairing or a revocation whole or not
/// at all.
final class DeviceStore: Sendable {
    private let queue: DatabaseQueue

    /// Opens (or creates) the file at `path`.
    init(path: String) throws(WebError) {
        do {
            queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            var migrator = DatabaseMigrator()
            migrator.registerMigration("devices-v1") { db in
                try db.execute(sql: """
                    CREATE TABLE device (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        role TEXT NOT NULL CHECK (role IN ('driver', 'viewer')),
                        token_sha256 TEXT NOT NULL UNIQUE,
                        paired_at INTEGER NOT NULL,
                        last_used_at INTEGER,
                        revoked_at INTEGER
                    )
                    """)
            }
            try migrator.migrate(queue)
        } catch {
            throw .deviceStore(path: path, reason: "\(error)")
        }
    }

    /// Every device ever paired, revoked ones included, in the order they were paired.
    func all() throws -> [PairedDevice] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM device ORDER BY id").map(Self.device(from:))
        }
    }

    /// The device whose token has this digest, revoked or not.
    func device(tokenDigest: String) throws -> PairedDevice? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM device WHERE token_sha256 = ?", arguments: [tokenDigest])
                .map(Self.device(from:))
        }
    }

    /// Records a new device and returns it.
    func add(name: String, role: WebRole, tokenDigest: String, at time: Int64) throws -> PairedDevice {
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO device (name, role, token_sha256, paired_at, last_used_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [name, role.rawValue, tokenDigest, time, time])
            return PairedDevice(id: db.lastInsertedRowID, name: name, role: role, pairedAt: time, lastUsedAt: time,
                                revokedAt: nil)
        }
    }

    /// Ends device `id`'s session; `nil` when there is no such device, else the device as it is now.
    func revoke(id: Int64, at time: Int64) throws -> PairedDevice? {
        try queue.write { db in
            try db.execute(sql: "UPDATE device SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                           arguments: [time, id])
            return try Row.fetchOne(db, sql: "SELECT * FROM device WHERE id = ?", arguments: [id])
                .map(Self.device(from:))
        }
    }

    /// Notes that device `id` was used at `time`.
    func touch(id: Int64, at time: Int64) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE device SET last_used_at = ? WHERE id = ?", arguments: [time, id])
        }
    }

    private static func device(from row: Row) throws -> PairedDevice {
        PairedDevice(
            id: try row["id"], name: try row["name"], role: WebRole(rawValue: try row["role"]) ?? .viewer,
            pairedAt: try row["paired_at"], lastUsedAt: try row["last_used_at"], revokedAt: try row["revoked_at"])
    }
}
