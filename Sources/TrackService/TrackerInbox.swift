import NIOCore
import Synchronization
import TrackCore
import TrackInput

/// The tracker's one queue: the source's events, the commands and the tick, taken in the order they arrive.
///
/// One queue, not a merge of three. The source's events are never dropped; commands are bounded (a flood of control
/// requests is refused as busy); a tick is queued only when none is waiting, so a tracker that falls behind does not
/// pile them up.
///
/// A fix wakes the tracker only while `wakeForFixes` says so (someone watches fixes live); otherwise it waits in the
/// queue for the next item that does, the tick at the latest (a second), and the tracker takes the fixes of that
/// second in one go instead of waking ten times. Nothing is lost or reordered by the wait: the tick that commits the
/// log comes after the fixes that arrived before it, so a commit holds every fix received before it, as when each
/// fix woke the tracker (docs/benchmarks.md, "CPU"). State changes, input problems and commands always wake it.
///
/// Not an `AsyncStream`: the queue is ours and concrete, so handing a fix over costs a lock and, when the tracker
/// waits, one resume — the generic stream spent as much again in run-time metadata lookups per fix
/// (docs/benchmarks.md, "CPU").
public final class TrackerInbox: Sendable {
    /// One thing for the tracker to handle.
    public enum Item: Sendable {
        case source(SourceEvent)
        /// The OBD-II adapter's events, and which adapter trackd talks to.
        case obd(OBDInput)
        case command(EngineCommand)
        /// The one-second beat, with the time it was queued: what time alone decides is decided as of then, on the
        /// fixes received before it (a tracker that stalled takes a tick queued before the stall first, and must
        /// not read the fixes still behind it as missing).
        case tick(at: MonotonicInstant)
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
    /// Whether a fix must be handed to the tracker at once, asked as each fix arrives.
    private let wakeForFixes: @Sendable () -> Bool

    /// The items in order, for the one reader (the tracker).
    public var items: Items { Items(inbox: self) }

    /// An inbox whose fixes wake the tracker when `wakeForFixes` is true, and otherwise wait for the next item that
    /// does (the tick); every fix wakes it by default.
    public init(wakeForFixes: @escaping @Sendable () -> Bool = { true }) {
        self.wakeForFixes = wakeForFixes
    }

    /// Queues an event from the source.
    public func deliver(_ event: SourceEvent) {
        if case .fix = event {
            _ = push(.source(event), wakes: wakeForFixes())
        } else {
            _ = push(.source(event))
        }
    }

    /// Queues what the OBD-II service reports. A reading of the car waits, as a fix does, unless someone watches;
    /// everything else wakes the tracker.
    public func deliver(_ input: OBDInput) {
        if case .event(.dialogue(.reading)) = input {
            _ = push(.obd(input), wakes: wakeForFixes())
        } else {
            _ = push(.obd(input))
        }
    }

    /// Queues a command unless `commandLimit` are already waiting or the tracker has stopped.
    @discardableResult
    public func send(_ command: EngineCommand) -> Delivery {
        push(.command(command))
    }

    /// Queues a tick made at `now` unless one is waiting; false once the queue has ended.
    func tick(at now: MonotonicInstant) -> Bool {
        push(.tick(at: now)) != .closed
    }

    /// Ends the queue because the input ended by itself (the end of a recording, a source that cannot run): the
    /// tracker handles what is queued, closes the trip and returns, which ends the daemon.
    public func finish() {
        finish(stopping: false)
    }

    /// Ends the queue because trackd is stopping (the source was asked to stop): the tracker handles what is queued,
    /// closes the trip and then waits for its own turn in the stop (`DaemonServices`).
    public func finishForStop() {
        finish(stopping: true)
    }

    /// Whether the queue ended because trackd is stopping, rather than because the input ended; the first reason
    /// given counts.
    public var endedForStop: Bool { queue.withLock { $0.endedForStop } }

    private func finish(stopping: Bool) {
        let (waiter, first) = queue.withLock { queue -> (UnsafeContinuation<Item?, Never>?, Item?) in
            if !queue.finished { queue.endedForStop = stopping }
            queue.finished = true
            // Fixes that were waiting for a tick are still handed over.
            guard let waiter = queue.takeWaiter() else { return (nil, nil) }
            return (waiter, queue.take() ?? nil)
        }
        waiter?.resume(returning: first)
    }

    /// Whether the reader is waiting for an item (for tests).
    var readerIsWaiting: Bool { queue.withLock { $0.waiter != nil } }

    /// Queues `item` (within the limits of its kind) and, if it `wakes` and the tracker waits, hands the tracker the
    /// first item queued: `item` itself, or the fixes that were waiting for a wake before it.
    private func push(_ item: Item, wakes: Bool = true) -> Delivery {
        let (delivery, waiter, first) = queue.withLock {
            queue -> (Delivery, UnsafeContinuation<Item?, Never>?, Item?) in
            guard !queue.finished else { return (.closed, nil, nil) }
            if wakes, queue.buffer.isEmpty, let waiter = queue.takeWaiter() { return (.enqueued, waiter, item) }
            var queues = true
            switch item {
            case .source, .obd: break
            case .command:
                guard queue.commands < Self.commandLimit else { return (.busy, nil, nil) }
                queue.commands += 1
            case .tick:
                if queue.tickWaiting { queues = false } else { queue.tickWaiting = true }
            }
            if queues { queue.buffer.append(item) }
            guard wakes, let waiter = queue.takeWaiter() else { return (.enqueued, nil, nil) }
            return (.enqueued, waiter, queue.take() ?? nil)
        }
        waiter?.resume(returning: first)
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
        var endedForStop = false
        /// The tracker, waiting for the next item.
        var waiter: UnsafeContinuation<Item?, Never>?

        /// The first item (no longer counted as waiting); `.some(nil)` when the queue has ended and is empty; `nil`
        /// when the reader must wait.
        mutating func take() -> Item?? {
            guard let item = buffer.popFirst() else { return finished ? .some(nil) : nil }
            switch item {
            case .source, .obd: break
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
