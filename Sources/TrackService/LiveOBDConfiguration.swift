import Synchronization
import TrackConfig

/// The `obd:` section as trackd runs with it now: set at the start, replaced by a reload (`ReloadService`), taken
/// by `OBDService`, which lets go of the old adapter and talks to the new one.
public final class LiveOBDConfiguration: Sendable {
    private let current: Mutex<OBDConfiguration>
    private let continuation: AsyncStream<OBDConfiguration>.Continuation
    /// The settings each time a reload changed them; the newest only, for the one reader (`OBDService`).
    let changes: AsyncStream<OBDConfiguration>

    public init(_ configuration: OBDConfiguration) {
        current = Mutex(configuration)
        (changes, continuation) = AsyncStream.makeStream(of: OBDConfiguration.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The settings now.
    public var configuration: OBDConfiguration { current.withLock { $0 } }

    /// Replaces the settings (a reload); nothing happens when they are the same.
    public func update(_ configuration: OBDConfiguration) {
        let changed = current.withLock { old in
            defer { old = configuration }
            return old != configuration
        }
        if changed { continuation.yield(configuration) }
    }
}
