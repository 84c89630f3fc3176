import ArgumentParser
import FoundationEssentials
import TrackConfig
import TrackCore
import TrackInput
import TrackctlTexts

/// `trackctl replay LOG`: runs trackd's engine over a recorded NMEA log as fast as it can.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run trackd's engine over a recorded NMEA log, with a trip from the first fix.",
        discussion: """
            The log is read and judged exactly as trackd judges a live receiver — the same reader, gate, distance \
            and idle detection — as fast as the machine can, with the fixes' own times as the clock. Prints the \
            trip's distance, the idle alerts, how the fixes were judged and the outages; --json prints one JSON \
            object (distance_m and alerts are the contract of the benchmark kit).
            """
    )

    @Argument(help: "The NMEA log to replay ('-' for standard input).")
    var log: String

    @Option(help: ArgumentHelp("A trackd configuration file; its engine section applies.", valueName: "file"))
    var config: String?

    @ParentCommand var trackctl: TrackControl

    /// `--json`: one JSON object instead of a summary.
    private var json: Bool { trackctl.connection.json }

    func run() throws {
        var engine = EngineConfiguration()
        if let config {
            do {
                engine = try ConfigurationFile.load(path: config).engine
            } catch {
                printError("trackctl replay: \(error)")
                throw ExitCode(1)
            }
        }
        var file: InputFile
        do {
            file = try InputFile(path: log)
        } catch {
            printError("trackctl replay: \(error)")
            throw ExitCode(1)
        }
        var session = ReplaySession(configuration: engine)
        do {
            while try file.next({ chunk in session.read(chunk) }) {}
        } catch {
            printError("trackctl replay: \(error)")
            throw ExitCode(1)
        }
        let result = session.finish()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
            printLine(String(decoding: try encoder.encode(ReplayReport(result)), as: UTF8.self))
        } else {
            printLine(ReplayCommand.summary(result, log: log))
        }
    }

    static func summary(_ result: ReplayResult, log: String) -> String {
        var lines: [String] = []
        let statistics = result.statistics
        // The labels padded to the language's longest.
        let width = [t("distance"), t("fixes"), t("outages"), t("outage"), t("motion"), t("idle")].map(\.count).max()! + 1
        func row(_ label: String, _ text: String) { lines.append("  " + label.padding(toLength: width) + text) }
        let km = { (metres: Double) in Format.distance(metres, unit: .kilometres) }
        lines.append(t("replayed \(log): \(result.input.epochs) epochs"))
        for trip in result.trips {
            if let start = trip.start, let end = trip.end {
                let from = start.iso8601(fractionDigits: 0), to = end.iso8601(fractionDigits: 0)
                lines.append(t("trip \(trip.number): \(from) to \(to)") + (trip.duration.map { " (\(DurationText.of($0)))" } ?? ""))
            } else {
                lines.append(t("trip \(trip.number): no usable fix"))
            }
            var distance = km(trip.distance)
            if trip.calibrationFactor != 1 {
                distance += t(" (measured \(km(trip.measuredDistance)) × \(Format.figure("\(trip.calibrationFactor)")))")
            }
            row(t("distance"), distance)
        }
        var fixes = t("\(statistics.accepted) used, \(statistics.speedOnly) speed only, \(statistics.rejected) rejected")
        let reasons = statistics.rejections.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
            + statistics.positionRejections.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key.rawValue)" }
        if !reasons.isEmpty { fixes += " (" + reasons.joined(separator: ", ") + ")" }
        row(t("fixes"), fixes)
        if result.gaps.isEmpty {
            row(t("outages"), t("none"))
        } else {
            for gap in result.gaps {
                let when = "\(gap.start.iso8601(fractionDigits: 0)), \(DurationText.of(gap.duration))"
                let outcome = switch gap.outcome {
                case .straightLine, .curve: t("\(when): bridged, \(km(gap.distance))")
                case .carSpeed: t("\(when): counted by the car's speed, \(km(gap.distance))")
                case .parked: t("\(when): parked throughout")
                case .notBridged: t("\(when): not bridged (\(gap.note ?? "?"))")
                }
                row(t("outage"), outcome)
            }
        }
        let displaced = km(result.displacements.reduce(0) { $0 + $1.metres })
        row(t("motion"), result.displacements.isEmpty ? t("\(result.starts) starts")
            : t("\(result.starts) starts, \(result.displacements.count) displacements while stationary (\(displaced))"))
        if result.alerts.isEmpty {
            row(t("idle"), t("no alert"))
        } else {
            for alert in result.alerts {
                let at = alert.time.iso8601(fractionDigits: 0), since = alert.stationarySince.iso8601(fractionDigits: 0)
                row(t("idle"), t("alert at \(at) (stationary since \(since))"))
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// The JSON that `replay --json` prints.
struct ReplayReport: Encodable {
    struct Alert: Encodable {
        let type = "idle"
        let time: UTCTime
        let stationarySince: UTCTime
        let trip: TripID

        enum CodingKeys: String, CodingKey {
            case type, time, trip
            case stationarySince = "stationary_since"
        }
    }

    struct Fixes: Encodable {
        let epochs: Int
        let statistics: EngineStatistics

        func encode(to encoder: any Encoder) throws {
            try statistics.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(epochs, forKey: .epochs)
        }

        enum Key: String, CodingKey { case epochs }
    }

    struct Gap: Encodable {
        let start: UTCTime
        let end: UTCTime
        let duration: Double
        let outcome: String
        let straightLine: Double?
        let distance: Double
        let note: String?

        enum CodingKeys: String, CodingKey {
            case start, end, outcome, note
            case duration = "duration_s"
            case straightLine = "straight_line_m"
            case distance = "distance_m"
        }

        init(_ gap: GapReport) {
            start = gap.start
            end = gap.end
            duration = gap.duration
            outcome = gap.outcome.rawValue
            straightLine = gap.straightLine
            distance = gap.distance
            note = gap.note
        }
    }

    /// A trip: its one view (`TripView`, as `status` and the watchers see a trip) and its outages.
    struct TripReport: Encodable {
        let trip: TripView
        let gaps: [Gap]

        func encode(to encoder: any Encoder) throws {
            try trip.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(gaps, forKey: .gaps)
        }

        enum Key: String, CodingKey { case gaps }
    }

    let distance: Double
    let measuredDistance: Double
    let alerts: [Alert]
    let fixes: Fixes
    let trips: [TripReport]
    let gaps: [Gap]
    let distanceOutsideTrips: Double
    let starts: Int
    let displacements: [Displacement]

    struct Displacement: Encodable {
        let time: UTCTime
        let distance: Double

        enum CodingKeys: String, CodingKey {
            case time
            case distance = "distance_m"
        }
    }

    enum CodingKeys: String, CodingKey {
        case alerts, fixes, trips, gaps, starts, displacements
        case distance = "distance_m"
        case measuredDistance = "measured_distance_m"
        case distanceOutsideTrips = "distance_outside_trips_m"
    }

    init(_ result: ReplayResult) {
        distance = result.distance
        measuredDistance = result.measuredDistance
        alerts = result.alerts.map { Alert(time: $0.time, stationarySince: $0.stationarySince, trip: $0.tripNumber) }
        fixes = Fixes(epochs: result.input.epochs, statistics: result.statistics)
        trips = result.trips.map { trip in
            TripReport(trip: TripView(trip), gaps: trip.gaps.map(Gap.init))
        }
        gaps = result.gaps.map(Gap.init)
        distanceOutsideTrips = result.distanceOutsideTrips
        starts = result.starts
        displacements = result.displacements.map { Displacement(time: $0.time, distance: $0.metres) }
    }
}
