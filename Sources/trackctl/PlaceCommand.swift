import ArgumentParser
import TrackCore
import TrackStore
import TrackctlTexts

/// `trackctl place`: the named places trips start and end at (docs/places.md).
struct PlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place", abstract: "Named places: where trips start and end, with addresses and customers.",
        discussion: """
            A GPS trip whose start or end lies within a place's radius starts or ends there; reports print the place's \
            name and address. A business trip ending at a place with a customer and a purpose gets them when it has \
            none (in its history, by trackd). Naming a place names the past trips that started or ended inside it.

            Examples:
              trackctl place add Home --here --address "Pärnu mnt 10, 10148 Tallinn"
              trackctl place add "Example Ltd" --at 59.427849,24.877986 --customer "Example Ltd" --purpose "Delivery"
              trackctl place edit example-ltd --radius 80 --reason "their yard is larger"
              trackctl place suggest                      # spots the car parked at 3 times or more
              trackctl place add Depot --suggestion 1     # name the first of them
            """,
        subcommands: [List.self, Add.self, Edit.self, Remove.self, Suggest.self], defaultSubcommand: List.self)

    @ParentCommand var trackctl: TrackControl

    /// `trackctl place list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the named places.")

        @ParentCommand var place: PlaceCommand

        func run() async throws {
            let options = place.trackctl.connection
            let places = try await LogAccess.read(options, .placeList, NoParams(), as: [Place].self) { log, _ in
                try await log.places()
            }
            if options.json {
                print(try ControlCall.json(places))
            } else if places.isEmpty {
                print(t("no places; name one with: trackctl place add NAME --here (where the car stands)"))
            } else {
                var rows = [[t("ID"), t("Name"), t("Position"), t("Radius"), t("Address"), t("Customer"), t("Purpose"), t("Kind")]]
                for place in places {
                    rows.append(["\(place.id)", place.name, LogText.coordinate(place.position),
                                 "\(Int(place.radius.rounded())) m", place.address ?? "", place.customer ?? "",
                                 place.purpose ?? "", place.kind.map(Words.kind) ?? ""])
                }
                print(LogText.align(rows, rightAligned: [0, 3]).joined(separator: "\n"))
            }
        }
    }

    /// What a place says of the trips there, shared by `add` and `edit`.
    struct Fields: ParsableArguments {
        @Option(help: ArgumentHelp("How far from its position a trip's end still counts as the place (10–5000 m; "
                                   + "default \(Int(TrackCore.Place.defaultRadius)) m).", valueName: "metres"))
        var radius: Double?

        @Option(help: "Its postal address, as reports print it.")
        var address: String?

        @Option(help: "The customer there: filled into a business trip that ends there without one.")
        var customer: String?

        @Option(help: "The purpose of a business trip that ends there without one.")
        var purpose: String?

        @Flag(exclusivity: .exclusive, help: "The kind an unclassified trip ending there takes (--unclassified: none).")
        var kind: TripKind?

        func validate() throws {
            if let radius, !TrackCore.Place.radii.contains(radius) {
                throw ValidationError(t("--radius must be from 10 to 5000 metres"))
            }
        }
    }

    /// `trackctl place add NAME`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Name a place: where the car stands (--here), or at coordinates (--at).")

        @ParentCommand var place: PlaceCommand

        @Argument(help: "Its name, as reports print it; trips and commands find it by name, key (example-ltd) or number.")
        var name: String

        @Flag(help: "Where the car stands: the mean of the positions since it stopped (trackd must run).")
        var here = false

        @Option(help: ArgumentHelp("Its position in degrees.", valueName: "lat,lon"))
        var at: String?

        @Option(help: ArgumentHelp("A spot 'trackctl place suggest' lists: its position and radius.", valueName: "n"))
        var suggestion: Int?

        @OptionGroup var fields: Fields

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func validate() throws {
            if name.trimmingWhitespace.isEmpty { throw ValidationError(t("the name cannot be empty")) }
            if [here, at != nil, suggestion != nil].filter({ $0 }).count != 1 {
                throw ValidationError(t("give one of --here, --at LAT,LON or --suggestion N"))
            }
            if let at { _ = try PlaceCommand.coordinate(at) }
        }

        func run() async throws {
            let options = place.trackctl.connection
            var position = try at.map(PlaceCommand.coordinate)
            var radius = fields.radius
            if let suggestion {
                let suggestions = try await LogAccess.read(options, .placeSuggest, PlaceSuggestParams(),
                                                           as: [PlaceSuggestion].self) { log, _ in
                    try await log.placeSuggestions(PlaceSuggestParams())
                }
                guard let chosen = suggestions.first(where: { $0.number == suggestion }) else {
                    throw Failure.exit(suggestions.isEmpty ? t("there is no suggestion \(suggestion) (trackctl place suggest lists none yet)")
                                       : t("there is no suggestion \(suggestion); trackctl place suggest lists 1 to \(suggestions.count)"),
                                       status: ExitStatus.refused, json: options.json)
                }
                position = chosen.position
                radius = radius ?? chosen.radius
            }
            let params = PlaceAddParams(name: name, position: position, here: here ? true : nil,
                                        radius: radius, address: fields.address, customer: fields.customer,
                                        purpose: fields.purpose, kind: fields.kind, reason: reason)
            let update = try await LogAccess.change(options, .placeAdd, params, as: PlaceUpdate.self, command: "place add")
            print(options.json ? try ControlCall.json(update) : PlaceCommand.describe(update, changed: false))
        }
    }

    /// `trackctl place edit PLACE`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change a place; trips keep the name and address they got.")

        @ParentCommand var place: PlaceCommand

        @Argument(help: "The place: its number, name or key.")
        var reference: String

        @Option(help: "A new name.")
        var name: String?

        @Flag(help: "Move it to where the car stands.")
        var here = false

        @Option(help: ArgumentHelp("Move it to these coordinates.", valueName: "lat,lon"))
        var at: String?

        @OptionGroup var fields: Fields

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func validate() throws {
            if here && at != nil { throw ValidationError(t("give --here or --at, not both")) }
            if let at { _ = try PlaceCommand.coordinate(at) }
        }

        func run() async throws {
            let changes = PlaceChanges(name: name, position: try at.map(PlaceCommand.coordinate), radius: fields.radius,
                                       address: fields.address, customer: fields.customer, purpose: fields.purpose,
                                       kind: fields.kind)
            let params = PlaceEditParams(place: reference, changes: changes, here: here ? true : nil, reason: reason)
            let options = place.trackctl.connection
            let update = try await LogAccess.change(options, .placeEdit, params, as: PlaceUpdate.self, command: "place edit")
            print(options.json ? try ControlCall.json(update) : PlaceCommand.describe(update, changed: true))
        }
    }

    /// `trackctl place remove PLACE`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a place; trips that started or ended there keep its name.")

        @ParentCommand var place: PlaceCommand

        @Argument(help: "The place: its number, name or key.")
        var reference: String

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func run() async throws {
            let options = place.trackctl.connection
            let removed = try await LogAccess.change(options, .placeRemove, PlaceRemoveParams(place: reference, reason: reason),
                                                     as: TrackCore.Place.self, command: "place remove")
            print(options.json ? try ControlCall.json(removed) : t("place \(removed.id) '\(removed.name)' removed"))
        }
    }

    /// `trackctl place suggest`.
    struct Suggest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest",
            abstract: "Spots where the car parked again and again that no place names yet, busiest first.",
            discussion: """
                The spots come from where trips ended and started (a trip's end and the next trip's start at the \
                same spot are one parking), grouped within the radius. Name one with \
                'trackctl place add NAME --suggestion N': the past trips that ended or started there get its name.
                """)

        @ParentCommand var place: PlaceCommand

        @Option(help: "Parkings that make a spot worth a name.")
        var minVisits = PlaceSuggestion.defaultMinimumVisits

        @Option(help: ArgumentHelp("How far apart parkings at one spot may lie from the busiest of them (10–5000 m).",
                                   valueName: "metres"))
        var radius = TrackCore.Place.defaultRadius

        func validate() throws {
            if !(1...1000).contains(minVisits) { throw ValidationError(t("--min-visits must be from 1 to 1000")) }
            if !TrackCore.Place.radii.contains(radius) { throw ValidationError(t("--radius must be from 10 to 5000 metres")) }
        }

        func run() async throws {
            let options = place.trackctl.connection
            let params = PlaceSuggestParams(minimumVisits: minVisits, radius: radius)
            let suggestions = try await LogAccess.read(options, .placeSuggest, params, as: [PlaceSuggestion].self) { log, _ in
                try await log.placeSuggestions(params)
            }
            if options.json {
                print(try ControlCall.json(suggestions))
            } else if suggestions.isEmpty {
                print(t("no spot without a name where the car parked \(minVisits) times or more"))
            } else {
                var rows = [["#", t("Position"), t("Visits"), t("Spread"), t("Trips ending there"), t("Last")]]
                for suggestion in suggestions {
                    let trips = suggestion.tripsEndingHere.map(\.description)
                    rows.append(["\(suggestion.number)", LogText.coordinate(suggestion.position), "\(suggestion.visits)",
                                 "\(Int(suggestion.spread.rounded())) m",
                                 trips.count > 8 ? trips.prefix(8).joined(separator: ", ") + ", …" : trips.joined(separator: ", "),
                                 suggestion.lastVisit.map { String($0.iso8601(fractionDigits: 0).prefix(10)) } ?? ""])
                }
                print(LogText.align(rows, rightAligned: [0, 2, 3]).joined(separator: "\n"))
                print(t("name one: trackctl place add NAME --suggestion N [--address TEXT] [--customer TEXT]"))
            }
        }
    }

    /// `59.437,24.7536` (or with a space) as a coordinate.
    static func coordinate(_ text: String) throws -> Coordinate {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]),
              abs(latitude) <= 90, abs(longitude) <= 180 else {
            throw ValidationError(t("--at wants LAT,LON in degrees, such as 59.437,24.7536"))
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// "place 2 'Example Ltd' named at 59.427849, 24.877986 (radius 50 m); past trips that now end there: 3, 7".
    static func describe(_ update: PlaceUpdate, changed: Bool) -> String {
        let place = update.place
        let at = LogText.coordinate(place.position), radius = Int(place.radius.rounded())
        var lines = [changed ? t("place \(place.id) '\(place.name)' changed at \(at) (radius \(radius) m)")
                             : t("place \(place.id) '\(place.name)' named at \(at) (radius \(radius) m)")]
        if !update.startsNamed.isEmpty {
            lines.append(t("past trips that now start there: \(update.startsNamed.map(\.description).joined(separator: ", "))"))
        }
        if !update.endsNamed.isEmpty {
            lines.append(t("past trips that now end there: \(update.endsNamed.map(\.description).joined(separator: ", "))"))
        }
        return lines.joined(separator: "\n")
    }
}
