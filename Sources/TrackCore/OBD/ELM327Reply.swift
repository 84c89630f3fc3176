/// One answer of an ELM327 adapter to one command, as the data sheet describes its text: what came before the `>`
/// prompt, with the echo (when echo is on), `SEARCHING...` and blank lines taken away.
public enum ELM327Reply: Sendable, Hashable {
    /// `OK` (an AT command done).
    case ok
    /// Lines of hex digits (the cars' answers; with headers on, each starts with its sender's address).
    case data([String])
    /// `NO DATA`: nothing answered in time (a PID the car lacks, or the engine is off).
    case noData
    /// An adapter or bus error (`CAN ERROR`, `BUS INIT: ...ERROR`, `STOPPED`, `?` …).
    case error(ELM327Error)
    /// Any other text (`ELM327 v1.5`, `13.1V`, `AUTO, ISO 15765-4 (CAN 11/500)`).
    case text(String)

    /// Reads the text an adapter sent for `command` (lines split at CR or LF, the prompt already taken away).
    public init(_ raw: String, command: String) {
        let echo = command.uppercased().filter { $0 != " " }
        var lines = raw.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
            .map { String($0).trimmingWhitespace }
            .filter { !$0.isEmpty && $0 != ">" }
        // The echo of the command (echo on), and the search for a protocol that precedes the first answer.
        if let first = lines.first, first.uppercased().filter({ $0 != " " }) == echo { lines.removeFirst() }
        lines.removeAll { $0.uppercased().hasPrefix("SEARCHING") }
        guard !lines.isEmpty else {
            self = .text("")
            return
        }
        for line in lines {
            if let error = ELM327Error(line) {
                self = .error(error)
                return
            }
        }
        // Clones and cars write some words without their space (NODATA, BUSINIT: ...ERROR).
        if lines.contains(where: { $0.elm327Word == "NODATA" }) {
            self = .noData
        } else if lines.count == 1, lines[0].uppercased() == "OK" {
            self = .ok
        } else if lines.allSatisfy(Self.isHexLine) {
            self = .data(lines)
        } else {
            self = .text(lines.joined(separator: "\n"))
        }
    }

    /// The reply in a few words, for a log line.
    public var summary: String {
        switch self {
        case .ok: "OK"
        case .data(let lines): lines.joined(separator: " / ")
        case .noData: "NO DATA"
        case .error(let error): error.description
        case .text(let text): text.isEmpty ? "an empty answer" : "'\(text.oneLine)'"
        }
    }

    /// Hex digits with optional spaces, or a multi-frame answer's `0:`-style line number or its byte count (`014`).
    static func isHexLine(_ line: String) -> Bool {
        var body = Substring(line)
        if let colon = body.firstIndex(of: ":") {
            guard body[..<colon].allSatisfy(\.isHexDigit) else { return false }
            body = body[body.index(after: colon)...]
        }
        return body.contains(where: \.isHexDigit) && body.allSatisfy { $0.isHexDigit || $0 == " " }
    }
}

/// The errors an ELM327 reports in place of an answer, each with what it means for a logger in a car.
public enum ELM327Error: Sendable, Hashable, CustomStringConvertible {
    /// `?`: the adapter did not understand the command.
    case notUnderstood
    /// `CAN ERROR`: the CAN bus could not be used (wrong protocol, no car, ignition off on some cars).
    case canError
    /// `BUS INIT: ...ERROR`: the slow-init protocols (ISO 9141, KWP) found no car.
    case busInitError
    /// `UNABLE TO CONNECT`: no protocol found a car.
    case unableToConnect
    /// `STOPPED`: the command was interrupted (a byte arrived while the adapter was working).
    case stopped
    /// `BUS BUSY`, `BUS ERROR`, `DATA ERROR`, `<DATA ERROR`, `FB ERROR`, `BUFFER FULL`, `RX ERROR`, `LV RESET`,
    /// `ERR94`, …: the adapter's words.
    case other(String)

    /// The error named by `line`, if it names one.
    init?(_ line: String) {
        // Compared without spaces: clones write BUSINIT: ...ERROR, CANERROR and the like.
        let text = line.elm327Word
        switch text {
        case "?": self = .notUnderstood
        case "CANERROR": self = .canError
        case "UNABLETOCONNECT": self = .unableToConnect
        case "STOPPED": self = .stopped
        default:
            if text.hasPrefix("BUSINIT") && text.contains("ERROR") {
                self = .busInitError
            } else if ["BUSBUSY", "BUSERROR", "DATAERROR", "<DATAERROR", "FBERROR", "BUFFERFULL", "RXERROR",
                       "LVRESET", "ACTALERT", "LPALERT"].contains(text) || text.hasPrefix("ERR") && text.count <= 6 {
                self = .other(line)
            } else {
                return nil
            }
        }
    }

    /// Whether the adapter reset itself with this error and lost its settings (echo, headers and spaces back on):
    /// `LV RESET` (its supply dipped, as when the engine cranks) and `ERR94` (a fatal CAN error).
    public var resetTheAdapter: Bool {
        guard case .other(let words) = self else { return false }
        return ["LVRESET", "ERR94"].contains(words.elm327Word)
    }

    public var description: String {
        switch self {
        case .notUnderstood: "the adapter did not understand the command (?)"
        case .canError: "CAN ERROR: the adapter cannot use the car's CAN bus (no car, the wrong protocol, or the ignition is off)"
        case .busInitError: "BUS INIT ERROR: no car answered the adapter's slow initialisation"
        case .unableToConnect: "UNABLE TO CONNECT: the adapter found no car on any protocol"
        case .stopped: "STOPPED: the adapter was interrupted before it answered"
        case .other(let words): "the adapter said \(words)"
        }
    }
}

extension String {
    /// The adapter's words as they are compared: upper case, without spaces (clones write `NODATA`, `CANERROR`).
    var elm327Word: String { uppercased().filter { $0 != " " } }
}
