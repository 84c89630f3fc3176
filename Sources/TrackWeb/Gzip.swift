import CZlib

/// zlib's gzip format (RFC 1952), for the page's files sent with `Content-Encoding: gzip`.
enum Gzip {
    /// `bytes` compressed in one piece at zlib's best compression; `nil` if zlib refused.
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 bits of window, plus 16: the gzip wrapper instead of zlib's own.
        guard deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound counts the gzip header and trailer this stream writes.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        var input = bytes
        let result = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

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
