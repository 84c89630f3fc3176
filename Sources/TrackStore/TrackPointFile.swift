#if canImport(Glibc)
import Glibc
#endif
import CFileSystem
import Dispatch
import Synchronization
import SystemPackage
import TrackCore
import TrackSQLite

/// The running trip's newest track points, in a file of their own beside the log (`trackd.sqlite-points`): each
/// commit writes one record and syncs it, which costs the card its bytes' blocks, where a commit into SQLite costs
/// its pages, their WAL frames and the `-shm`'s pages (docs/storage.md, "The point file"). The log takes what the
/// file holds in one transaction (`MileageLog.settle`) at the trip's next event, when the file has grown past a
/// bound, when the trip closes and at start; the file is then emptied.
///
/// The file keeps its length: it is written with zeros when it is made (`reserve` bytes) and is then written over in
/// place, so a commit allocates nothing and changes no length, and the filesystem writes nothing but its bytes.
/// Emptying it writes a new header of a new generation; every record carries its generation in its CRC-32, so what
/// an earlier generation left after the records of this one is not read. A record cut short by a power cut, or any
/// bytes after it, end what is read: what a commit synced before the cut is read back whole. The file is touched
/// only on its own serial queue, so no thread of the cooperative pool waits for the card.
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

    /// Where the current generation stands on the card.
    private struct Layout {
        /// The generation of the file's header.
        var generation: UInt32
        /// The trip its records belong to; `nil`: it holds none.
        var tripID: TripID?
        /// The offset after its last record, and that record's number + 1.
        var end: Int
        var next: UInt32
        /// The bytes of the block `end` falls in, up to `end` (a commit writes that block again, with its own bytes).
        var tail: [UInt8]
        /// Whether this object wrote the empty header of this generation and nothing after it: only then may a
        /// trip's records be written in this generation (records an earlier life wrote in it may follow the header).
        var fresh: Bool
    }

    /// The file's path.
    public let path: String
    /// Bytes of zeros the file is made with: a commit inside them allocates nothing on the card.
    public let reserve: Int
    /// What the file grows by when a commit passes its end, in zeros after the records.
    static let growth = 65_536
    /// Bytes of the file's header, at its start: what an emptied file holds before its zeros and what earlier
    /// generations left.
    public static let headerBytes = TrackPointRecord.headerRecordSize
    /// The unit of every write: a commit writes the whole blocks its bytes fall in, zeros after its end.
    static let block = 4_096
    // Touched only on `queue`.
    private let queue: DispatchQueue
    private var file: FileDescriptor?
    /// Whether `file` was opened with O_DIRECT: the blocks go to the card as written, past the page cache, where
    /// the kernel may hold a block in a larger folio and write (and count) all of it (docs/storage.md). A filesystem
    /// that takes no direct writes (tmpfs on older kernels) is written through the page cache.
    private var direct = false
    private var triedDirect = false
    private var layout: Layout?
    private let sizeSnapshot = Atomic<Int>(0)

    /// The point file of the log at `logPath`.
    public static func path(forLog logPath: String) -> String { logPath + "-points" }

    /// The point file at `path`, made with `reserve` bytes (the log takes the file at 256 KiB: 320 KiB hold that
    /// and a minute of 10 Hz points past it).
    public init(path: String, reserve: Int = 327_680) {
        self.path = path
        self.reserve = (reserve + Self.block - 1) / Self.block * Self.block
        queue = DispatchQueue(label: "trackd.points")
    }

    deinit {
        try? file?.close()
    }

    /// Bytes of the trip's records in the file as far as this object wrote them (0 when it holds no trip's records,
    /// after `reset`, and before the first append).
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

    /// What the file holds, read from the card: `nil` when there is no file, or it holds no trip's records.
    public func contents() async throws(StoreError) -> Contents? {
        let result: Result<Contents?, StoreError> = await run { [self] in
            Result { () throws(StoreError) in
                // Emptied by this object, nothing written since: nothing to read.
                if let layout, layout.fresh { return nil }
                return try Self.readNow(path: path)?.contents
            }
        }
        return try result.get()
    }

    /// Empties the file (once the log holds what it held): a header of a new generation holding no trip. With
    /// `zeroing` (an erasure: the positions must not stay readable in the file or the card's free space) the whole
    /// file is overwritten with zeros first. A missing file is made, with its `reserve` of zeros.
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
        if layout == nil {
            // What another life of trackd left in the file goes into the log first (`MileageLog.settle`): writing
            // over it would lose it.
            if try Self.header(path: path)?.tripID != nil {
                throw .database(operation: "append to the point file \(path)",
                                detail: "it holds records not yet in the log; they go in first")
            }
            try resetNow(zeroing: false)
        }
        guard var current = layout else { return }
        if current.tripID == nil, !current.fresh {
            // A write of this generation failed: its bytes may be on the card; the trip starts in a new one.
            try resetNow(zeroing: false)
            guard let renewed = layout else { return }
            current = renewed
        }
        if let holder = current.tripID, holder != tripID {
            throw .invalid("the point file \(path) holds points of trip \(holder), not \(tripID)")
        }
        var bytes: [UInt8] = []
        var offset = current.end
        var next = current.next
        func add(_ record: TrackPointRecord) {
            bytes += record.encoded(number: next, generation: current.generation)
            next += 1
        }
        if current.tripID == nil {
            // The header names the trip now: written again, with the first records after it.
            offset = 0
            next = 0
            add(.header(tripID: tripID, generation: current.generation))
        }
        let first = bytes.count
        if !points.isEmpty { add(.points(points)) }
        if let ends, ends.start != nil || ends.end != nil { add(.ends(ends)) }
        guard bytes.count > first else { return }
        // Records that would run over into one more block than they need start at the next block's start instead:
        // a commit then writes the fewest blocks its bytes can take (one, as long as they fit in one), and the
        // zeros the last commit left after its records in the tail's block end that block.
        let used = offset % Self.block
        if used > 0, Self.blocks(bytes.count) < Self.blocks(used + bytes.count) {
            offset += Self.block - used
        }
        // The block the records start in, from its start: what it held before them (the tail), then them.
        let start = offset - offset % Self.block
        let data = (offset % Self.block == 0 ? [] : current.tail) + bytes
        let recordsEnd = start + data.count
        let file = try openNow()
        // Past the file's end it grows by whole steps of zeros, written with the records, so that the next commits
        // find their space written.
        let length = recordsEnd > (try bytesOnCard(file))
            ? (recordsEnd + Self.growth - 1) / Self.growth * Self.growth - start
            : (data.count + Self.block - 1) / Self.block * Self.block
        // From here the generation holds bytes this object may not have synced whole.
        current.fresh = false
        layout = current
        try writeBlocks(data, length: length, at: start)
        try sync(file)
        current.tripID = tripID
        current.end = recordsEnd
        current.next = next
        current.tail = Array(data[(recordsEnd - recordsEnd % Self.block - start)...])
        layout = current
        sizeSnapshot.store(recordsEnd, ordering: .relaxed)
    }

    /// What the point file at `path` holds, read at once (for a copy of a log pulled off the card).
    public static func read(path: String) throws(StoreError) -> Contents? {
        try readNow(path: path)?.contents
    }

    /// What the file at `path` holds: `nil` when there is no file or no whole header; its generation (`nil`: format
    /// 1) and contents (`nil`: no trip's records) otherwise.
    private static func readNow(path: String) throws(StoreError) -> (generation: UInt32?, contents: Contents?)? {
        let bytes = try bytes(path: path)
        guard let (first, afterHeader) = TrackPointRecord.decode(bytes, at: 0, number: 0, generation: nil),
              case .header(let holder, let generation) = first else { return nil }
        guard let tripID = holder else { return (generation, nil) }
        var contents = Contents(tripID: tripID, points: [], ends: nil)
        var offset = afterHeader
        var number: UInt32 = 1
        while let (record, next) = TrackPointRecord.decode(bytes, at: offset, number: number, generation: generation)
                ?? nextBlock(bytes, after: offset, number: number, generation: generation) {
            switch record {
            case .header: return (generation, contents)
            case .points(let points): contents.points += points
            case .ends(let ends): contents.ends = TripEnds.merging(ends, over: contents.ends)
            }
            offset = next
            number += 1
        }
        return (generation, contents)
    }

    /// The record numbered `number` at the start of the block after `offset`, when only zeros lie between: a commit
    /// that would have run over into one more block than it needed starts there (`appendNow`).
    private static func nextBlock(_ bytes: [UInt8], after offset: Int, number: UInt32,
                                  generation: UInt32?) -> (record: TrackPointRecord, next: Int)? {
        let used = offset % block
        guard used > 0, offset + block - used < bytes.count,
              bytes[offset ..< offset + block - used].allSatisfy({ $0 == 0 }) else { return nil }
        return TrackPointRecord.decode(bytes, at: offset + block - used, number: number, generation: generation)
    }

    /// Whole blocks that `count` bytes from a block's start fall in.
    private static func blocks(_ count: Int) -> Int { (count + block - 1) / block }

    /// The header at the start of the file at `path` (read alone, not the records after it): `nil` when there is no
    /// file or no whole header.
    private static func header(path: String) throws(StoreError) -> (tripID: TripID?, generation: UInt32?)? {
        let bytes = try bytes(path: path, upTo: TrackPointRecord.headerRecordSize)
        guard case .header(let tripID, let generation)? = TrackPointRecord.decode(bytes, at: 0, number: 0,
                                                                                   generation: nil)?.record
        else { return nil }
        return (tripID, generation)
    }

    /// The bytes of the file at `path` from its start, at most `limit`; none when there is no file.
    private static func bytes(path: String, upTo limit: Int = .max) throws(StoreError) -> [UInt8] {
        // No file: nothing waits.
        guard access(path, F_OK) == 0 else { return [] }
        let file = try perform("read", path: path) {
            try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .noFollow])
        }
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit, 65_536))
        while bytes.count < limit {
            let wanted = limit - bytes.count
            let count = try perform("read", path: path) {
                try chunk.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0.prefix(wanted))) }
            }
            if count == 0 { break }
            bytes += chunk[0 ..< count]
        }
        return bytes
    }

    private func resetNow(zeroing: Bool) throws(StoreError) {
        let file = try openNow()
        let length = try bytesOnCard(file)
        if !zeroing, let layout, layout.fresh, length >= reserve { return }
        // The generation the file holds now: this object's, or the header's on the card (`nil`: a new file, one
        // of format 1, or one with no header readable).
        var known = layout?.generation
        if known == nil, length > 0, length % Self.block == 0, let found = try Self.header(path: path) {
            known = found.generation
        }
        layout = nil
        sizeSnapshot.store(0, ordering: .relaxed)
        if zeroing || known == nil {
            // Zeros over the whole file, synced before the new header is written: an erasure leaves no position in
            // it, and records no generation tells apart are gone before one is counted again.
            try writeBlocks([], length: (max(length, reserve) + Self.block - 1) / Self.block * Self.block, at: 0)
            try sync(file)
        } else if length < reserve {
            try writeBlocks([], length: reserve - length, at: length)
        }
        let generation = (known ?? 0) &+ 1
        let header = TrackPointRecord.header(tripID: nil, generation: generation).encoded(number: 0, generation: nil)
        // The header's block, zeros after it: records of the generation before in that block go with it.
        try writeBlocks(header, length: Self.block, at: 0)
        try sync(file)
        layout = Layout(generation: generation, tripID: nil, end: header.count, next: 1, tail: header, fresh: true)
    }

    /// Writes `data`, then zeros up to `length` bytes (whole blocks), at `offset` (a block's start).
    private func writeBlocks(_ data: [UInt8], length: Int, at offset: Int) throws(StoreError) {
        let file = try openNow()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: Self.block)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.copyBytes(from: data)
        if direct {
            while true {
                let count = pwrite(file.rawValue, buffer.baseAddress, length, off_t(offset))
                if count == length { return }
                if count < 0, errno == EINTR { continue }
                guard count < 0, errno == EINVAL else { throw failure("write", errno: count < 0 ? errno : EIO) }
                // The filesystem took the open but not the write: through the page cache from now on.
                try? file.close()
                self.file = nil
                direct = false
                break
            }
        }
        let buffered = try openNow()
        try perform("write") { _ = try buffered.writeAll(toAbsoluteOffset: Int64(offset), UnsafeRawBufferPointer(buffer)) }
    }

    /// The open file, created if missing: with O_DIRECT where the filesystem takes it (until a write says it does
    /// not). Made `rw-r-----` whatever the umask is at that instant (the control socket is bound under a stricter
    /// one); a file found looser is tightened, a tighter one left as it is (`FileModes`).
    private func openNow() throws(StoreError) -> FileDescriptor {
        if let file { return file }
        do {
            try FileModes.prepareFile(path)
        } catch {
            throw .cannotOpen(path: path, detail: "\(error)")
        }
        return try openFile()
    }

    private func openFile() throws(StoreError) -> FileDescriptor {
        if file == nil, !triedDirect {
            triedDirect = true
            let descriptor = trackd_open_direct(path, UInt32(FileModes.file))
            if descriptor >= 0 {
                direct = true
                file = FileDescriptor(rawValue: descriptor)
                return FileDescriptor(rawValue: descriptor)
            }
            guard errno == EINVAL else { throw failure("open", errno: errno) }
        }
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
        try Self.perform(operation, path: path, body)
    }

    private func failure(_ operation: String, errno code: Int32) -> StoreError {
        Self.failure(operation, path: path, errno: code)
    }

    private static func perform<T>(_ operation: String, path: String, _ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw failure(operation, path: path, errno: error.rawValue)
        } catch {
            throw failure(operation, path: path, errno: EIO)
        }
    }

    private static func failure(_ operation: String, path: String, errno code: Int32) -> StoreError {
        let message = String(cString: strerror(code))
        if let fault = StorageFault.diagnose(resultCode: ResultCode.SQLITE_IOERR.rawValue, systemErrno: code,
                                             message: message, path: path) {
            return .cannotWrite(path: path, operation: "\(operation) the point file", fault: fault)
        }
        return .database(operation: "\(operation) the point file \(path)", detail: message)
    }
}
