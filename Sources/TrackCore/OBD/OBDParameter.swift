/// The OBD-II parameters trackd asks a car for through an ELM327 (SAE J1979 modes 01 and 09), and how their
/// answers are read. Pure: the text an adapter sent goes in, a value or the reason there is none comes out.
public enum OBDParameter: Sendable, Hashable, CaseIterable {
    /// Mode 01 PID 00: which of PIDs 01–20 the car supports.
    case supported01to20
    /// Mode 01 PID A0: which of PIDs A1–C0 the car supports (A6 is the odometer).
    case supportedA1toC0
    /// Mode 01 PID 0C: engine speed, revolutions a minute.
    case engineSpeed
    /// Mode 01 PID 0D: vehicle speed, km/h.
    case vehicleSpeed
    /// Mode 01 PID A6: the odometer, km (0.1 km resolution); cars from about 2019 on.
    case odometer
    /// Mode 09 PID 02: the vehicle identification number.
    case vin

    /// The service (mode) and parameter id.
    public var mode: UInt8 {
        self == .vin ? 0x09 : 0x01
    }

    public var pid: UInt8 {
        switch self {
        case .supported01to20: 0x00
        case .supportedA1toC0: 0xA0
        case .engineSpeed: 0x0C
        case .vehicleSpeed: 0x0D
        case .odometer: 0xA6
        case .vin: 0x02
        }
    }

    /// What is sent to the adapter (`010C`).
    public var command: String {
        mode.hexDigits + pid.hexDigits
    }

    /// The value in the adapter's `reply` to `command`.
    public func value(in reply: ELM327Reply) -> Result<OBDValue, OBDReadError> {
        let lines: [String]
        switch reply {
        case .data(let data): lines = data
        case .noData: return .failure(.noData(command))
        case .error(let error): return .failure(.adapter(command, error))
        case .ok: return .failure(.unexpected(command, "OK"))
        case .text(let text): return .failure(.unexpected(command, text.oneLine))
        }
        let messages = OBDMessages.assemble(lines)
        // Several control units may answer: the first that answers this very request counts, except for the
        // supported PIDs (each unit lists its own: all of them together) and a VIN sent in numbered pieces.
        let payloads = messages.compactMap { self.payload(of: $0).map(Array.init) }
        guard let payload = payloads.first else {
            // A negative response (7F, the service, a reason code): the car answered, and refused.
            if let refusal = messages.first(where: { $0.count >= 3 && $0[0] == 0x7F && $0[1] == mode }) {
                return .failure(.refused(command, refusal[2]))
            }
            return .failure(.unexpected(command, lines.joined(separator: " / ")))
        }
        switch self {
        case .supported01to20, .supportedA1toC0:
            let complete = payloads.filter { $0.count >= 4 }
            guard !complete.isEmpty else { return .failure(.tooShort(command, payload.count)) }
            var pids = Set<UInt8>()
            for unit in complete {
                for bit in 0..<32 where unit[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
                    pids.insert(pid &+ UInt8(bit + 1))
                }
            }
            return .success(.supported(pids))
        case .engineSpeed:
            guard payload.count >= 2 else { return .failure(.tooShort(command, payload.count)) }
            return .success(.revolutionsPerMinute((Double(payload[0]) * 256 + Double(payload[1])) / 4))
        case .vehicleSpeed:
            guard payload.count >= 1 else { return .failure(.tooShort(command, payload.count)) }
            return .success(.kilometresPerHour(Double(payload[0])))
        case .odometer:
            guard payload.count >= 4 else { return .failure(.tooShort(command, payload.count)) }
            let tenths = payload.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return .success(.kilometres(Double(tenths) / 10))
        case .vin:
            // On CAN one message: the number of data items (1), then the 17 characters (some cars pad with zeros).
            // On J1850 and the K-line, five: each its number (1–5) and four bytes, the first padded with zeros.
            let pieces = payloads.filter { $0.count == 5 }
            let body = payloads.count > 1 && pieces.count == payloads.count
                ? pieces.sorted { $0[0] < $1[0] }.flatMap { $0.dropFirst() }
                : Array(payload.dropFirst())
            let characters = body.filter { $0 != 0 }
            guard characters.count >= 17, characters.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                return .failure(.unexpected(command, lines.joined(separator: " / ")))
            }
            return .success(.vin(String(decoding: characters.suffix(17), as: UTF8.self)))
        }
    }

    /// The data bytes of `message` when it answers this request: the positive response (mode + 0x40) and the
    /// same PID first.
    func payload(of message: [UInt8]) -> ArraySlice<UInt8>? {
        guard message.count >= 2, message[0] == mode | 0x40, message[1] == pid else { return nil }
        return message.dropFirst(2)
    }
}

/// What a car answered, read.
public enum OBDValue: Sendable, Hashable {
    case supported(Set<UInt8>)
    case revolutionsPerMinute(Double)
    case kilometresPerHour(Double)
    case kilometres(Double)
    case vin(String)
}

/// Why a parameter has no value, with the command asked.
public enum OBDReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `NO DATA`: the car did not answer (it lacks the parameter, or the engine is off).
    case noData(String)
    /// The adapter reported an error.
    case adapter(String, ELM327Error)
    /// An answer, but not to this request (another service or PID, or unreadable).
    case unexpected(String, String)
    /// The answer has fewer data bytes than the parameter needs.
    case tooShort(String, Int)
    /// The car refused the request (a negative response, `7F 01 12`), with its reason code.
    case refused(String, UInt8)

    public var description: String {
        switch self {
        case .noData(let command): "\(command): the car did not answer (NO DATA)"
        case .adapter(let command, let error): "\(command): \(error)"
        case .unexpected(let command, let answer): "\(command): the answer '\(answer)' is not one to this request"
        case .tooShort(let command, let count): "\(command): the answer has only \(count) data bytes"
        case .refused(let command, let code):
            "\(command): the car refused the request (negative response, code \(String(code, radix: 16, uppercase: true)))"
        }
    }
}
