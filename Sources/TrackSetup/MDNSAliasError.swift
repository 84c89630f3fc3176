#if canImport(Glibc)
import Glibc
#endif

/// Why the board's second mDNS name could not be published or held.
public enum MDNSAliasError: Error, Sendable, CustomStringConvertible {
    /// The network interface is not there (the radio is missing).
    case noInterface(String, Int32)
    /// The system bus failed a step: the step and the errno.
    case bus(String, Int32)
    /// avahi-daemon refused a step, in its own words (not running: "The name org.freedesktop.Avahi was not provided").
    case avahi(String, String)
    /// Another host on the network answers to the name.
    case collision(String)
    /// avahi gave the name up.
    case failed(String)

    public var description: String {
        switch self {
        case .noInterface(let name, let errno): "no network interface \(name): \(String(cString: strerror(errno)))"
        case .bus(let step, let errno): "\(step): the system bus failed: \(String(cString: strerror(errno)))"
        case .avahi(let step, let said): "\(step): avahi-daemon says: \(said)"
        case .collision(let name): "another host on the network answers to \(name)"
        case .failed(let name): "avahi gave \(name) up"
        }
    }
}
