import ArgumentParser
import ControlSocket
import FoundationEssentials
import TrackCore
import TrackReports
import TrackctlTexts

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
        let code = country.rawValue
        let text = table.checked[country].map {
            t("\(code)'s allowance rates are known to hold only to \($0.through): trips from then on are paid at the last rate known (trackctl rates; a new rate goes in /etc/trackd/rates.d)")
        } ?? t("\(code)'s allowance rates are confirmed for no day: trips from then on are paid at the last rate known (trackctl rates; a new rate goes in /etc/trackd/rates.d)")
        return StatusRows.line(.rates, text)
    }

    /// The status for people, distances and speeds in `unit` (the profile's).
    static func describe(_ status: DaemonStatus, unit: DistanceUnit) -> String {
        var rows = StatusRows()
        let source = status.source
        rows.add(.source, "\(word(source.state))\(age(source.stateAge)): \(source.detail)")
        if let chosen = source.chosen {
            rows.add(.receiver, "\(chosen)\(source.reason.map { ": \($0)" } ?? "")")
        }
        if let fix = status.lastFix {
            var line = Format.fixSummary(fix)
            if let seconds = status.lastFixAge { line += t(", \(DurationText.of(seconds)) ago") }
            rows.add(.fix, line)
        } else {
            rows.add(.fix, t("none yet"))
        }
        if let position = status.lastPosition {
            var line = Format.position(position)
            if let seconds = status.lastPositionAge, seconds >= 2 { line += t(" (\(DurationText.of(seconds)) ago)") }
            rows.add(.position, line)
            rows.add(.speed, Format.speed(position, unit: unit))
        }
        if let trip = status.trip {
            let kind = Words.kind(trip.kind)
            let purpose = trip.purpose.flatMap { $0.isEmpty ? nil : " (\($0))" } ?? ""
            let distance = Format.distance(trip.distance, unit: unit)
            var line = t("\(trip.number), \(kind)\(purpose): \(distance)")
            if let duration = trip.duration { line += t(" in \(DurationText.of(duration))") }
            if let start = trip.start {
                line += t(" since \(start.iso8601(fractionDigits: 0))")
            } else {
                line += t(", waiting for a fix")
            }
            rows.add(.trip, line)
        } else {
            rows.add(.trip, t("none running"))
        }
        if let odometer = status.odometer {
            rows.add(.odometer, Format.figure(unit.text(metres: odometer * 1000)))
        }
        if let motion = status.motion, motion.state == .stationary, let since = motion.since {
            rows.add(.parked, t("since \(since.iso8601(fractionDigits: 0))"))
        }
        if let alert = status.lastAlert {
            rows.add(.alert, t("idle at \(alert.time.iso8601(fractionDigits: 0)) (trip \(alert.tripNumber))"))
        }
        if let storage = status.storage, !storage.isOK {
            let state = "\(word(storage.state))\(age(storage.stateAge))"
            let points = storage.pendingPoints
            var line = storage.pendingRecords > 0
                ? t("\(state): \(storage.detail); \(points) track points and \(storage.pendingRecords) records kept in memory")
                : t("\(state): \(storage.detail); \(points) track points kept in memory")
            if storage.droppedPoints > 0 { line += t(" (\(storage.droppedPoints) older points given up)") }
            rows.add(.storage, line)
        }
        for (label, uplink) in [(StatusRows.Label.uplink, status.uplink), (.traccar, status.osmand)] {
            guard let uplink else { continue }
            let state = "\(word(uplink.state))\(age(uplink.stateAge))"
            var line = t("\(state) to \(uplink.broker)")
            if let detail = uplink.detail { line += ": \(detail)" }
            line += t("; backlog \(uplink.backlogPoints) points (\(uplink.backlogBytes) bytes)")
            if let last = uplink.lastAcknowledged {
                line += t(", last acknowledged \(last)")
                if let time = uplink.lastAcknowledgedTime { line += t(" of \(time.iso8601(fractionDigits: 0))") }
            }
            rows.add(label, line)
        }
        if let obd = status.obd { describe(obd, unit: unit, into: &rows) }
        if let mail = status.mail {
            let to = mail.to.joined(separator: ", ")
            rows.add(.mail, mail.monthly ? t("the month's report to \(to), by itself after each month")
                                         : t("the month's report to \(to), when asked"))
        }
        if let stick = status.stick { rows.add(.stick, describe(stick)) }
        rows.add(.received, t("\(status.epochs) epochs, \(status.positionFixes) with a position; \(status.inputProblems) damaged sentences dropped"))
        return (["\(status.version) · \(t("source")) \(source.address)"] + rows.lines).joined(separator: "\n")
    }

    /// ` for 3 min`: how long a state has lasted, when known.
    static func age(_ seconds: Double?) -> String {
        seconds.map { t(" for \(DurationText.of($0))") } ?? ""
    }

    /// A source's state in trackctl's language.
    static func word(_ state: SourceStatus.State) -> String {
        switch state {
        case .connecting: t("connecting")
        case .connected: t("connected")
        case .lost: t("lost")
        case .ended: t("ended")
        }
    }

    /// An uplink's state in trackctl's language.
    static func word(_ state: UplinkStatus.State) -> String {
        switch state {
        case .connecting: t("connecting")
        case .connected: t("connected")
        case .waiting: t("waiting")
        case .refused: t("refused")
        }
    }

    /// The storage's state in trackctl's language.
    static func word(_ state: StorageStatus.State) -> String {
        switch state {
        case .ok: t("ok")
        case .failing: t("failing")
        }
    }
}

