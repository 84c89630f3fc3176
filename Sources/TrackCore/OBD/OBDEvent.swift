/// What the conversation with an ELM327 adapter found out, in the order it happened.
public enum OBDEvent: Sendable, Hashable {
    /// The adapter answered the reset with its name and version (`ELM327 v1.5`; clones often claim a version
    /// they do not implement).
    case adapter(String)
    /// A car answered: the mode 01 PIDs 01–20 it supports.
    case carAnswered(supported: Set<UInt8>)
    /// The protocol the adapter found (`AUTO, ISO 15765-4 (CAN 11/500)`).
    case protocolName(String)
    /// The car's vehicle identification number.
    case vin(String)
    /// The car gave no VIN (older cars, or mode 09 not answered), and why.
    case vinUnavailable(String)
    /// Whether the car reports its odometer (mode 01 PID A6).
    case odometerSupport(Bool)
    /// A reading from the car, stamped with the moment its answer arrived.
    case reading(OBDReading, at: MonotonicInstant)
    /// The battery voltage at the socket, read by the adapter itself.
    case voltage(Double)
    /// The car stopped answering (ignition off, a bus error), and why; it is asked for again now and then.
    case carSilent(String)
    /// One command got no usable answer (a timeout, noise, a setting a clone lacks); the dialogue goes on.
    case unanswered(String)
    /// The adapter stopped answering altogether; the link is to be opened again and the dialogue restarted.
    case adapterLost(String)
}
