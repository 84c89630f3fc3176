#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Text from a C format (`"%.6f"`, `"%02d"`) and its arguments, as `printf` writes it in the C locale.
    ///
    /// Foundation's `String(format:)` lives in the full Foundation, which brings ICU; this is the C library's
    /// `vsnprintf` (exact decimal rounding of the binary value, `.` as decimal point: Swift programs never call
    /// `setlocale`). Only C conversions: no `%@`.
    public init(printf format: String, _ arguments: any CVarArg...) {
        self = Self.printed(format, arguments)
    }

    private static func printed(_ format: String, _ arguments: [any CVarArg]) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let needed = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        if needed >= buffer.count {
            buffer = [CChar](repeating: 0, count: needed + 1)
            _ = withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) }
        }
        return String(decoding: buffer.prefix(Swift.max(needed, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
