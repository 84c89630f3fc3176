import Foundation
import TrackCore

/// Runs one input through what trackd does with an adapter's answers, and checks what must hold for any input:
/// nothing traps, and
/// - the input, cut at each `>` (the prompt) into answers, is the adapter's side of a whole dialogue
///   (`ELM327Dialogue`, as `OBDSource` holds it; an answer of `!` alone stands for no prompt within the timeout):
///   the dialogue never waits for a moment already past, and every reading it reports is one the parameter can
///   hold (speed 0–255 km/h, engine speed 0–16 383.75 rpm, odometer 0–429 496 729.5 km, voltage 0–40 V);
/// - every answer read as the answer to each parameter gives a value or a reason;
/// - the status built from the events (`OBDStatus`, whose text comes from the adapter) is written by `status`'s own
///   JSON writer exactly as `JSONEncoder` writes it.
///
/// A broken rule ends the process with `fatalError`, which libFuzzer reports as a crash with the input.
struct OBDFuzzCase {
    let answers: [String]

    init(_ input: UnsafeBufferPointer<UInt8>) {
        answers = input.split(separator: UInt8(ascii: ">"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    func run() {
        var dialogue = ELM327Dialogue()
        var status = OBDStatus(address: "tcp://192.168.0.10:35000", state: .connected, detail: "192.168.0.10:35000")
        var now = MonotonicInstant(nanoseconds: 1_000_000_000)
        var remaining = answers[...]
        var steps = 0
        while let answer = remaining.first, steps < 10_000 {
            steps += 1
            switch dialogue.next(at: now) {
            case .wait(let until):
                guard until > now else { fatalError("the dialogue waits for a moment already past: \(until) at \(now)") }
                now = until
            case .send(let command, let timeout):
                guard timeout > 0, !command.isEmpty else { fatalError("a command '\(command)' with timeout \(timeout)") }
                remaining = remaining.dropFirst()
                now = now.adding(seconds: 0.05)
                let events = answer == "!"
                    ? dialogue.handleTimeout(at: now)
                    : dialogue.handle(ELM327Reply(answer, command: command), at: now)
                for event in events {
                    check(event)
                    status.apply(event)
                }
                readAsEveryParameter(answer)
            }
        }
        checkJSON(status)
    }

    private func check(_ event: OBDEvent) {
        switch event {
        case .reading(.speed(let speed), _):
            guard (0...255).contains(speed) else { fatalError("speed \(speed) km/h") }
        case .reading(.engineSpeed(let rpm), _):
            guard (0...16_383.75).contains(rpm) else { fatalError("engine speed \(rpm) rpm") }
        case .reading(.odometer(let kilometres), _):
            guard (0...429_496_729.5).contains(kilometres) else { fatalError("odometer \(kilometres) km") }
        case .voltage(let volts):
            guard (0...40).contains(volts) else { fatalError("voltage \(volts) V") }
        default:
            break
        }
    }

    private func readAsEveryParameter(_ answer: String) {
        for parameter in OBDParameter.allCases {
            switch parameter.value(in: ELM327Reply(answer, command: parameter.command)) {
            case .success(.vin(let vin)):
                guard vin.utf8.count == 17 else { fatalError("a VIN of \(vin.utf8.count) characters: '\(vin)'") }
            case .success, .failure:
                break
            }
        }
    }

    private func checkJSON(_ obd: OBDStatus) {
        let status = DaemonStatus(version: "trackd fuzz", source: SourceStatus(address: "gpsd://localhost:2947",
                                                                              state: .connected, detail: "fuzz"),
                                  obd: obd)
        var json = JSONWriter()
        status.writeJSON(to: &json)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let encoded = try? encoder.encode(status) else { fatalError("JSONEncoder refused \(obd)") }
        guard json.bytes == Array(encoded) else {
            fatalError("status JSON differs:\nwritten: \(String(decoding: json.bytes, as: UTF8.self))\n"
                       + "encoder: \(String(decoding: encoded, as: UTF8.self))")
        }
    }
}
