import ArgumentParser
import TrackCore
import TrackStore
import TrackText
import TrackctlTexts

/// `trackctl odometer`: the log's odometer and the dashboard readings; `odometer set` records one.
struct OdometerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odometer", abstract: "The odometer: show the log's reading, or record the dashboard's.",
        subcommands: [Show.self, Set.self, Calibrate.self], defaultSubcommand: Show.self)

    @ParentCommand var trackctl: TrackControl

    /// `trackctl odometer show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the log's odometer, the calibration and the dashboard readings.")

        @ParentCommand var odometer: OdometerCommand

        func run() async throws {
            let options = odometer.trackctl.connection
            let status = try await LogAccess.read(options, .odometer, NoParams(), as: OdometerStatus.self) { log, _ in
                try await log.odometerStatus()
            }
            if options.json {
                print(try ControlCall.json(status))
                return
            }
            let unit = try await LogAccess.unit(options)
            let name = unit.rawValue
            // The labels padded to the language's longest.
            let width = max(13, [t("odometer"), t("calibration"), t("proposed")].map(\.count).max()! + 2)
            func row(_ label: String, _ text: String) { print(label.padding(toLength: width) + text) }
            let distance = { (metres: Double) in Format.figure(unit.text(metres: metres)) }
            let factor = { (value: Double) in Format.figure(String(printf: "%.4f", value)) }
            row(t("odometer"), status.kilometres.map { distance($0 * 1000) }
                ?? t("not set yet: trackctl odometer set READING --reason \"dashboard reading\""))
            row(t("calibration"), t("\(factor(status.calibrationFactor)) (logged \(name) = GPS \(name) × factor)"))
            if let proposal = status.proposedCalibration {
                let span = "\(proposal.firstTrip)–\(proposal.lastTrip)"
                let basis = t("the car's odometer \(distance(proposal.odometer)) against \(distance(proposal.measured)) by GPS over \(proposal.trips) trips (\(span))")
                if proposal.factor == status.calibrationFactor {
                    row("", t("as the car's odometer proposes: \(basis)"))
                } else {
                    row(t("proposed"), t("\(factor(proposal.factor)) from \(basis); take it with: trackctl odometer calibrate"))
                }
            } else if let note = status.proposalNote {
                row(t("proposed"), t("none yet: \(note)"))
            }
            for reading in status.readings {
                var line = "  \(reading.time.iso8601(fractionDigits: 0))  " + distance(reading.value)
                if let logValue = reading.logValue {
                    line += t(" (log \(Format.figure(DistanceUnit.text(tenths: unit.tenths(logValue)))))")
                }
                if let gap = reading.gapTripID { line += t(", entry \(gap)") }
                line += t("  by \(reading.user): \(reading.reason)")
                print(line)
            }
        }
    }

    /// `trackctl odometer calibrate`.
    struct Calibrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calibrate", abstract: "Take the calibration factor the car's odometer proposes.",
            discussion: """
                With an OBD-II adapter on a car that reports its odometer, every trip starts and ends at the car's
                reading; the calibration factor (GPS kilometres → logged kilometres, for trips without the car's
                readings) is proposed from the last trips' odometer differences against their GPS kilometres, once
                they add up to 20 km (12.4 mi). 'trackctl odometer' shows the proposal; this takes it, with a line in the
                history.
                trackctl odometer calibrate --reason "the car's odometer, November"
                """)

        @ParentCommand var odometer: OdometerCommand

        @Option(help: "Why (kept in the history beside the trips it came from).")
        var reason: String?

        func run() async throws {
            let options = odometer.trackctl.connection
            let update = try await LogAccess.change(options, .odometerCalibrate, CalibrateParams(reason: reason),
                                                    as: CalibrationUpdate.self, command: "odometer calibrate")
            if options.json {
                print(try ControlCall.json(update))
                return
            }
            let after = Format.figure(String(printf: "%.4f", update.after)), before = Format.figure(String(printf: "%.4f", update.before))
            let span = "\(update.proposal.firstTrip)–\(update.proposal.lastTrip)"
            print(t("calibration factor now \(after) (was \(before)), from the car's odometer over trips \(span); it applies to trips from now on"))
        }
    }

    /// `trackctl odometer set READING`.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Record the dashboard's odometer reading.",
            discussion: """
                A reading above the log's odometer adds an "unrecorded driving" entry for the difference; the
                calibration factor is updated from the GPS kilometres between readings (at least 20 km apart). The
                reading is in the profile's unit: kilometres, or miles for a UK or US profile (as the dashboard shows).
                trackctl odometer set 48210.4 --reason "dashboard at the fuel stop"
                """)

        @ParentCommand var odometer: OdometerCommand

        @Argument(help: "The reading, in the profile's unit (km or mi).")
        var reading: Double

        @Option(help: "Where the reading comes from (required; kept in the history).")
        var reason: String

        func validate() throws {
            if !(reading.isFinite && reading >= 0 && reading < 6_000_000) {
                throw ValidationError(t("the reading must be a number (of the profile's unit, km or mi)"))
            }
            if reason.trimmingWhitespace.isEmpty { throw ValidationError(t("--reason cannot be empty")) }
        }

        func run() async throws {
            let options = odometer.trackctl.connection
            let unit = try await LogAccess.unit(options)
            let kilometres = unit.metres(from: reading) / 1000
            let update = try await LogAccess.change(options, .odometerSet, OdometerParams(kilometres: kilometres, reason: reason),
                                                    as: OdometerUpdate.self, command: "odometer set")
            if options.json {
                print(try ControlCall.json(update))
                return
            }
            print(t("odometer reading \(Format.figure(unit.text(metres: update.reading.value))) recorded"))
            if let entry = update.entry {
                let distance = Format.figure(LogText.distance(entry, unit: unit)) + " " + unit.rawValue
                print(entry.source == .unrecorded ? t("entry \(entry.id): \(distance) of unrecorded driving")
                                                  : t("entry \(entry.id): \(distance) of correction"))
            }
            if !update.calibrationNote.isEmpty { print(update.calibrationNote) }
        }
    }
}
