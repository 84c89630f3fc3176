import Foundation

/// Runs async work to its end from synchronous code (a fuzz target's callback), blocking the calling thread.
///
/// The caller must not be on a thread of Swift's cooperative pool; libFuzzer calls its target on the main thread.
public func blocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let done = DispatchSemaphore(value: 0)
    let box = ValueBox<Value>()
    Task {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// Carries a value from a task to the thread that waits for it (the semaphore orders the accesses).
private final class ValueBox<Value>: @unchecked Sendable {
    var value: Value?
}
