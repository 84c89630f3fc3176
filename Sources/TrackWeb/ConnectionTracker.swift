import NIOCore
import Synchronization

/// The open connections and listening sockets of trackd-web, and how long it has been without a connection: what
/// decides its exit when idle, and what is closed when it stops.
final class ConnectionTracker: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var listening: [any Channel] = []
        var idleSince: ContinuousClock.Instant
        var stopping = false
    }

    private let state: Mutex<State>

    init(now: ContinuousClock.Instant) {
        state = Mutex(State(idleSince: now))
    }

    /// Notes a listening socket (closed by `stop`).
    func listening(_ channel: any Channel) {
        let stopping = state.withLock { state in
            state.listening.append(channel)
            return state.stopping
        }
        if stopping { channel.close(promise: nil) }
    }

    /// Notes an accepted connection.
    func opened(_ channel: any Channel) {
        state.withLock { $0.open[ObjectIdentifier(channel)] = channel }
    }

    /// Notes that a connection ended.
    func closed(_ channel: any Channel, at now: ContinuousClock.Instant) {
        state.withLock { state in
            state.open[ObjectIdentifier(channel)] = nil
            if state.open.isEmpty { state.idleSince = now }
        }
    }

    /// How long there has been no connection at all; `nil` while one is open.
    func idleDuration(at now: ContinuousClock.Instant) -> Duration? {
        state.withLock { state in state.open.isEmpty ? now - state.idleSince : nil }
    }

    /// Whether `stop` was called.
    var isStopping: Bool {
        state.withLock { $0.stopping }
    }

    /// Closes the listening sockets and every connection.
    func stop() {
        let channels = state.withLock { state in
            state.stopping = true
            return state.listening + Array(state.open.values)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
    }
}
