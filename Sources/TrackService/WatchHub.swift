import Synchronization
import TrackCore

/// Hands live events to every watcher without ever waiting for one: each watcher has a bounded buffer that keeps
/// the newest events; the oldest are dropped and counted, so that a slow or stuck client never delays fix
/// processing, and the count, told before the next event the watcher gets, stands exactly where the gap is.
public final class WatchHub: Sendable {
    /// What a watcher receives.
    public enum Event: Sendable {
        case fix(Fix)
        case source(SourceStatus)
        case trip(TripNotice)
        case alert(IdleAlert)
        /// The OBD-II adapter and its car, at each change (a reading, the link, the engine).
        case obd(OBDStatus)

        /// The kind of event, for a watcher's interests.
        var kind: Kinds {
            switch self {
            case .fix: .fixes
            case .source, .obd: .sources
            case .trip: .trips
            case .alert: .alerts
            }
        }
    }

    /// Kinds of events a watcher wants: one that wants no fixes is not woken ten times a second for nothing.
    public struct Kinds: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let fixes = Kinds(rawValue: 1 << 0)
        public static let sources = Kinds(rawValue: 1 << 1)
        public static let trips = Kinds(rawValue: 1 << 2)
        public static let alerts = Kinds(rawValue: 1 << 3)
        public static let all: Kinds = [.fixes, .sources, .trips, .alerts]
    }

    private struct Watcher {
        var continuation: AsyncStream<Event>.Continuation
        var wants: Kinds
        var dropped = 0
    }

    private let watchers = Mutex<[Int: Watcher]>([:])
    private let nextID = Atomic<Int>(1)
    /// Watchers that want fixes, for `wantsFixes`.
    private let fixWatchers = Atomic<Int>(0)
    /// Events held for a watcher that has not read them yet.
    public let bufferSize: Int

    public init(bufferSize: Int = 256) {
        self.bufferSize = bufferSize
    }

    /// A new watcher of the events of the kinds it `wants`: its id and its stream of events. Call `unsubscribe` when
    /// done.
    public func subscribe(to wants: Kinds = .all) -> (id: Int, events: AsyncStream<Event>) {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(bufferSize))
        watchers.withLock { watchers in
            watchers[id] = Watcher(continuation: continuation, wants: wants)
            if wants.contains(.fixes) { fixWatchers.add(1, ordering: .relaxed) }
        }
        return (id, stream)
    }

    /// Ends a watcher's stream.
    public func unsubscribe(_ id: Int) {
        let watcher = watchers.withLock { watchers in
            let watcher = watchers.removeValue(forKey: id)
            if watcher?.wants.contains(.fixes) == true { fixWatchers.subtract(1, ordering: .relaxed) }
            return watcher
        }
        watcher?.continuation.finish()
    }

    /// Offers an event to every watcher that wants its kind; never blocks.
    public func publish(_ event: Event) {
        let kind = event.kind
        watchers.withLock { watchers in
            for (id, watcher) in watchers where watcher.wants.contains(kind) {
                if case .dropped = watcher.continuation.yield(event) {
                    watchers[id]?.dropped += 1
                }
            }
        }
    }

    /// How many events were dropped for a watcher since the last call (and resets the count).
    public func takeDropped(_ id: Int) -> Int {
        watchers.withLock { watchers in
            let dropped = watchers[id]?.dropped ?? 0
            watchers[id]?.dropped = 0
            return dropped
        }
    }

    /// Ends every watcher's stream (shutdown).
    public func finishAll() {
        let all = watchers.withLock { watchers in
            defer { watchers.removeAll() }
            fixWatchers.store(0, ordering: .relaxed)
            return Array(watchers.values)
        }
        for watcher in all { watcher.continuation.finish() }
    }

    /// Whether a connected watcher wants fixes (then each fix should reach the tracker, and the watcher, at once).
    public var wantsFixes: Bool { fixWatchers.load(ordering: .relaxed) > 0 }

    /// Watchers connected now.
    public var count: Int { watchers.withLock { $0.count } }
}
