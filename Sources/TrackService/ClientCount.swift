import Synchronization

/// Counts connected clients against the limit.
final class ClientCount: Sendable {
    private let count = Atomic<Int>(0)

    func enter(limit: Int) -> Bool {
        if count.add(1, ordering: .relaxed).newValue > limit {
            count.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func leave() {
        count.subtract(1, ordering: .relaxed)
    }
}
