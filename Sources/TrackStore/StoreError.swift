import TrackCore

/// Why the mileage log refused or failed an operation: one sentence a person can act on, the cause kept.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The file is not an SQLite database at all.
    case notADatabase(path: String)
    /// The file is an SQLite database of something else.
    case foreignDatabase(path: String, tables: [String])
    /// SQLite says the file is damaged.
    case corrupt(path: String, detail: String)
    /// The log was written by a newer trackd.
    case newerSchema(path: String, unknown: [String])
    /// The file cannot be opened or read.
    case cannotOpen(path: String, detail: String)
    /// A database operation failed.
    case database(operation: String, detail: String)
    /// No entry with that number.
    case unknownTrip(TripID)
    /// A change needs a reason for the audit trail.
    case reasonRequired(String)
    /// The request cannot be carried out as asked.
    case invalid(String)
    /// The log is opened read-only (`--db`).
    case readOnly(String)
    /// An erasure would take entries the tax office wants kept: the newest such trip, how many there are, and the
    /// day until which they must be kept.
    case retained(trip: TripID, date: CivilDate, count: Int, until: CivilDate, years: Int)
    /// The file could not be written: the disk is full, the filesystem read-only, a file-size limit reached.
    /// Nothing was changed; the log is as it was before.
    case cannotWrite(path: String, operation: String, fault: StorageFault)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path) is not a trackd log: it is not an SQLite database"
        case .foreignDatabase(let path, let tables):
            "\(path) is an SQLite database but not a trackd log (it holds \(tables.prefix(3).joined(separator: ", "))"
                + "\(tables.count > 3 ? ", …" : "")); nothing was changed"
        case .corrupt(let path, let detail):
            "\(path) is damaged (\(detail)); nothing was changed — keep a copy and see docs/storage.md on recovery"
        case .newerSchema(let path, let unknown):
            "\(path) was written by a newer trackd (schema steps \(unknown.joined(separator: ", ")) are unknown to "
                + "this version); update trackd/trackctl to read it"
        case .cannotOpen(let path, let detail):
            "cannot open \(path): \(detail)"
        case .database(let operation, let detail):
            "the mileage log could not \(operation): \(detail)"
        case .unknownTrip(let id):
            "there is no trip \(id) in the log (trackctl trips --all lists them)"
        case .reasonRequired(let what):
            "\(what) needs a reason for the change history: add --reason TEXT"
        case .invalid(let detail):
            detail
        case .readOnly(let detail):
            detail
        case .retained(let trip, let date, let count, let until, let years):
            "nothing was erased: " + (count == 1 ? "business trip \(trip) (\(date)) is"
                : "\(count) business trips, the newest trip \(trip) (\(date)), are")
                + " inside the retention period and must be kept until \(until) (privacy.retention_years: \(years); "
                + "the tax office wants the log kept that long, docs/privacy.md). Erase routes (--routes) or the "
                + "profile (--profile) instead; --ignore-retention erases them anyway, at the owner's own risk"
        case .cannotWrite(let path, let operation, let fault):
            "the mileage log could not \(operation): \(fault): cannot write \(path); \(fault.remedy)"
        }
    }

    /// The storage fault behind the error, when the file could not be written.
    public var storageFault: StorageFault? {
        if case .cannotWrite(_, _, let fault) = self { fault } else { nil }
    }

    /// Whether the log refused the operation as asked, so that trying it again can never succeed (the trip is not
    /// open, there is no such trip, a reason is missing, the log is a read-only copy). Any other failure — a storage
    /// fault, another program's lock, a database error — may pass later: a write that failed so is kept and tried again.
    public var isRefusal: Bool {
        switch self {
        case .unknownTrip, .reasonRequired, .invalid, .readOnly, .retained: true
        case .notADatabase, .foreignDatabase, .corrupt, .newerSchema, .cannotOpen, .database, .cannotWrite: false
        }
    }
}
