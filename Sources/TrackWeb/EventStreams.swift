import Synchronization

/// The page's live event streams (`/api/events`), each holding one of trackd's control connections: at most
/// `perDevice` for one device, where a newer one ends the device's oldest (a phone that reloads the page or opens it
/// twice keeps its newest), and at most `total` in all, beyond which a new one is refused. trackd serves 32
/// watchers of its 64 connections (`ControlServer.Limits`), so the page can never take the connections trackctl and
/// the page's own buttons need.
final class EventStreams: Sendable {
    /// Streams one device may hold.
    static let perDevice = 4
    /// Streams of all devices together.
    static let total = 16

    /// An open stream: told once when a newer stream of its device ends it.
    struct Ticket: Sendable {
        let id: Int
        let superseded: AsyncStream<Void>
    }

    private struct Open {
        let id: Int
        let device: Int64
        let superseded: AsyncStream<Void>.Continuation
    }

    private struct State {
        var open: [Open] = []
        var nextID = 0
    }

    private let state = Mutex(State())

    /// A new stream for `device`, ending its oldest when it holds `perDevice` already; `nil` when `total` streams are
    /// open and none of them is the device's.
    func open(device: Int64) -> Ticket? {
        let (superseded, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let opened: (id: Int, ending: Open?)? = state.withLock { state in
            let oldest = state.open.first { $0.device == device }
            let mine = state.open.count { $0.device == device }
            var ending: Open?
            if let oldest, mine >= Self.perDevice || state.open.count >= Self.total {
                ending = oldest
                state.open.removeAll { $0.id == oldest.id }
            } else if state.open.count >= Self.total {
                return nil
            }
            state.nextID += 1
            state.open.append(Open(id: state.nextID, device: device, superseded: continuation))
            return (state.nextID, ending)
        }
        guard let opened else { return nil }
        opened.ending?.superseded.yield()
        opened.ending?.superseded.finish()
        return Ticket(id: opened.id, superseded: superseded)
    }

    /// Forgets stream `id` (it ended).
    func close(_ id: Int) {
        let closing = state.withLock { state -> Open? in
            guard let index = state.open.firstIndex(where: { $0.id == id }) else { return nil }
            return state.open.remove(at: index)
        }
        closing?.superseded.finish()
    }
}
