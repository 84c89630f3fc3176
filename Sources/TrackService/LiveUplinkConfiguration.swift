import Synchronization
import TrackCore

/// The `uplink:` section as trackd runs with it now, with the broker's password read from its file: written at the
/// start and by a reload (`ReloadService`), read by the uplinks at each connection and each step. A reload that
/// changes it makes the MQTT uplink connect again with the new settings.
public final class LiveUplinkConfiguration: Sendable {
    /// The settings and the password, and how many times they changed.
    public struct Values: Sendable, Hashable {
        public var configuration: UplinkConfiguration
        public var password: String?
        /// The car's name on the wire (`configuration.device`, else the host's name).
        public var device: String
        public var generation = 0

        public init(configuration: UplinkConfiguration, password: String?, device: String) {
            self.configuration = configuration
            self.password = password
            self.device = device
        }
    }

    private let current: Mutex<Values>
    /// The machine's host name: the car's name when the configuration gives none.
    public let host: String

    public init(configuration: UplinkConfiguration, password: String?, host: String) {
        self.host = host
        current = Mutex(Values(configuration: configuration, password: password, device: configuration.deviceName(host: host)))
    }

    /// The settings now.
    public var values: Values {
        current.withLock { $0 }
    }

    /// Replaces the settings (a reload); the uplinks take them at their next step.
    public func update(configuration: UplinkConfiguration, password: String?) {
        current.withLock { values in
            let generation = values.generation + 1
            values = Values(configuration: configuration, password: password, device: configuration.deviceName(host: host))
            values.generation = generation
        }
    }
}
