#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import SystemPackage
import TrackCore
import TrackSQLite

/// The running trip's newest track points, in a file of their own beside the log (`trackd.sqlite-points`): each
/// commit appends one record and syncs it, which costs the card about one block, where a commit into SQLite costs
/// its pages, their WAL frames and the `-shm`'s pages (docs/storage.md, "The point file"). The log takes what the
/// file holds in one transaction (`MileageLog.settle`) at the trip's next event, when the file has grown past a
/// bound, when the trip closes and at start; the file is then emptied.
///
/// A record cut short by a power cut, or any bytes after it, end what is read: what a commit synced before the cut
/// is read back whole. The file is touched only on its own serial queue, so no thread of the cooperative pool waits
/// for the card.
public final class TrackPointFile: @unchecked Sendable {
    /// What the file holds: the trip, its points in order, and the newest ends.
    public struct Contents: Sendable, Equatable {
        public var tripID: TripID
        public var points: [RecordedPoint]
        public var ends: TripEnds?

        /// The points later than `milliseconds`, the GPS time of the trip's last point in the log: those the log
        /// does not hold yet (all of them when it holds none).
        public func points(after milliseconds: Int64?) -> [RecordedPoint] {
            guard let milliseconds else { return points }
            return points.filter { StoredPoint($0).timeMilliseconds > milliseconds }
        }
    }

    /// The file's path.
    public let path: String
    // Touched only on `queue`.
    private let queue: DispatchQueue
    private var file: FileDescriptor?
    private var state: (tripID: TripID, size: Int, next: UInt32)?
    private let sizeSnapshot = Atomic<Int>(0)

    /// The point file of the log at `logPath`.
    public static func path(forLog logPath: String) -> String { logPath + "-points" }

    public init(path: String) {
        self.path = path
        queue = DispatchQueue(label: "trackd.points")
    }

    deinit {
        try? file?.close()
    }

    /// Bytes in the file as far as this object wrote them (0 after `reset`, and before the first append).
    public var size: Int { sizeSnapshot.load(ordering: .relaxed) }

    /// Appends `points` and `ends` (either may be empty) of trip `tripID` and syncs them to the card; the first
    /// append to an empty file writes its header first. A file that holds another trip's points must be settled
    /// and reset first. A write that fails leaves what was synced before as it was: the next append writes over
    /// whatever part of it reached the file.
    public func append(_ points: [RecordedPoint], ends: TripEnds?, tripID: TripID) async throws(StoreError) {
        let result: Result<Void, StoreError> = await run { [self] in
            Result { () throws(StoreError) in try appendNow(points, ends: ends, tripID: tripID) }
        }
        try result.get()
    }

    /// What the file holds, read from the card: `nil` when there is no file, or it holds no whole header.
    public func contents() async throws(StoreError) -> Contents? {
        let result: Result<Contents?, StoreError> = await run { [self] in
            Result { () throws(StoreError) in try readNow() }
        }
        return try result.get()
    }

    /// Empties the file (once the log holds what it held), overwriting it with zeros first when `zeroing` (an
    /// erasure: the positions must not stay readable in the card's free space). A missing or empty file is left as
    /// it is (no write, no sync).
    public func reset(zeroing: Bool = false) async throws(StoreError) {
        let result: Result<Void, StoreError> = await run { [self] in
            Result { () throws(StoreError) in try resetNow(zeroing: zeroing) }
        }
        try result.get()
    }

    // MARK: - On the queue

    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    private func appendNow(_ points: [RecordedPoint], ends: TripEnds?, tripID: TripID) throws(StoreError) {
        let file = try openNow()
        if state == nil {
            // A new file, or one a reset emptied. What another life of trackd left in it goes into the log first
            // (`MileageLog.settle`): appending after it would bury it.
            guard try bytesOnCard(file) == 0 else {
                throw .database(operation: "append to the point file \(path)",
                                detail: "it holds records not yet in the log; they go in first")
            }
            state = (tripID, 0, 0)
        }
        guard var current = state else { return }
        guard current.tripID == tripID else {
            throw .invalid("the point file \(path) holds points of trip \(current.tripID), not \(tripID)")
        }
        var bytes: [UInt8] = []
        var next = current.next
        func add(_ record: TrackPointRecord) {
            bytes += record.encoded(number: next)
            next += 1
        }
        if current.size == 0 { add(.header(tripID: tripID)) }
        if !points.isEmpty { add(.points(points)) }
        if let ends, ends.start != nil || ends.end != nil { add(.ends(ends)) }
        guard !bytes.isEmpty else { return }
        try perform("write") { _ = try file.writeAll(toAbsoluteOffset: Int64(current.size), bytes) }
        try sync(file)
        current.size += bytes.count
        current.next = next
        state = current
        sizeSnapshot.store(current.size, ordering: .relaxed)
    }

