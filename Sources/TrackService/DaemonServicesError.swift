/// A daemon service broke the shutdown rule (`DaemonServices`): a defect of trackd, never of its input.
public enum DaemonServicesError: Error, CustomStringConvertible, Equatable {
    /// The service returned before the group asked it to stop.
    case endedBeforeAsked(service: String)

    public var description: String {
        switch self {
        case .endedBeforeAsked(let service):
            "the \(service) service ended before trackd was stopping (a defect: please report it); trackd stopped in order"
        }
    }
}
