import ArgumentParser
import ControlSocket
import FoundationEssentials
import TrackCore
import TrackReports

/// `trackctl status`: the daemon's live state at a glance.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show what trackd is doing now: source, fix, position, speed.")

    @ParentCommand var trackctl: TrackControl

    private var connection: ConnectionOptions { trackctl.connection }

    func run() async throws {
        let status = try await ControlCall.run(connection) { connection in
            try await connection.call(.status, params: NoParams(), result: DaemonStatus.self)
        }
        if connection.json {
            print(try ControlCall.json(status))
        } else {
            let profile = try? await LogAccess.profile(connection)
            var text = StatusCommand.describe(status, unit: profile?.distanceUnit ?? .kilometres)
            if let profile, let line = Self.ratesLine(profile: profile, status: status) { text += "\n" + line }
            print(text)
        }
    }

    /// With a country in the profile and no own rate: a line when today (the last fix's day, else this machine's)
    /// lies past the last day the country's allowance rates are known to hold for, so that trips driven now are paid
    /// at a rate that may have changed.
    static func ratesLine(profile: LogProfile, status: DaemonStatus) -> String? {
        guard let country = profile.country, profile.rate == nil, profile.paysAllowance else { return nil }
        let now = status.lastFix?.time ?? LogAccess.now()
        let today = (try? LocalCalendar(profile: profile))?.date(of: now) ?? now.date
        let table = LogAccess.rates()
        guard table.isUnconfirmed(country, on: today) else { return nil }
        let known = table.checked[country].map { "are known to hold only to \($0.through)" } ?? "are confirmed for no day"
        return "  rates    \(country.rawValue)'s allowance rates \(known): trips from then on are paid at the last rate "
            + "known (trackctl rates; a new rate goes in /etc/trackd/rates.d)"
    }

    /// The status for people, distances and speeds in `unit` (the profile's).
    static func describe(_ status: DaemonStatus, unit: DistanceUnit) -> String {
        var lines = ["\(status.version) · source \(status.source.address)"]
        let age = status.source.stateAge.map { " for \(DurationText.of($0))" } ?? ""
        lines.append("  source   \(status.source.state)\(age): \(status.source.detail)")
        if let chosen = status.source.chosen {
            lines.append("  receiver \(chosen)\(status.source.reason.map { ": \($0)" } ?? "")")
        }
        if let fix = status.lastFix {
            var line = "  fix      \(Format.fixSummary(fix))"
            if let seconds = status.lastFixAge { line += ", \(DurationText.of(seconds)) ago" }
            lines.append(line)
        } else {
            lines.append("  fix      none yet")
        }
        if let position = status.lastPosition {
            var line = "  position \(Format.position(position))"
            if let seconds = status.lastPositionAge, seconds >= 2 { line += " (\(DurationText.of(seconds)) ago)" }
            lines.append(line)
            lines.append("  speed    \(Format.speed(position, unit: unit))")
        }
        if let trip = status.trip {
            var line = "  trip     \(trip.number), \(trip.kind)"
            if let purpose = trip.purpose, !purpose.isEmpty { line += " (\(purpose))" }
            line += ": \(Format.distance(trip.distance, unit: unit))"
            if let duration = trip.duration { line += " in \(DurationText.of(duration))" }
            if let start = trip.start { line += " since \(start.iso8601(fractionDigits: 0))" } else { line += ", waiting for a fix" }
            lines.append(line)
        } else {
            lines.append("  trip     none running")
        }
        if let odometer = status.odometer {
            lines.append("  odometer " + unit.text(metres: odometer * 1000))
        }
        if let motion = status.motion, motion.state == .stationary, let since = motion.since {
            lines.append("  parked   since \(since.iso8601(fractionDigits: 0))")
        }
        if let alert = status.lastAlert {
            lines.append("  alert    idle at \(alert.time.iso8601(fractionDigits: 0)) (trip \(alert.tripNumber))")
        }
        if let storage = status.storage, !storage.isOK {
            let age = storage.stateAge.map { " for \(DurationText.of($0))" } ?? ""
            var line = "  storage  \(storage.state)\(age): \(storage.detail); \(storage.pendingPoints) track points"
            if storage.pendingRecords > 0 { line += " and \(storage.pendingRecords) records" }
            line += " kept in memory"
            if storage.droppedPoints > 0 { line += " (\(storage.droppedPoints) older points given up)" }
            lines.append(line)
        }
        for (name, uplink) in [("uplink  ", status.uplink), ("traccar ", status.osmand)] {
            guard let uplink else { continue }
            let age = uplink.stateAge.map { " for \(DurationText.of($0))" } ?? ""
            var line = "  \(name) \(uplink.state)\(age) to \(uplink.broker)"
            if let detail = uplink.detail { line += ": \(detail)" }
            line += "; backlog \(uplink.backlogPoints) points (\(uplink.backlogBytes) bytes)"
            if let last = uplink.lastAcknowledged {
                line += ", last acknowledged \(last)"
                if let time = uplink.lastAcknowledgedTime { line += " of \(time.iso8601(fractionDigits: 0))" }
            }
            lines.append(line)
        }
        if let obd = status.obd { lines += describe(obd, unit: unit) }
        if let mail = status.mail {
            lines.append("  mail     the month's report to \(mail.to.joined(separator: ", "))"
                         + (mail.monthly ? ", by itself after each month" : ", when asked"))
        }
        if let stick = status.stick { lines.append(describe(stick)) }
        lines.append("  received \(status.epochs) epochs, \(status.positionFixes) with a position; "
                     + "\(status.inputProblems) damaged sentences dropped")
        return lines.joined(separator: "\n")
    }
}

