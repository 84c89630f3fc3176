/// Where to read fixes from, as given to `--source`.
///
/// - `gpsd://HOST:PORT` (default `gpsd://localhost:2947`): gpsd through libgps.
/// - `serial:///dev/ttyACM0?baud=9600`: a receiver on a serial port (baud 4800–921600, default 9600).
/// - `file:///path/log.nmea?speed=N`: a recorded NMEA log played at N times its recorded pace (0 = at once).
/// - `auto`: the receiver found by looking (a USB receiver at `/dev/gps0`, a HAT on `/dev/serial0`, gpsd).
public enum SourceAddress: Sendable, Hashable, CustomStringConvertible {
    case gpsd(host: String, port: Int)
    case serial(path: String, baud: Int)
    case file(path: String, speed: Double)
    case auto

    /// The source used when none is configured.
    public static let `default` = SourceAddress.gpsd(host: "localhost", port: 2947)

    /// Baud rates a serial receiver may be opened at.
    public static let supportedBaudRates = [4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600]

    /// Parses an address; the error says what is wrong and what would be right.
    public init(parsing text: String) throws(SourceAddressError) {
        if text.lowercased() == "auto" {
            self = .auto
            return
        }
        let separator = Array("://".utf8)
        let bytes = Array(text.utf8)
        guard let offset = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw .malformed(text, "expected auto, gpsd://HOST:PORT, serial:///dev/DEVICE?baud=N or file:///PATH?speed=N")
        }
        let scheme = String(decoding: bytes[..<offset], as: UTF8.self).lowercased()
        let rest = String(decoding: bytes[(offset + separator.count)...], as: UTF8.self)
        let (location, query) = try SourceAddress.split(rest, in: text)
        switch scheme {
        case "gpsd":
            try SourceAddress.allow(query, keys: [], in: text)
            var host = location.isEmpty ? "localhost" : location
            var port = 2947
            if let colon = location.lastIndex(of: ":"), !location.hasSuffix("]") {
                host = String(location[..<colon])
                guard let value = Int(location[location.index(after: colon)...]), (1...65535).contains(value) else {
                    throw .malformed(text, "the port must be a number from 1 to 65535")
                }
                port = value
            }
            if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw .malformed(text, "no host before the port") }
            self = .gpsd(host: host, port: port)
        case "serial":
            try SourceAddress.allow(query, keys: ["baud"], in: text)
            guard location.hasPrefix("/") else {
                throw .malformed(text, "the device needs an absolute path: serial:///dev/ttyACM0")
            }
            var baud = 9600
            if let value = query["baud"] {
                guard let number = Int(value), SourceAddress.supportedBaudRates.contains(number) else {
                    throw .malformed(text, "baud must be one of \(SourceAddress.supportedBaudRates.map(String.init).joined(separator: ", "))")
                }
                baud = number
            }
            self = .serial(path: location, baud: baud)
        case "file":
            try SourceAddress.allow(query, keys: ["speed"], in: text)
            guard location.hasPrefix("/") else {
                throw .malformed(text, "the log needs an absolute path: file:///home/me/drive.nmea")
            }
            var speed = 1.0
            if let value = query["speed"] {
                guard let number = Double(value), number >= 0, number.isFinite else {
                    throw .malformed(text, "speed must be a number ≥ 0 (1 = recorded pace, 0 = as fast as possible)")
                }
                speed = number
            }
            self = .file(path: location, speed: speed)
        default:
            throw .malformed(text, "unknown scheme '\(scheme)': use gpsd, serial or file (or auto)")
        }
    }

    public var description: String {
        switch self {
        case .gpsd(let host, let port): "gpsd://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case .serial(let path, let baud): "serial://\(path)?baud=\(baud)"
        case .file(let path, let speed): "file://\(path)?speed=\(speed.plainDescription)"
        case .auto: "auto"
        }
    }

    private static func split(_ rest: String, in text: String) throws(SourceAddressError) -> (String, [String: String]) {
        guard let questionMark = rest.firstIndex(of: "?") else { return (rest, [:]) }
        var query: [String: String] = [:]
        for pair in rest[rest.index(after: questionMark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw .malformed(text, "'\(pair)' is not KEY=VALUE") }
            query[String(parts[0])] = String(parts[1])
        }
        return (String(rest[..<questionMark]), query)
    }

    private static func allow(_ query: [String: String], keys: Set<String>, in text: String) throws(SourceAddressError) {
        if let unknown = query.keys.sorted().first(where: { !keys.contains($0) }) {
            let allowed = keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")
            throw .malformed(text, "unknown option '\(unknown)' (allowed: \(allowed))")
        }
    }
}

/// A `--source` that cannot be used.
public enum SourceAddressError: Error, Sendable, Hashable, CustomStringConvertible {
    case malformed(String, String)

    public var description: String {
        switch self {
        case .malformed(let text, let hint): "invalid source '\(text)': \(hint)"
        }
    }
}

extension Double {
    /// `2` rather than `2.0`, `0.5` as is.
    public var plainDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
