import ControlSocket
import TrackCore
import TrackStore

/// Classification rules: the list, the suggestions, changes, and confirming what they made of trips.
extension ControlRequestHandler {
    /// Answers a method of the rules.
    func rules(_ call: Call, peer: PeerCredentials?, session: ControlSession) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.method {
        case .ruleList:
            await read(call, NoParams.self) { log, _ in try await log.rules() }
        case .ruleSuggest:
            await read(call, NoParams.self) { log, _ in try await log.ruleSuggestions() }
        case .ruleAdd:
            await change(call, RuleAddParams.self, peer: peer, session: session) { .addRule($0) }
        case .ruleEdit:
            await change(call, RuleEditParams.self, peer: peer, session: session) { .editRule($0) }
        case .ruleDelete:
            await change(call, RuleDeleteParams.self, peer: peer, session: session) { .deleteRule($0) }
        case .confirm:
            await change(call, ConfirmParams.self, peer: peer, session: session) { .confirm($0) }
        default:
            .failure(.methodNotFound(call.method.rawValue))
        }
    }
}
