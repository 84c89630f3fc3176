import TrackCore
import TrackStore

extension RPCError {
    /// The protocol's error for a failure of the log.
    init(logFailure error: any Error) {
        self = switch error {
        case let error as RPCError: error
        case StoreError.unknownTrip: .unknownTrip("\(error)")
        case StoreError.invalid, StoreError.reasonRequired, StoreError.readOnly, StoreError.retained: .refused("\(error)")
        default: .storage("\(error)")
        }
    }
}
