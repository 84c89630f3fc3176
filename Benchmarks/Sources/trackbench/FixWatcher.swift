import ControlSocket
import Foundation
import NIOCore
import Synchronization
import TrackCore

/// A `watch` client on trackctl's own connection code: it follows trackd's notifications until the connection
/// ends (trackd stopped or killed) and keeps what the harnesses check — the GPS time of every fix in arrival order,
/// the `lagged` counts, and the trip notices.
final class FixWatcher: Sendable {
    /// What the watcher saw so far.
    struct Seen: Sendable {
        /// GPS times of the fixes, in the order they came (fixes without a time are counted only).
        var fixTimes: [UTCTime] = []
        var fixes = 0
        /// When the last fix came, and the longest wait between two fixes (wall time).
        var lastArrival: ContinuousClock.Instant?
        var longestWait: Duration = .zero
        /// Events trackd said it dropped for this watcher (`lagged`).
        var dropped = 0
        /// `started`, `resumed`, `ended` with the trip's number.
        var trips: [String] = []
        /// Why the connection ended, when not at trackd's end of it.
        var failure: String?
        var ended = false
    }

    private let seen = Mutex(Seen())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Connects to `socket`, asks `watch`, and follows in the background.
    init(socket: String, name: String) {
        let started = Task { [self] in
            // The socket file appears a moment before trackd accepts on it: a refused connection is tried again.
            for attempt in 1...100 {
                do {
                    try await ControlClient.withConnection(socketPath: socket, client: name) { connection in
                        _ = try await connection.call(.watch, params: NoParams(), result: WatchResult.self)
                        while let line = try await connection.receive() {
                            take(line)
                        }
                    }
                } catch ControlSocketError.daemonNotRunning where attempt < 100 && !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(20))
                    continue
                } catch {
                    seen.withLock { $0.failure = "\(error)" }
                }
                break
            }
            seen.withLock { $0.ended = true }
        }
        task.withLock { $0 = started }
    }

    /// What was seen so far.
    var snapshot: Seen { seen.withLock { $0 } }

    /// Waits up to `seconds` for the connection to end; whether it did.
    func waitForEnd(upTo seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
        while ContinuousClock.now < deadline {
            if seen.withLock({ $0.ended }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return seen.withLock { $0.ended }
    }

    /// Stops following (closes the connection).
    func cancel() {
        task.withLock { $0?.cancel() }
    }

    private static let fixPrefix = Array(#"{"jsonrpc":"2.0","method":"fix","params":"#.utf8)
    private static let timeKey = Array(#""time":""#.utf8)

    /// Notes one line; fixes are read without a full decode (the clients share the cores with trackd).
    private func take(_ line: ByteBuffer) {
        let bytes = line.readableBytesView
        if bytes.starts(with: FixWatcher.fixPrefix) {
            let time = FixWatcher.timeText(in: bytes).flatMap { UTCTime(iso8601: $0) }
            let now = ContinuousClock.now
            seen.withLock {
                $0.fixes += 1
                if let time { $0.fixTimes.append(time) }
                if let last = $0.lastArrival { $0.longestWait = max($0.longestWait, now - last) }
                $0.lastArrival = now
            }
            return
        }
        guard let envelope = try? JSONLines.decode(RPCEnvelope.self, from: line), let method = envelope.method else { return }
        switch method {
        case "lagged":
            let dropped = (try? JSONLines.decode(RPCNotification<LaggedParams>.self, from: line).params.dropped) ?? 0
            seen.withLock { $0.dropped += dropped }
        case "trip":
            if let notice = try? JSONLines.decode(RPCNotification<TripNotice>.self, from: line).params {
                seen.withLock { $0.trips.append("\(notice.change) \(notice.trip.number)") }
            }
        default:
            break
        }
    }

    /// The text of the first `"time":"…"` member.
    private static func timeText(in bytes: ByteBufferView) -> String? {
        let array = Array(bytes)
        guard array.count > timeKey.count else { return nil }
        var index = 0
        while index + timeKey.count < array.count {
            if array[index] == timeKey[0], array[index..<index + timeKey.count].elementsEqual(timeKey) {
                let start = index + timeKey.count
                guard let end = array[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                return String(decoding: array[start..<end], as: UTF8.self)
            }
            index += 1
        }
        return nil
    }
}
