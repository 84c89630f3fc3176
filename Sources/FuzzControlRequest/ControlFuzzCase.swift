import ControlSocket
import Foundation
import FuzzSupport
import NIOCore
import NIOEmbedded
import TrackService

/// Runs one input through what trackd does with bytes from a control client: the bounded line decoder (the input
/// cut at a point chosen from it, the rest in small pieces, then the client's half-close), then the request handler
/// on every line, with changes carried out by the tracker in a real log. It checks what must hold for any input:
/// nothing traps, and every answer is one line of JSON, a JSON-RPC 2.0 response with a result or an error.
///
/// A broken rule ends the process with `fatalError`, which libFuzzer reports as a crash with the input.
struct ControlFuzzCase {
    /// The line limit: lower than the daemon's 64 KiB so that inputs of libFuzzer's size reach it.
    static let maxLineLength = 2048

    /// `FUZZ_VERBOSE=1` prints every request line and its answer (to see what an input does).
    static let verbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] == "1"

    let input: UnsafeBufferPointer<UInt8>
    /// Where the input is cut in two.
    let cut: Int
    /// Size of the pieces the rest is fed in.
    let piece: Int

    /// The case for `input`, with its cut and piece size chosen from its bytes.
    init(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        // FNV-1a over the input: every mutation moves the cut, so chunk boundaries are explored with the content.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        cut = input.isEmpty ? 0 : Int(hash % UInt64(input.count + 1))
        piece = 1 + Int((hash >> 32) % 256)
    }

    /// Frames the input, answers every line on `daemon` and checks every answer.
    func run(on daemon: ControlFuzzDaemon) {
        let handler = daemon.handler
        let peer = PeerCredentials(pid: 1, uid: 0, gid: 0)
        for line in lines() {
            let outcome = blocking { await handler.handle(line, peer: peer) }
            switch outcome {
            case .respond(let reply), .respondAndWatch(let reply, _):
                if ControlFuzzCase.verbose {
                    print("→ \(String(decoding: line.readableBytesView, as: UTF8.self))")
                    print("← \(String(decoding: reply.readableBytesView, as: UTF8.self))", terminator: "")
                }
                ControlFuzzCase.check(reply, answering: line)
            case .none:
                break
            }
        }
    }

    /// The lines the server's decoder hands on, in order, up to a line that is too long (where the server answers
    /// with an error and closes).
    private func lines() -> [ByteBuffer] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(BoundedLineDecoder(maxLength: ControlFuzzCase.maxLineLength)))
        var lines: [ByteBuffer] = []
        func collect() {
            while let line = try? channel.readInbound(as: ByteBuffer.self) { lines.append(line) }
        }
        do {
            try channel.writeInbound(ByteBuffer(bytes: UnsafeBufferPointer(rebasing: input[..<cut])))
            collect()
            for start in stride(from: cut, to: input.count, by: piece) {
                try channel.writeInbound(ByteBuffer(bytes: UnsafeBufferPointer(rebasing: input[start..<min(start + piece, input.count)])))
                collect()
            }
            _ = try channel.finish()
            collect()
        } catch ControlSocketError.lineTooLong {
            collect()
            _ = try? channel.finish()
        } catch {
            fatalError("the line decoder failed with \(error)")
        }
        return lines
    }

    /// An answer is one line: a JSON object with `"jsonrpc": "2.0"`, an `id` member and a result or an error.
    private static func check(_ reply: ByteBuffer, answering line: ByteBuffer) {
        let bytes = Array(reply.readableBytesView)
        let request = String(decoding: line.readableBytesView, as: UTF8.self)
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.last == UInt8(ascii: "\n"), !bytes.dropLast().contains(UInt8(ascii: "\n")) else {
            fatalError("the answer is not one line\nrequest: \(request)\nanswer: \(text)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes.dropLast()))
        } catch {
            fatalError("the answer is not JSON (\(error))\nrequest: \(request)\nanswer: \(text)")
        }
        guard let response = object as? [String: Any], response["jsonrpc"] as? String == "2.0",
              response.keys.contains("id"), (response["result"] != nil) != (response["error"] != nil)
        else {
            fatalError("the answer is not a JSON-RPC 2.0 response\nrequest: \(request)\nanswer: \(text)")
        }
        if let error = response["error"] as? [String: Any], error["code"] as? Int == -32603 {
            fatalError("internal error: an answer could not be encoded\nrequest: \(request)\nanswer: \(text)")
        }
    }
}
