import Foundation
import TrackCore

/// The raw bytes of files as they lie on the card, searched for what an erasure must have taken: coordinates in
/// every encoding the log and its exports use, names as UTF-8.
public struct StoredBytes {
    /// The files read, with their bytes.
    public let files: [(path: String, bytes: [UInt8])]

    /// Reads `paths` (files that do not exist are skipped) and every regular file under `folders`, recursively.
    public init(paths: [String], folders: [String] = []) {
        var found: [(String, [UInt8])] = []
        var all = paths
        for folder in folders {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let name = enumerator?.nextObject() as? String { all.append("\(folder)/\(name)") }
        }
        for path in all {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  let data = FileManager.default.contents(atPath: path)
            else { continue }
            found.append((path, [UInt8](data)))
        }
        files = found
    }

    /// The SQLite file at `path` with its `-wal` and `-shm`, and trackd's point file beside it (`-points`).
    public init(log path: String, folders: [String] = []) {
        self.init(paths: [path, path + "-wal", path + "-shm", path + "-points"], folders: folders)
    }

    /// The files that contain `pattern`.
    public func files(containing pattern: [UInt8]) -> [String] {
        guard !pattern.isEmpty else { return [] }
        return files.filter { Self.find(pattern, in: $0.bytes) }.map(\.path)
    }

    /// The files that contain `text` as UTF-8.
    public func files(containing text: String) -> [String] {
        files(containing: Array(text.utf8))
    }

    /// Every place a coordinate of `points` is found, as `"path: encoding"`: latitude and longitude in 1e-7 degrees
    /// as adjacent 4-byte big-endian integers (a track point's record in the log) or adjacent 8-byte little-endian
    /// ones (the point file's), either as an 8-byte IEEE double, big-endian (a trip's position in the log) or
    /// little-endian (the point file's ends), or as decimal text to four decimals, about 10 m (the chain's text, the
    /// exports).
    public func coordinates(of points: [Coordinate]) -> [String] {
        var hits: Set<String> = []
        for coordinate in points {
            let latitude = Int32((coordinate.latitude * 1e7).rounded())
            let longitude = Int32((coordinate.longitude * 1e7).rounded())
            let pair = Self.bigEndian(UInt32(bitPattern: latitude)) + Self.bigEndian(UInt32(bitPattern: longitude))
            for path in files(containing: pair) { hits.insert("\(path): 1e-7 integers \(latitude),\(longitude)") }
            let wide = Self.littleEndian(Int64(latitude)) + Self.littleEndian(Int64(longitude))
            for path in files(containing: wide) { hits.insert("\(path): 1e-7 integers, 8 bytes \(latitude),\(longitude)") }
            for value in [coordinate.latitude, coordinate.longitude] {
                for path in files(containing: Self.bigEndian(value.bitPattern)) { hits.insert("\(path): double \(value)") }
                for path in files(containing: Self.littleEndian(value.bitPattern)) {
                    hits.insert("\(path): little-endian double \(value)")
                }
            }
            for value in [coordinate.latitude, coordinate.longitude] {
                let text = Self.decimalPrefix(value)
                for path in files(containing: text) { hits.insert("\(path): text \(text)") }
            }
        }
        return hits.sorted()
    }

    /// `59.437` from 59.43708: the value cut to four decimals without trailing zeros, the start of any longer
    /// decimal text of it.
    static func decimalPrefix(_ value: Double) -> String {
        var text = String(format: "%.4f", (value * 1e4).rounded(.towardZero) / 1e4)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8]) -> Bool {
        guard bytes.count >= pattern.count, let first = pattern.first else { return false }
        var index = 0
        let last = bytes.count - pattern.count
        while index <= last {
            if bytes[index] == first {
                var matches = true
                for offset in 1..<pattern.count where bytes[index + offset] != pattern[offset] {
                    matches = false
                    break
                }
                if matches { return true }
            }
            index += 1
        }
        return false
    }
}
