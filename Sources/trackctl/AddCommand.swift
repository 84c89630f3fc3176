import ArgumentParser
import FoundationEssentials
import TrackCore
import TrackctlTexts

/// `trackctl add`: a trip entered by hand, or from a regular trip.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a trip by hand: its date and distance (or the odometer at its end).",
        discussion: """
            The start odometer follows from the log. Examples:
              trackctl add --date 2026-11-20 --regular office
              trackctl add --date 2026-11-20 --distance 42.5 --business --purpose "Site visit" --reason "GPS box was off"
              trackctl add --date 2026-11-21 --odometer-end 48210.4 --private
              trackctl add --date 2026-11-22 --from home --to example-ltd --business --purpose "Delivery"
            With --from and --to and no distance, the trip takes the distance of the last GPS-measured trip between \
            the two places (either way), and its history says which. Distances and readings are in the profile's \
            unit: kilometres, or miles for a UK or US profile (trackctl profile).
            """)

    @ParentCommand var trackctl: TrackControl

    @Option(help: ArgumentHelp("The day of the trip, in the log's time zone.", valueName: "YYYY-MM-DD"))
    var date: String

    @Option(help: ArgumentHelp("The distance driven, in the profile's unit (km or mi).", valueName: "distance"))
    var distance: Double?

    @Option(help: ArgumentHelp("The odometer at the end of the trip, in the profile's unit.", valueName: "reading"))
    var odometerEnd: Double?

    @Option(help: ArgumentHelp("Start from this regular trip (its distance, kind, purpose…; flags override).", valueName: "name"))
    var regular: String?

    @Option(help: ArgumentHelp("The named place it started at (number, name or key).", valueName: "place"))
    var from: String?

    @Option(help: ArgumentHelp("The named place it ended at.", valueName: "place"))
    var to: String?

    @Option(help: ArgumentHelp("Local start time.", valueName: "HH:MM")) var start: String?
    @Option(help: ArgumentHelp("Local end time.", valueName: "HH:MM")) var end: String?

    @OptionGroup var fields: TripFields

    @Option(help: "Why the trip is entered by hand (kept in the history).")
    var reason: String?

    func validate() throws {
        guard CivilDate(iso8601: date) != nil else { throw ValidationError(t("'\(date)' is not a date: write YYYY-MM-DD, such as 2026-11-20")) }
        if distance != nil && odometerEnd != nil { throw ValidationError(t("give --distance or --odometer-end, not both")) }
        if distance == nil && odometerEnd == nil && regular == nil && (from == nil || to == nil) {
            throw ValidationError(t("say how far: --distance DISTANCE, --odometer-end READING, --regular NAME, or --from and --to (the distance of the last GPS trip between the two places)"))
        }
        if let distance, !(distance.isFinite && distance > 0 && distance < 100_000) {
            throw ValidationError(t("--distance must be a positive number (of the profile's unit, km or mi)"))
        }
        if let odometerEnd, !(odometerEnd.isFinite && odometerEnd >= 0) {
            throw ValidationError(t("--odometer-end must be a number (of the profile's unit, km or mi)"))
        }
        _ = try AddCommand.second(start, "--start")
        _ = try AddCommand.second(end, "--end")
    }

    func run() async throws {
        let options = trackctl.connection
        let unit = try await LogAccess.unit(options)
        let extent: ManualTrip.Extent? = distance.map { .distance(unit.metres(from: $0)) }
            ?? odometerEnd.map { .odometerEnd(unit.metres(from: $0)) }
        let manual = ManualTrip(date: CivilDate(iso8601: date)!, startSecond: try AddCommand.second(start, "--start"),
                                endSecond: try AddCommand.second(end, "--end"), extent: extent, kind: fields.kind,
                                purpose: fields.purpose, customer: fields.customer, destination: fields.destination,
                                regular: regular, from: from, to: to, reason: reason, commute: fields.commute ?? false,
                                detour: fields.detour)
        let trip = try await LogAccess.change(options, .add, manual, as: LogTrip.self, command: "add")
        if options.json {
            print(try ControlCall.json(trip))
        } else {
            // The row as `trackctl trips` shows it, times in the log's time zone.
            let calendar = try await LogAccess.calendar(options)
            print(LogText.table([trip], calendar: calendar, unit: unit).components(separatedBy: "\n").dropLast().joined(separator: "\n"))
            if extent == nil && regular == nil, let start = trip.startPlace, let end = trip.endPlace {
                print(t("distance: the last GPS trip between \(start.name) and \(end.name) (trackctl show \(trip.id))"))
            }
            if trip.lacksPurpose { print(t("note: a business trip needs a purpose: trackctl edit \(trip.id) --purpose TEXT --reason TEXT")) }
        }
    }

    /// Seconds after midnight of `HH:MM`.
    static func second(_ text: String?, _ flag: String) throws -> Int? {
        guard let text else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour),
              (0..<60).contains(minute), parts[1].count == 2
        else { throw ValidationError(t("\(flag) '\(text)' is not a time: write HH:MM, such as 08:30")) }
        return hour * 3600 + minute * 60
    }
}
