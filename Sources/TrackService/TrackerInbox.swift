import Synchronization
import TrackInput

/// The tracker's one queue: the source's events, the commands and the tick, taken in the order they arrive.
///
/// One queue, not a merge of three: each fix wakes the tracker once. The source's events are never dropped; commands
/// are bounded (a flood of control requests is refused as busy); a tick is queued only when none is waiting, so a
/// tracker that falls behind does not pile them up.
public final class TrackerInbox: Sendable {
    /// One thing for the tracker to handle.
    public enum Item: Sendable {
        case source(SourceEvent)
        case command(EngineCommand)
        case tick
    }

    /// What became of a command handed to the tracker.
    public enum Delivery: Sendable, Equatable {
        case enqueued
        /// `commandLimit` commands are already waiting.
        case busy
        /// The tracker has stopped taking input (shutdown).
        case closed
    }

    /// The most commands waiting at once; each control client waits for its answer, so only a flood reaches it.
    public static let commandLimit = 64

    /// What the tracker reads; one reader only.
    public let items: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let waiting = Mutex(Waiting())

    /// What is queued but not yet taken, of the kinds that are bounded.
    private struct Waiting {
        var commands = 0
        var tick = false
    }

    public init() {
        (items, continuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .unbounded)
    }

    /// Queues an event from the source.
    public func deliver(_ event: SourceEvent) {
        continuation.yield(.source(event))
    }

    /// Queues a command unless `commandLimit` are already waiting or the tracker has stopped.
    @discardableResult
    public func send(_ command: EngineCommand) -> Delivery {
        let admitted = waiting.withLock { waiting in
            guard waiting.commands < Self.commandLimit else { return false }
            waiting.commands += 1
            return true
        }
        guard admitted else { return .busy }
        if case .terminated = continuation.yield(.command(command)) {
            waiting.withLock { $0.commands -= 1 }
            return .closed
        }
        return .enqueued
    }

    /// Queues a tick unless one is waiting; false once the queue has ended.
    func tick() -> Bool {
        let queue = waiting.withLock { waiting in
            guard !waiting.tick else { return false }
            waiting.tick = true
            return true
        }
        guard queue else { return true }
        if case .terminated = continuation.yield(.tick) { return false }
        return true
    }

    /// The tracker took `item`: it no longer counts as waiting.
    func taken(_ item: Item) {
        switch item {
        case .source: break
        case .command: waiting.withLock { $0.commands -= 1 }
        case .tick: waiting.withLock { $0.tick = false }
        }
    }

    /// Ends the queue (the source has ended): the tracker handles what is queued, then stops.
    public func finish() {
        continuation.finish()
    }
}
