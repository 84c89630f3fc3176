import ArgumentParser
import ControlSocket
import NIOCore
import TrackCore
import TrackctlTexts

/// `trackctl watch`: live fixes and source changes as they happen.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow trackd live: every fix and every change of the source, until Ctrl-C.")

    @ParentCommand var trackctl: TrackControl

    private var connection: ConnectionOptions { trackctl.connection }

    func run() async throws {
        let json = connection.json
        let unit = json ? .kilometres : try await LogAccess.unit(connection)
        try await ControlCall.run(connection) { connection in
            _ = try await connection.call(.watch, params: NoParams(), result: WatchResult.self)
            while let line = try await connection.receive() {
                if json {
                    printLine(String(buffer: line))
                } else if let text = WatchCommand.describe(line, unit: unit) {
                    printLine(text)
                }
            }
        }
    }

    /// One readable line per notification, distances and speeds in `unit`.
    static func describe(_ line: ByteBuffer, unit: DistanceUnit) -> String? {
        guard let envelope = try? JSONLines.decode(RPCEnvelope.self, from: line), let method = envelope.method else {
            return nil
        }
        switch method {
        case "fix":
            guard let fix = try? JSONLines.decode(RPCNotification<Fix>.self, from: line).params else { return nil }
            let time = fix.time?.iso8601(fractionDigits: 0) ?? t("(no date yet)")
            guard fix.hasPosition else { return "\(time)  \(Format.fixSummary(fix))" }
            return "\(time)  \(Format.position(fix))  \(Format.speed(fix, unit: unit))  \(Format.fixSummary(fix))"
        case "source":
            guard let source = try? JSONLines.decode(RPCNotification<SourceStatus>.self, from: line).params else {
                return nil
            }
            return t("source \(StatusCommand.word(source.state)): \(source.detail)")
        case "trip":
            guard let notice = try? JSONLines.decode(RPCNotification<TripNotice>.self, from: line).params else { return nil }
            let trip = notice.trip
            let kind = Words.kind(trip.kind)
            var text = switch notice.change {
            case .started: t("trip \(trip.number) started: \(kind)")
            case .resumed: t("trip \(trip.number) resumed: \(kind)")
            case .ended: t("trip \(trip.number) ended: \(kind)")
            }
            if let purpose = trip.purpose, !purpose.isEmpty { text += " (\(purpose))" }
            if notice.change == .ended { text += ", \(Format.distance(trip.distance, unit: unit))" }
            return text
        case "alert":
            guard let alert = try? JSONLines.decode(RPCNotification<IdleAlert>.self, from: line).params else { return nil }
            return t("ALERT trip \(alert.tripNumber): stationary since \(alert.stationarySince.iso8601(fractionDigits: 0))")
        case "obd":
            guard let obd = try? JSONLines.decode(RPCNotification<OBDStatus>.self, from: line).params else { return nil }
            var rows = StatusRows()
            StatusCommand.describe(obd, unit: unit, into: &rows)
            return rows.rows.map { "\($0.label.text) \($0.text)".oneLine }.joined(separator: " · ")
        case "lagged":
            let dropped = (try? JSONLines.decode(RPCNotification<LaggedParams>.self, from: line).params.dropped) ?? 0
            return t("(this terminal fell behind: \(dropped) events skipped)")
        default:
            return nil
        }
    }
}
