import NIOCore
import Synchronization
import TrackInput

/// The tracker's one queue: the source's events, the commands and the tick, taken in the order they arrive.
///
/// One queue, not a merge of three: each fix wakes the tracker once. The source's events are never dropped; commands
/// are bounded (a flood of control requests is refused as busy); a tick is queued only when none is waiting, so a
/// tracker that falls behind does not pile them up.
///
/// Not an `AsyncStream`: the queue is ours and concrete, so handing a fix over costs a lock and, when the tracker
/// waits, one resume — the generic stream spent as much again in run-time metadata lookups per fix
/// (docs/benchmarks.md, "CPU").
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

    private let queue = Mutex(Queue())

    /// The items in order, for the one reader (the tracker).
    public var items: Items { Items(inbox: self) }

    public init() {}

    /// Queues an event from the source.
    public func deliver(_ event: SourceEvent) {
        _ = push(.source(event))
    }

    /// Queues a command unless `commandLimit` are already waiting or the tracker has stopped.
    @discardableResult
    public func send(_ command: EngineCommand) -> Delivery {
        push(.command(command))
    }

    /// Queues a tick unless one is waiting; false once the queue has ended.
    func tick() -> Bool {
        push(.tick) != .closed
    }

    /// Ends the queue (the source has ended): the tracker handles what is queued, then stops.
    public func finish() {
        let waiter = queue.withLock { queue in
            queue.finished = true
            return queue.takeWaiter()
        }
        waiter?.resume(returning: nil)
    }

    /// Whether the reader is waiting for an item (for tests).
    var readerIsWaiting: Bool { queue.withLock { $0.waiter != nil } }

    /// Hands `item` to a waiting tracker, or queues it (within the limits of its kind).
    private func push(_ item: Item) -> Delivery {
        let (delivery, waiter) = queue.withLock { queue -> (Delivery, UnsafeContinuation<Item?, Never>?) in
            guard !queue.finished else { return (.closed, nil) }
            if let waiter = queue.takeWaiter() { return (.enqueued, waiter) }
            switch item {
            case .source: break
            case .command:
                guard queue.commands < Self.commandLimit else { return (.busy, nil) }
                queue.commands += 1
            case .tick:
                guard !queue.tickWaiting else { return (.enqueued, nil) }
                queue.tickWaiting = true
            }
            queue.buffer.append(item)
            return (.enqueued, nil)
        }
        waiter?.resume(returning: item)
        return delivery
    }

    /// The next item, waiting for one; `nil` once the queue has ended and is empty, or the task is cancelled.
    func next() async -> Item? {
        if let ready = queue.withLock({ $0.take() }) { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Item?, Never>) in
                let ready = queue.withLock { queue -> Item?? in
                    if let ready = queue.take() { return ready }
                    if Task.isCancelled { return .some(nil) }
                    queue.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            queue.withLock { $0.takeWaiter() }?.resume(returning: nil)
        }
    }

    /// The queue's state, behind the lock.
    private struct Queue {
        var buffer = CircularBuffer<Item>(initialCapacity: 16)
        var commands = 0
        var tickWaiting = false
        var finished = false
        /// The tracker, waiting for the next item.
        var waiter: UnsafeContinuation<Item?, Never>?

        /// The first item (no longer counted as waiting); `.some(nil)` when the queue has ended and is empty; `nil`
        /// when the reader must wait.
        mutating func take() -> Item?? {
            guard let item = buffer.popFirst() else { return finished ? .some(nil) : nil }
            switch item {
            case .source: break
            case .command: commands -= 1
            case .tick: tickWaiting = false
            }
            return item
        }

        mutating func takeWaiter() -> UnsafeContinuation<Item?, Never>? {
            defer { waiter = nil }
            return waiter
        }
    }

    /// The inbox's items as an asynchronous sequence.
    public struct Items: AsyncSequence, Sendable {
        public typealias Element = Item
        let inbox: TrackerInbox

        public func makeAsyncIterator() -> Iterator { Iterator(inbox: inbox) }

        public struct Iterator: AsyncIteratorProtocol {
            let inbox: TrackerInbox

            public mutating func next() async -> Item? { await inbox.next() }
        }
    }
}