extension StatusCommand {
    /// The last copy to a USB stick: "stick    last copy 2026-11-29 14:02:11 UTC to TRACKD (vfat), trackd/AB-123:
    /// 3 files written, 6 unchanged" — or what stopped it.
    static func describe(_ copy: StickCopy) -> String {
        let stick = copy.label.isEmpty ? "a stick without a label" : copy.label
        var line = "  stick    last copy \(copy.time.iso8601(fractionDigits: 0)) to \(stick)"
        if !copy.filesystem.isEmpty { line += " (\(copy.filesystem))" }
        if !copy.folder.isEmpty { line += ", \(copy.folder)" }
        line += ": \(copy.written) file\(copy.written == 1 ? "" : "s") written, \(copy.unchanged) unchanged"
        if copy.removed > 0 { line += ", \(copy.removed) removed" }
        if let problem = copy.problem { line += "; NOT FINISHED: \(problem)" }
        return line
    }

    /// The adapter's line, what `auto` found, and the car's: "obd      connected: /dev/obd0 at 38400 baud · ELM327 v1.5 · AUTO, ISO
    /// 15765-4 (CAN 11/500)", "car      answering · VIN … · odometer 12 345.6 km · 1 800 rpm · 50 km/h · 14.2 V"
    /// (the odometer and the speed in `unit`).
    static func describe(_ obd: OBDStatus, unit: DistanceUnit) -> [String] {
        var adapter = "  obd      \(obd.state) \(obd.address): \(obd.detail)"
        if let name = obd.adapter { adapter += " · \(name)" }
        if let name = obd.protocolName { adapter += " · \(name)" }
        var car = "  car      \(obd.car)"
        if let reason = obd.carDetail { car += " (\(reason))" }
        if let running = obd.engineRunning { car += running ? " · engine running" : " · engine off" }
        if let vin = obd.vin { car += " · VIN \(vin)" }
        if let logVIN = obd.logVIN { car += " · another car than the log's (\(logVIN)): its odometer is not taken" }
        switch obd.odometerSupported {
        case true?:
            if let odometer = obd.odometer { car += " · odometer " + unit.text(metres: odometer * 1000) }
        case false?: car += " · no odometer (PID A6)"
        case nil: break
        }
        if let rpm = obd.rpm { car += " · \(Int(rpm.rounded())) rpm" }
        if let speed = obd.speed { car += " · \(Int(unit.perHour(metresPerSecond: speed / 3.6).rounded())) \(unit.speedName)" }
        if let volts = obd.volts { car += " · \((volts * 10).rounded() / 10) V" }
        if let age = obd.readingAge, age >= 2 { car += " (read \(DurationText.of(age)) ago)" }
        let found = obd.chosen.map { ["  found    \($0)\(obd.reason.map { ": \($0)" } ?? "")"] } ?? []
        return [adapter] + found + [car]
    }
}

/// Connecting and printing, shared by the commands that talk to trackd.
enum ControlCall {
    /// Connects, runs `body`, and turns connection failures into a clean exit with the reason.
    static func run<Value: Sendable>(
        _ options: ConnectionOptions, _ body: (inout ControlConnection) async throws -> Value
    ) async throws -> Value {
        do {
            return try await ControlClient.withConnection(socketPath: options.socketPath,
                                                          client: "trackctl \(TrackVersion.string)", body)
        } catch let error as ControlSocketError {
            if case .remote(let remote) = error {
                throw Failure.exit(remote.text, status: ExitStatus.refused, code: remote.code, json: options.json)
            }
            throw Failure.exit("\(error)", status: ExitStatus.unreachable, json: options.json)
        }
    }

    /// Compact JSON text of a value.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
