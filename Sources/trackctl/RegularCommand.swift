import ArgumentParser
import TrackCore
import TrackStore
import TrackctlTexts

/// `trackctl regular`: templates for trips driven again and again.
struct RegularCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regular", abstract: "Regular trips: templates for trips driven again and again.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    @ParentCommand var trackctl: TrackControl

    /// `trackctl regular list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the regular trips.")

        @ParentCommand var regular: RegularCommand

        func run() async throws {
            let options = regular.trackctl.connection
            let trips = try await LogAccess.read(options, .regularList, NoParams(), as: [RegularTrip].self) { log, _ in
                try await log.regularTrips()
            }
            if options.json {
                print(try ControlCall.json(trips))
            } else if trips.isEmpty {
                print(t("no regular trips; add one with: trackctl regular add NAME --distance DISTANCE --business --purpose TEXT"))
            } else {
                let unit = try await LogAccess.unit(options)
                var rows = [[t("Name"), unit.rawValue, t("Kind"), t("Purpose"), t("Customer"), t("Destination")]]
                for trip in trips {
                    rows.append([trip.name, Format.figure(DistanceUnit.text(tenths: unit.tenths(trip.distance))), Words.kind(trip.kind),
                                 trip.purpose ?? "", trip.customer ?? "", trip.destination ?? ""])
                }
                print(LogText.align(rows, rightAligned: [1]).joined(separator: "\n"))
            }
        }
    }

    /// `trackctl regular add NAME`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Define a regular trip.",
            discussion: "trackctl regular add office --distance 18.4 --business --purpose \"Office\" --destination \"Main St 1\"")

        @ParentCommand var regular: RegularCommand

        @Argument(help: "Its name, used with 'trackctl add --regular NAME'.")
        var name: String

        @Option(help: ArgumentHelp("The distance one trip takes, in the profile's unit (km or mi).", valueName: "distance"))
        var distance: Double

        @OptionGroup var fields: TripFields

        @Option(help: ArgumentHelp("The named place it goes from.", valueName: "place"))
        var from: String?

        @Option(help: ArgumentHelp("The named place it goes to.", valueName: "place"))
        var to: String?

        func validate() throws {
            if name.trimmingWhitespace.isEmpty { throw ValidationError(t("the name cannot be empty")) }
            if fields.commute != nil || fields.detour != nil {
                throw ValidationError(t("--commute and --detour are for trips, not regular trips: give them to trackctl add --regular NAME, or trackctl edit afterwards"))
            }
            if !(distance.isFinite && distance > 0 && distance < 100_000) {
                throw ValidationError(t("--distance must be a positive number (of the profile's unit, km or mi)"))
            }
        }

        func run() async throws {
            let options = regular.trackctl.connection
            let unit = try await LogAccess.unit(options)
            let template = RegularTrip(name: name, distance: unit.metres(from: distance), kind: fields.kind ?? .business,
                                       purpose: fields.purpose, customer: fields.customer, destination: fields.destination,
                                       from: from, to: to)
            let saved = try await LogAccess.change(options, .regularAdd, template, as: RegularTrip.self, command: "regular add")
            print(options.json ? try ControlCall.json(saved) : t("regular trip '\(saved.name)' saved"))
        }
    }

    /// `trackctl regular remove NAME`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a regular trip (trips made from it keep their values).")

        @ParentCommand var regular: RegularCommand

        @Argument(help: "Its name.")
        var name: String

        func run() async throws {
            let options = regular.trackctl.connection
            let removed = try await LogAccess.change(options, .regularRemove, NameParams(name: name), as: NameParams.self,
                                                     command: "regular remove")
            print(options.json ? try ControlCall.json(removed) : t("regular trip '\(removed.name)' removed"))
        }
    }
}
