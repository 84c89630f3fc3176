import ArgumentParser
import TrackCore
import TrackStore
import TrackText

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
            print("odometer     " + (status.kilometres.map { unit.text(metres: $0 * 1000) }
                                     ?? "not set yet: trackctl odometer set READING --reason \"dashboard reading\""))
            print(String(printf: "calibration  %.4f (logged \(name) = GPS \(name) × factor)", status.calibrationFactor))
            if let proposal = status.proposedCalibration {
                let basis = "the car's odometer \(unit.text(metres: proposal.odometer)) against "
                    + "\(unit.text(metres: proposal.measured)) by GPS over \(proposal.trips) trips "
                    + "(\(proposal.firstTrip)–\(proposal.lastTrip))"
                if proposal.factor == status.calibrationFactor {
                    print("             as the car's odometer proposes: \(basis)")
                } else {
                    print(String(printf: "proposed     %.4f from ", proposal.factor) + basis
                          + "; take it with: trackctl odometer calibrate")
                }
            } else if let note = status.proposalNote {
                print("proposed     none yet: \(note)")
            }
            for reading in status.readings {
                var line = "  \(reading.time.iso8601(fractionDigits: 0))  " + unit.text(metres: reading.value)
                if let logValue = reading.logValue {
                    line += " (log " + DistanceUnit.text(tenths: unit.tenths(logValue)) + ")"
                }
                if let gap = reading.gapTripID { line += ", entry \(gap)" }
                line += "  by \(reading.user): \(reading.reason)"
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
            print(String(printf: "calibration factor now %.4f (was %.4f), from the car's odometer over trips ",
                         update.after, update.before)
                  + "\(update.proposal.firstTrip)–\(update.proposal.lastTrip); it applies to trips from now on")
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
                throw ValidationError("the reading must be a number (of the profile's unit, km or mi)")
            }
            if reason.trimmingWhitespace.isEmpty { throw ValidationError("--reason cannot be empty") }
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
            print("odometer reading " + unit.text(metres: update.reading.value) + " recorded")
            if let entry = update.entry {
                print("entry \(entry.id): \(LogText.distance(entry, unit: unit)) \(unit.rawValue) of \(entry.source == .unrecorded ? "unrecorded driving" : "correction")")
            }
            if !update.calibrationNote.isEmpty { print(update.calibrationNote) }
        }
    }
}
