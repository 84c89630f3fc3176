import Logging
import TrackCore
import TrackInput

/// What the source sends: fixes into the engine and the live status, its state and its problems into the journal.
extension TrackerService {
    /// A fix: to the live status and the watchers, the journal when the position comes or goes, then the engine.
    func handleFix(_ fix: Fix, receivedAt: MonotonicInstant, in state: inout State) async {
        status.record(fix, at: receivedAt)
        hub.publish(.fix(fix))
        if fix.hasPosition != state.hadPosition {
            state.hadPosition = fix.hasPosition
            if state.hadPosition {
                logger.info("fix acquired", metadata: fix.logMetadata())
            } else {
                logger.notice("fix lost", metadata: fix.logMetadata())
            }
        }
        logger.trace("fix", metadata: fix.logMetadata(withPosition: true))
        await recover(at: fix, receivedAt: receivedAt, in: &state)
        await apply(.fix(fix, receivedAt: receivedAt), to: &state)
        if state.engine.isMoving { await startBootTripWhenDecided(&state) }
    }

    /// The source connected, was lost or ended: the live status, the watchers, the journal; a loss goes in the log.
    func handleSourceState(_ sourceState: SourceState, in state: inout State) async {
        let report = status.record(source: SourceStatus(sourceState, address: address), at: clock())
        hub.publish(.source(report))
        switch sourceState {
        case .lost(let reason):
            logger.warning("source lost", metadata: ["source": "\(address)", "reason": "\(report.detail)",
                                                      "message_id": "\(LogMessageID.sourceLost)"])
            await state.recorder?.sourceLost(reason, at: status.lastGPSTime()?.time)
        case .connected: logger.notice("source connected", metadata: ["source": "\(address)", "detail": "\(report.detail)",
                                                                      "message_id": "\(LogMessageID.sourceConnected)"])
        case .connecting: logger.info("source connecting", metadata: ["source": "\(address)"])
        case .ended: logger.notice("source ended", metadata: ["source": "\(address)"])
        }
    }

    /// `auto` found the receiver: the live status, the watchers and the journal say which and why.
    func handleChoice(_ chosen: SourceAddress, reason: String) {
        let report = status.record(chosen: "\(chosen)", reason: reason)
        hub.publish(.source(report))
        logger.notice("receiver found", metadata: ["source": "\(address)", "chosen": "\(chosen)", "reason": "\(reason)"])
    }

    /// Input the source dropped: counted, and told to the journal at most once a minute.
    func handleProblem(_ diagnostic: NMEADiagnostic, in state: inout State) {
        status.recordProblem()
        if let summary = state.problems.note(diagnostic, at: clock()) {
            logger.warning("input dropped", metadata: ["detail": "\(summary)"])
        }
    }
}