    /// What the point file at `path` holds, read at once (for a copy of a log pulled off the card).
    public static func read(path: String) throws(StoreError) -> Contents? {
        try TrackPointFile(path: path).readNow()
    }

    private func readNow() throws(StoreError) -> Contents? {
        // No file: nothing waits.
        guard access(path, F_OK) == 0 else { return nil }
        let file = try perform("read") {
            try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .noFollow])
        }
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try perform("read") { try chunk.withUnsafeMutableBytes { try file.read(into: $0) } }
            if count == 0 { break }
            bytes += chunk[0 ..< count]
        }
        guard let (first, afterHeader) = TrackPointRecord.decode(bytes, at: 0, number: 0),
              case .header(let tripID) = first else { return nil }
        var contents = Contents(tripID: tripID, points: [], ends: nil)
        var offset = afterHeader
        var number: UInt32 = 1
        while let (record, next) = TrackPointRecord.decode(bytes, at: offset, number: number) {
            switch record {
            case .header: return contents
            case .points(let points): contents.points += points
            case .ends(let ends): contents.ends = TripEnds.merging(ends, over: contents.ends)
            }
            offset = next
            number += 1
        }
        return contents
    }

    private func resetNow(zeroing: Bool) throws(StoreError) {
        // Nothing to empty without a file: none is made.
        guard file != nil || access(path, F_OK) == 0 else { return }
        let file = try openNow()
        let length = try bytesOnCard(file)
        if length > 0 {
            if zeroing {
                try perform("write") { _ = try file.writeAll(toAbsoluteOffset: 0, [UInt8](repeating: 0, count: length)) }
                try sync(file)
            }
            try perform("empty") { try file.resize(to: 0) }
            try sync(file)
        }
        state = nil
        sizeSnapshot.store(0, ordering: .relaxed)
    }

    /// The open file, created if missing.
    private func openNow() throws(StoreError) -> FileDescriptor {
        if let file { return file }
        let opened = try perform("open") {
            try FileDescriptor.open(FilePath(path), .readWrite, options: [.create, .closeOnExec, .noFollow],
                                    permissions: FilePermissions(rawValue: FileModes.file))
        }
        file = opened
        return opened
    }

    /// The file's length on the card.
    private func bytesOnCard(_ file: FileDescriptor) throws(StoreError) -> Int {
        var info = stat()
        guard fstat(file.rawValue, &info) == 0 else { throw failure("inspect", errno: errno) }
        return Int(info.st_size)
    }

    /// `fdatasync`, which swift-system does not offer.
    private func sync(_ file: FileDescriptor) throws(StoreError) {
        while fdatasync(file.rawValue) != 0 {
            if errno == EINTR { continue }
            throw failure("sync", errno: errno)
        }
    }

    /// Runs a swift-system call, its `Errno` as the store's error.
    private func perform<T>(_ operation: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw failure(operation, errno: error.rawValue)
        } catch {
            throw failure(operation, errno: EIO)
        }
    }

    private func failure(_ operation: String, errno code: Int32) -> StoreError {
        let message = String(cString: strerror(code))
        if let fault = StorageFault.diagnose(resultCode: ResultCode.SQLITE_IOERR.rawValue, systemErrno: code,
                                             message: message, path: path) {
            return .cannotWrite(path: path, operation: "\(operation) the point file", fault: fault)
        }
        return .database(operation: "\(operation) the point file \(path)", detail: message)
    }
}
