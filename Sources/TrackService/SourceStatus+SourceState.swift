import TrackCore
import TrackInput

extension SourceStatus {
    /// The protocol's view of a source state.
    init(_ state: SourceState, address: String) {
        switch state {
        case .connecting: self.init(address: address, state: .connecting, detail: "connecting")
        case .connected(let detail): self.init(address: address, state: .connected, detail: detail)
        case .lost(let reason): self.init(address: address, state: .lost, detail: reason)
        case .ended: self.init(address: address, state: .ended, detail: "end of recording")
        }
    }
}
