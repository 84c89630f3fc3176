/// Where the ELM327 adapter is, as trackd.conf's `obd.adapter` gives it.
///
/// - `serial:///dev/ttyUSB0?baud=38400`: a USB adapter (or Bluetooth bound to `/dev/rfcomm0`); baud 38400 unless
///   given (most adapters' default; genuine ELM327s may be set to 9600, some clones to 115200).
/// - `tcp://192.168.0.10:35000`: a Wi-Fi adapter (that address is what most of them use).
/// - `auto`: a USB adapter found by asking each USB-serial port that is not a receiver's (`OBDAutoSearch`).
public enum OBDAddress: Sendable, Hashable, CustomStringConvertible {
    case serial(path: String, baud: Int)
    case tcp(host: String, port: Int)
    case auto

    /// The baud rate a serial adapter is opened at unless its address says otherwise.
    public static let defaultBaud = 38400

    /// Parses an address; the error says what is wrong and what would be right.
    public init(parsing text: String) throws(SourceAddressError) {
        if text.lowercased() == "auto" {
            self = .auto
            return
        }
        if text.lowercased().hasPrefix("tcp://") {
            let rest = String(text.dropFirst("tcp://".count))
            guard let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") else {
                throw .malformed(text, "a Wi-Fi adapter needs a host and port: tcp://192.168.0.10:35000")
            }
            var host = String(rest[..<colon])
            guard let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port) else {
                throw .malformed(text, "the port must be a number from 1 to 65535")
            }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !host.contains("/"), !host.contains("?") else {
                throw .malformed(text, "no host before the port: tcp://192.168.0.10:35000")
            }
            self = .tcp(host: host, port: port)
            return
        }
        let expected = "expected auto (a USB adapter, found by asking), serial:///dev/ttyUSB0?baud=38400 (USB, Bluetooth rfcomm) "
            + "or tcp://HOST:PORT (Wi-Fi)"
        guard text.lowercased().hasPrefix("serial://") else { throw .malformed(text, expected) }
        let address: SourceAddress
        do {
            address = try SourceAddress(parsing: text.contains("baud=")
                ? text : text + (text.contains("?") ? "&" : "?") + "baud=\(Self.defaultBaud)")
        } catch {
            guard case .malformed(_, let hint) = error else { throw error }
            throw .malformed(text, hint)
        }
        guard case .serial(let path, let baud) = address else { throw .malformed(text, expected) }
        self = .serial(path: path, baud: baud)
    }

    public var description: String {
        switch self {
        case .serial(let path, let baud): "serial://\(path)?baud=\(baud)"
        case .tcp(let host, let port): "tcp://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .auto: "auto"
        }
    }
}
