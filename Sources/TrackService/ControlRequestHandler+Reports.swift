import ControlSocket
import TrackCore
import TrackStore

/// Reports and the log's soundness: exports, the hash chain, a tax office's questions, the month mailed or copied.
extension ControlRequestHandler {
    /// Answers a method of the reports.
    func reports(_ call: Call, peer: PeerCredentials?, session: ControlSession) async -> Result<any Encodable & Sendable, RPCError> {
        switch call.method {
        case .export:
            await read(call, TripsParams.self, settling: true) { log, params in
                try await log.report(params ?? TripsParams(), now: now(), generator: "trackd \(TrackVersion.string)")
            }
        case .verify:
            await read(call, NoParams.self, settling: true) { log, _ in try await log.verify() }
        case .check:
            await read(call, TripsParams.self, settling: true) { log, params in
                try await log.check(params ?? TripsParams(), now: now())
            }
        case .reportMailed:
            await change(call, ReportMailing.self, peer: peer, session: session) { .recordMailing($0) }
        case .reportMail:
            await mail(call, peer: peer)
        case .reportCopied:
            await change(call, StickCopy.self, peer: peer, session: session) { .recordStickCopy($0) }
        default:
            .failure(.methodNotFound(call.method.rawValue))
        }
    }

    /// `report.mail`: the month's report sent now to trackd.conf's `mail.to` and recorded (trigger `manual`), as the
    /// monthly mailer sends it; msmtp's reason when the server did not take it (nothing recorded then).
    private func mail(_ call: Call, peer: PeerCredentials?) async -> Result<any Encodable & Sendable, RPCError> {
        if let refusal = access.refusal(for: peer) { return .failure(.forbidden(refusal)) }
        let params: ReportMailParams
        switch call.params(ReportMailParams.self, required: #"{"month": "2026-11"}"#) {
        case .failure(let error): return .failure(error)
        case .success(let value): params = value
        }
        let month: CivilDate
        do {
            month = try params.firstDay()
        } catch {
            return .failure(.invalidParams(call.method.rawValue, "\(error)"))
        }
        guard let mailer else {
            return .failure(.refused("no e-mail is configured: name who gets the month's report with 'to:' in the mail: "
                                     + "section of trackd.conf (docs/mail.md), then restart trackd"))
        }
        await settle()
        do throws(ReportMailError) {
            return .success(try await mailer.send(month: month, trigger: .manual))
        } catch {
            switch error {
            case .log(let cause): return .failure(RPCError(logFailure: cause))
            case .notRecorded: return .failure(.storage(error.description))
            case .render, .send: return .failure(.refused("the report of \(params.month) was not sent: \(error)"))
            }
        }
    }
}
