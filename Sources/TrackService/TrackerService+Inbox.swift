import TrackCore
import TrackInput

/// The inbox's items, in order: the source's events, the commands and the ticks, each to its handler.
extension TrackerService {
    /// Handles the inbox's items in order until it ends.
    func handleInbox(_ state: inout State) async {
        for await input in inbox.items {
            switch input {
            case .tick(let queuedAt):
                await handleTick(&state, at: queuedAt)
            case .command(.request(let request, let user, let reply)):
                reply.send(await carryOut(request, user: user, in: &state))
                await refreshOdometer(state)
            case .command(.settle(let reply)):
                do {
                    try await state.recorder?.settlePointFile()
                    reply.send(.success(true))
                } catch {
                    reply.send(.success(false))
                }
            case .command(.reconfigure(let configuration)):
                await apply(.reconfigure(configuration), to: &state)
            case .command(.privacy(let policy, let profile)):
                state.recorder?.privacy = policy
                state.recorder?.profileDefaults = profile
            case .source(.fix(let fix, let receivedAt)):
                await handleFix(fix, receivedAt: receivedAt, in: &state)
            case .source(.state(let sourceState)):
                await handleSourceState(sourceState, in: &state)
            case .source(.problem(let diagnostic)):
                handleProblem(diagnostic, in: &state)
            case .source(.chosen(let chosen, let reason)):
                handleChoice(chosen, reason: reason)
            case .obd(let obd):
                await handleOBD(obd, in: &state)
            }
            // Not after every fix or reading (10 a second at most): the tick, a second later at most, publishes what
            // they changed.
            switch input {
            case .source(.fix), .obd: break
            default: publishStorage(state)
            }
            heartbeat?.beat(at: clock())
        }
    }
}
