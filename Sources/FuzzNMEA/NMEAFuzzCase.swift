import Foundation
import TrackCore

/// Runs one input through the byte → fix path trackd runs on a receiver's stream, and checks what must hold for any
/// input: nothing traps, and
/// - reading the input in chunks (cut at a point chosen from the input, the rest in small pieces) gives exactly the
///   fixes, diagnostics and counters that reading it in one piece gives;
/// - as the serial source reads it (a date hint from the system clock, a flush when the line goes quiet), every fix
///   encodes as the JSON that `watch` sends and as `trackctl decode`'s TPV line, and `status` stays valid JSON;
/// - the engine takes every fix (`trackctl replay`'s path: distance, outages, idle alerts, trips).
///
/// A broken rule ends the process with `fatalError`, which libFuzzer reports as a crash with the input.
struct NMEAFuzzCase {
    let input: UnsafeBufferPointer<UInt8>
    /// Where the input is cut in two.
    let cut: Int
    /// Size of the pieces the rest is fed in.
    let piece: Int
    /// Whether the serial-like read gets a date hint.
    let dateHint: Bool
    /// Whether the serial-like read flushes the open epoch at the cut (the line went quiet).
    let quietAtCut: Bool

    /// A fixed system-clock reading for the date hint (the demo drive's day).
    static let hint = UTCTime(nanosecondsSinceEpoch: 1_795_341_600 * UTCTime.nanosecondsPerSecond)

    /// The case for `input`, with its cut, piece size, date hint and quiet line chosen from its bytes.
    init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        // FNV-1a over the input: every mutation moves the cut, so chunk boundaries are explored with the content.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        cut = input.isEmpty ? 0 : Int(hash % UInt64(input.count + 1))
        piece = 1 + Int((hash >> 32) % 64)
        dateHint = hash & (1 << 20) != 0
        quietAtCut = hash & (1 << 21) != 0
    }

    /// What a reader handed back, comparable.
    enum Output: Hashable {
        case fix(Fix)
        case problem(NMEADiagnostic)
    }

    /// Reads the input every way and checks the rules; a broken one ends the process.
    func run() {
        let whole = readInOnePiece()
        let chunked = readInChunks()
        if whole.outputs != chunked.outputs {
            fatalError("chunked reading differs: cut at \(cut), pieces of \(piece)\n"
                       + "whole:   \(whole.outputs)\nchunked: \(chunked.outputs)")
        }
        if whole.statistics != chunked.statistics {
            fatalError("chunked counters differ: cut at \(cut), pieces of \(piece)\n"
                       + "whole:   \(whole.statistics)\nchunked: \(chunked.statistics)")
        }
        readAsTheSerialSource()
        replay()
    }

    private var head: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: input[..<cut]) }

    /// The rest after the cut, in pieces of `piece` bytes.
    private var pieces: [UnsafeBufferPointer<UInt8>] {
        stride(from: cut, to: input.count, by: piece).map { start in
            UnsafeBufferPointer(rebasing: input[start..<min(start + piece, input.count)])
        }
    }

    private func readInOnePiece() -> (outputs: [Output], statistics: NMEAStatistics) {
        var reader = NMEAReader()
        if dateHint { reader.setDateHint(NMEAFuzzCase.hint) }
        var outputs: [Output] = []
        reader.read(UnsafeRawBufferPointer(input)) { outputs.append(Output($0)) }
        reader.finish { outputs.append(Output($0)) }
        return (outputs, reader.statistics)
    }

    private func readInChunks() -> (outputs: [Output], statistics: NMEAStatistics) {
        var reader = NMEAReader()
        if dateHint { reader.setDateHint(NMEAFuzzCase.hint) }
        var outputs: [Output] = []
        reader.read(UnsafeRawBufferPointer(head)) { outputs.append(Output($0)) }
        for piece in pieces {
            reader.read(UnsafeRawBufferPointer(piece)) { outputs.append(Output($0)) }
        }
        reader.finish { outputs.append(Output($0)) }
        return (outputs, reader.statistics)
    }

    /// As `SerialSource` reads: a date hint before each read, a flush when the line is quiet; every fix goes out to
    /// watchers as JSON and into the status.
    private func readAsTheSerialSource() {
        var reader = NMEAReader()
        var fixes: [Fix] = []
        let deliver: (NMEAReader.Event) -> Void = { event in
            if case .fix(let fix) = event { fixes.append(fix) }
        }
        if dateHint { reader.setDateHint(NMEAFuzzCase.hint) }
        reader.read(UnsafeRawBufferPointer(head), deliver)
        if quietAtCut { reader.flush(deliver) }
        for piece in pieces {
            if dateHint { reader.setDateHint(NMEAFuzzCase.hint) }
            reader.read(UnsafeRawBufferPointer(piece), deliver)
        }
        reader.flush(deliver)
        NMEAFuzzCase.checkEncodings(of: fixes)
        let status = DaemonStatus(
            version: "trackd fuzz", source: SourceStatus(address: "serial:///dev/gps0", state: .connected, detail: "fuzz"),
            lastFix: fixes.last, lastFixAge: 0.5, lastPosition: fixes.last(where: \.hasPosition), lastPositionAge: 0.5,
            epochs: fixes.count, positionFixes: fixes.count, inputProblems: reader.statistics.malformedSentences)
        NMEAFuzzCase.checkJSON(RPCResponse(id: .number(1), result: status).jsonLine, "status")
    }

    /// `trackctl replay`: the engine over the fixes, with a clock made from their times.
    private func replay() {
        var session = ReplaySession()
        session.read(UnsafeRawBufferPointer(head))
        for piece in pieces { session.read(UnsafeRawBufferPointer(piece)) }
        let result = session.finish()
        if result.distance.isNaN || result.measuredDistance.isNaN {
            fatalError("replay measured no number: distance \(result.distance), measured \(result.measuredDistance)")
        }
    }

    /// The fixes as `watch` sends them (`JSONEncoder`, one notification each) and as `trackctl decode` prints them
    /// (TPV lines): every one must be JSON. Checked all at once (as JSON arrays), which costs far less per fix.
    private static func checkEncodings(of fixes: [Fix]) {
        guard !fixes.isEmpty else { return }
        let notifications: Data
        do {
            notifications = try encoder.encode(fixes.map { RPCNotification(method: "fix", params: $0) })
        } catch {
            fatalError("a fix cannot be sent to watchers: \(error)\n\(fixes)")
        }
        checkJSON(Array(notifications), "watch notifications")
        var tpv: [UInt8] = [UInt8(ascii: "[")]
        for (index, fix) in fixes.enumerated() {
            if index > 0 { tpv.append(UInt8(ascii: ",")) }
            fix.writeTPV(into: &tpv)
        }
        tpv.append(UInt8(ascii: "]"))
        checkJSON(tpv, "TPV lines")
    }

    private static func checkJSON(_ bytes: [UInt8], _ what: String) {
        let text = bytes.last == UInt8(ascii: "\n") ? bytes.dropLast() : bytes[...]
        if text.contains(UInt8(ascii: "\n")) {
            fatalError("\(what) spans lines: \(String(decoding: bytes, as: UTF8.self))")
        }
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text))
        } catch {
            fatalError("\(what) is not JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()
}

extension NMEAFuzzCase.Output {
    init(_ event: NMEAReader.Event) {
        switch event {
        case .fix(let fix): self = .fix(fix)
        case .problem(let diagnostic): self = .problem(diagnostic)
        }
    }
}
