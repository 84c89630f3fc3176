import NIOCore
import Synchronization

/// The open connections and listening sockets of trackd-web, and how long it has been without a connection: what
/// decides its exit when idle, what is closed when it stops, and the bounds on connections — at most `perAddress`
/// from one address (more are closed at once), and at most `total` in all, where a new one from another address
/// closes the oldest of the address holding most (so that a phone still gets in while others hold connections open).
final class ConnectionTracker: Sendable {
    /// Connections one address may hold (a browser opens six at most to one server, a page's live events one more).
    static let perAddress = 32
    /// Connections in all: each may hold a connection to trackd as well, so with the files the page reads they stay
    /// well within trackd-web's 1024 file descriptors (LimitNOFILE in trackd-web.service).
    static let total = 256

    /// What becomes of a new connection.
    enum Admission: Equatable {
        /// Served (another one was closed to make room where all `total` were taken).
        case accepted
        /// Closed at once: its address holds `perAddress` connections (`firstRefusal`: the first since it reached
        /// them, for the journal).
        case refused(firstRefusal: Bool)
    }

    private struct Connection {
        let channel: any Channel
        let address: String
        let serial: Int
    }

    private struct State {
        var open: [ObjectIdentifier: Connection] = [:]
        var listening: [any Channel] = []
        var idleSince: ContinuousClock.Instant
        var stopping = false
        var serial = 0
        /// Addresses refused since they last held fewer than `perAddress`.
        var refusing: Set<String> = []
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

    /// Notes an accepted connection from `address` (its IP address; the admin socket's clients are all one), or
    /// refuses it; a connection evicted to make room is closed here.
    func opened(_ channel: any Channel, from address: String) -> Admission {
        let (admission, evicted): (Admission, (any Channel)?) = state.withLock { state in
            var held: [String: Int] = [:]
            for connection in state.open.values { held[connection.address, default: 0] += 1 }
            if held[address, default: 0] >= Self.perAddress {
                let first = state.refusing.insert(address).inserted
                return (.refused(firstRefusal: first), nil)
            }
            var evicted: Connection?
            if state.open.count >= Self.total {
                // The busiest address gives up its oldest connection.
                let busiest = held.max { $0.value < $1.value }?.key
                evicted = state.open.values.filter { $0.address == busiest }.min { $0.serial < $1.serial }
                if let evicted { state.open[ObjectIdentifier(evicted.channel)] = nil }
            }
            state.serial += 1
            state.open[ObjectIdentifier(channel)] = Connection(channel: channel, address: address, serial: state.serial)
            return (.accepted, evicted?.channel)
        }
        evicted?.close(promise: nil)
        return admission
    }

    /// Notes that a connection ended.
    func closed(_ channel: any Channel, at now: ContinuousClock.Instant) {
        state.withLock { state in
            guard let connection = state.open.removeValue(forKey: ObjectIdentifier(channel)) else { return }
            if state.refusing.contains(connection.address),
               state.open.values.count(where: { $0.address == connection.address }) < Self.perAddress {
                state.refusing.remove(connection.address)
            }
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
            return state.listening + state.open.values.map(\.channel)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
    }
}
