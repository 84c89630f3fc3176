#if canImport(Glibc)
import Glibc
#endif
import CQRencode

/// A QR code made by libqrencode: its modules (dark or light), square, without the quiet zone around it.
public struct QRCode: Sendable, Equatable {
    /// Modules per side.
    public let size: Int
    /// Row by row, `true` for dark.
    public let modules: [Bool]

    /// The code of `text` (as 8-bit bytes: a URL keeps its case), the smallest version that holds it, with medium
    /// error correction (about 15 % of it may be damaged and still read: the usual choice for a screen).
    public init(_ text: String) throws(QRCodeError) {
        guard !text.isEmpty else { throw .empty }
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw .cannotEncode(text: text, reason: String(cString: strerror(errno)))
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour (1: dark); the other bits say what the module is for.
        size = width
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module in `row`, `column` is dark; outside the code (the quiet zone) it is light.
    public subscript(row: Int, column: Int) -> Bool {
        guard (0..<size).contains(row), (0..<size).contains(column) else { return false }
        return modules[row * size + column]
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Sendable, CustomStringConvertible, Equatable {
    case empty
    case cannotEncode(text: String, reason: String)

    public var description: String {
        switch self {
        case .empty: "nothing to put in a QR code"
        case .cannotEncode(let text, let reason): "cannot make a QR code of \(text.count) characters: \(reason)"
        }
    }
}