extension StatusCommand {
    /// The last copy to a USB stick: "last copy 2026-11-29 14:02:11 UTC to TRACKD (vfat), trackd/AB-123: 3 files
    /// written, 6 unchanged" — or what stopped it.
    static func describe(_ copy: StickCopy) -> String {
        let stick = copy.label.isEmpty ? t("a stick without a label") : copy.label
        var line = t("last copy \(copy.time.iso8601(fractionDigits: 0)) to \(stick)")
        if !copy.filesystem.isEmpty { line += " (\(copy.filesystem))" }
        if !copy.folder.isEmpty { line += ", \(copy.folder)" }
        line += copy.written == 1 ? t(": 1 file written, \(copy.unchanged) unchanged")
            : t(": \(copy.written) files written, \(copy.unchanged) unchanged")
        if copy.removed > 0 { line += t(", \(copy.removed) removed") }
        if let problem = copy.problem { line += t("; NOT FINISHED: \(problem)") }
        return line
    }

    /// The adapter's row, what `auto` found, and the car's: "connected: /dev/obd0 at 38400 baud · ELM327 v1.5 · AUTO,
    /// ISO 15765-4 (CAN 11/500)", "answering · VIN … · odometer 12 345.6 km · 1 800 rpm · 50 km/h · 14.2 V" (the
    /// odometer and the speed in `unit`).
    static func describe(_ obd: OBDStatus, unit: DistanceUnit, into rows: inout StatusRows) {
        var adapter = "\(word(obd.state)) \(obd.address): \(obd.detail)"
        if let name = obd.adapter { adapter += " · \(name)" }
        if let name = obd.protocolName { adapter += " · \(name)" }
        var car = word(obd.car)
        if let reason = obd.carDetail { car += " (\(reason))" }
        if let running = obd.engineRunning { car += running ? t(" · engine running") : t(" · engine off") }
        if let vin = obd.vin { car += " · VIN \(vin)" }
        if let logVIN = obd.logVIN { car += t(" · another car than the log's (\(logVIN)): its odometer is not taken") }
        switch obd.odometerSupported {
        case true?:
            if let odometer = obd.odometer { car += t(" · odometer \(Format.figure(unit.text(metres: odometer * 1000)))") }
        case false?: car += t(" · no odometer (PID A6)")
        case nil: break
        }
        if let rpm = obd.rpm { car += " · \(Int(rpm.rounded())) rpm" }
        if let speed = obd.speed { car += " · \(Int(unit.perHour(metresPerSecond: speed / 3.6).rounded())) \(unit.speedName)" }
        if let volts = obd.volts { car += " · \(Format.figure("\((volts * 10).rounded() / 10)")) V" }
        if let age = obd.readingAge, age >= 2 { car += t(" (read \(DurationText.of(age)) ago)") }
        rows.add(.obd, adapter)
        if let chosen = obd.chosen { rows.add(.found, "\(chosen)\(obd.reason.map { ": \($0)" } ?? "")") }
        rows.add(.car, car)
    }

    /// The car's state in trackctl's language.
    static func word(_ state: OBDStatus.CarState) -> String {
        switch state {
        case .unknown: t("unknown")
        case .answering: t("answering")
        case .silent: t("silent")
        }
    }
}
