/// Why the broker's client cannot do what was asked, in words a person can act on.
public enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libmosquitto could not be set up (out of memory, a bad option).
    case setup(String)
    /// A TLS file cannot be used (missing, unreadable, not a certificate or key).
    case tls(file: String?, reason: String)
    /// The connection could not be started (a name that does not resolve, nothing listening).
    case connect(broker: String, reason: String)
    /// A message could not be handed over (no connection, too large).
    case publish(reason: String)

    public var description: String {
        switch self {
        case .setup(let reason): "cannot set up the MQTT client: \(reason)"
        case .tls(let file?, let reason): "cannot use \(file) for TLS: \(reason)"
        case .tls(nil, let reason): "cannot set up TLS: \(reason)"
        case .connect(let broker, let reason): "cannot connect to \(broker): \(reason)"
        case .publish(let reason): "cannot publish: \(reason)"
        }
    }
}
