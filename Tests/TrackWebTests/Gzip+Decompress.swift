import CZlib
@testable import TrackWeb

/// The other way, for the tests: what a browser does with the page's compressed files.
extension Gzip {
    /// A gzip stream decompressed; `nil` if it is not one, or is cut short.
    static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result = Z_OK
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while result == Z_OK {
                chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    result = inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: chunkBuffer.prefix(chunkBuffer.count - Int(stream.avail_out)))
                }
                if result == Z_BUF_ERROR && stream.avail_in > 0 { result = Z_OK }
            }
        }
        return result == Z_STREAM_END ? output : nil
    }
}
