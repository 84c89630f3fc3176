#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The control socket cannot be set up.
public enum ControlServerError: Error, CustomStringConvertible {
    case pathInUse(String, String)
    /// A step of setting the socket's mode failed: the step and the errno.
    case cannotSecure(String, String, Int32)
    /// The socket's mode or group is not what was set.
    case insecure(String, String)
    /// The listening socket stopped accepting clients while trackd was not stopping: why.
    case stoppedAccepting(String)

    /// Whether the socket failed while it served (it is made again), rather than could not be set up (fatal).
    var isAcceptingFailure: Bool {
        if case .stoppedAccepting = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .pathInUse(let path, let why): "cannot use \(path) for the control socket: \(why)"
        case .cannotSecure(let path, let step, let error):
            "cannot \(step) of the control socket \(path): \(String(cString: strerror(error))); trackd does not serve a "
                + "socket others might reach"
        case .insecure(let path, let what):
            "the control socket \(path) is not as trackd set it: \(what); trackd does not serve it"
        case .stoppedAccepting(let why):
            "the control socket stopped taking clients: \(why)"
        }
    }
}
