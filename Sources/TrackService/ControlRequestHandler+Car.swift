import ControlSocket
import TrackCore
import TrackStore

/// The car and its driver: the odometer and its calibration, the profile, erasure.
extension ControlRequestHandler {
    /// Answers a method of the odometer, the profile or erasure.
    func car(_ call: Call, peer: PeerCredentials?, session: ControlSession) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.method {
        case .odometer:
            await read(call, NoParams.self) { log, _ in try await log.odometerStatus() }
        case .odometerSet:
            await change(call, OdometerParams.self, peer: peer, session: session) { .odometer($0) }
        case .odometerCalibrate:
            await change(call, CalibrateParams.self, peer: peer, session: session, optional: CalibrateParams()) {
                .calibrate($0)
            }
        case .profile:
            await read(call, NoParams.self) { log, _ in try await log.profile() }
        case .profileSet:
            await change(call, ProfileParams.self, peer: peer, session: session) { .profile($0) }
        case .erase:
            await change(call, EraseParams.self, peer: peer, session: session) { .erase($0) }
        default:
            .failure(.methodNotFound(call.method.rawValue))
        }
    }
}
