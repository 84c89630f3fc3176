import Synchronization

/// The alert command and its timeout, as the configuration says now (a reload changes them while trackd runs).
public final class AlertSettings: Sendable {
    /// A program and its arguments; empty for none.
    public struct Values: Sendable, Hashable {
        public var command: [String]
        /// Seconds before the program is stopped.
        public var timeout: Double

        public init(command: [String], timeout: Double) {
            self.command = command
            self.timeout = timeout
        }
    }

    private let current: Mutex<Values>

    public init(_ values: Values) {
        current = Mutex(values)
    }

    /// The settings now.
    public var values: Values {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
