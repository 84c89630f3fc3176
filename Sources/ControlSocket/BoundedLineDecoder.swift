import NIOCore

/// Splits a byte stream into lines (LF or CRLF), refusing any line longer than `maxLength` bytes.
///
/// NIO's decoders have no length bound for newline framing; a client that never sends a newline must not be
/// able to make the daemon buffer without end.
public struct BoundedLineDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = ByteBuffer

    public let maxLength: Int
    private var scanned = 0

    public init(maxLength: Int) {
        self.maxLength = maxLength
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let readable = buffer.readableBytesView
        let start = readable.index(readable.startIndex, offsetBy: scanned)
        guard let newline = readable[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = readable.count
            if scanned > maxLength { throw ControlSocketError.lineTooLong(limit: maxLength) }
            return .needMoreData
        }
        let length = readable.distance(from: readable.startIndex, to: newline)
        scanned = 0
        if length > maxLength {
            throw ControlSocketError.lineTooLong(limit: maxLength)
        }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytes > 0, line.getInteger(at: line.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\r") {
            line = line.getSlice(at: line.readerIndex, length: line.readableBytes - 1)!
        }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer,
                                    seenEOF: Bool) throws -> DecodingState {
        // A last line without its newline is still a line (a client that half-closes after writing).
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0 {
            let line = buffer.readSlice(length: buffer.readableBytes)!
            scanned = 0
            context.fireChannelRead(wrapInboundOut(line))
        }
        return .needMoreData
    }
}
