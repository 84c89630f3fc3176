extension SerialPortError {
    /// Why a port being looked at for a device (a receiver, an adapter) is none, in words that stay the same while
    /// nothing changes: "not present", "in use by another program", ...
    var finding: String {
        switch self {
        case .notPresent, .vanished: "not present"
        case .inUse: "in use by another program"
        case .permissionDenied: "no permission to open it"
        case .notATerminal: "not a serial device"
        case .unsupportedBaud, .cannotOpen: description
        }
    }
}
