import ArgumentParser
import TrackCore
import TrackStore
import TrackctlTexts

/// `trackctl rules`: rules that classify trips as they close (docs/rules.md).
struct RulesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Rules that classify trips as they close; the driver confirms what they did.",
        discussion: """
            A GPS trip that closes unclassified takes the first rule that holds: a pair of named places (one way, then \
            either way), a regular trip's places, the driver's hours. The trip says which rule classified it and stays \
            "to confirm" until the driver confirms it (trackctl confirm) or edits it. A trip the driver classified is \
            never changed by a rule; changing or deleting a rule changes no trip.

            Examples:
              trackctl rules add --from office --to example-ltd --either-way --business --purpose Delivery \\
                  --customer "Example Ltd"
              trackctl rules add --from home --to office --either-way --commute
              trackctl rules add --days mon-fri --hours 08:00-18:00 --business --purpose "Client visits"
              trackctl rules add --days mon-fri --hours 08:00-18:00 --outside --private
              trackctl rules add --regular harbour
              trackctl rules suggest                    # place pairs you classified the same way 3 times
              trackctl rules add --suggestion 1         # make the first a rule (decline N: never offer it again)
              trackctl rules edit 2 --pause
              trackctl rules delete 3 --reason "customer moved"
            """,
        subcommands: [List.self, Suggest.self, Add.self, Decline.self, Edit.self, Delete.self], defaultSubcommand: List.self)

    @ParentCommand var trackctl: TrackControl

    /// `trackctl rules list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the rules.")

        @ParentCommand var rules: RulesCommand

        func run() async throws {
            let options = rules.trackctl.connection
            let list = try await LogAccess.read(options, .ruleList, NoParams(), as: [ClassificationRule].self) { log, _ in
                try await log.rules()
            }
            if options.json {
                print(try ControlCall.json(list))
            } else if list.isEmpty {
                print(t("no rules; add one with: trackctl rules add --from PLACE --to PLACE --either-way --business --purpose TEXT"))
            } else {
                var rows = [[t("ID"), t("When"), t("Makes the trip"), t("State")]]
                for rule in list {
                    rows.append(["\(rule.id)", Words.rule(rule), Words.outcome(rule), Words.state(rule.state)])
                }
                print(LogText.align(rows, rightAligned: [0]).joined(separator: "\n"))
            }
        }
    }

    /// `trackctl rules add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a rule: by places (--from, --to), by hours (--days, --hours) or by a regular trip.")

        @ParentCommand var rules: RulesCommand

        @Option(help: ArgumentHelp("The named place the trip starts at (number, name or key).", valueName: "place"))
        var from: String?

        @Option(help: ArgumentHelp("The named place the trip ends at.", valueName: "place"))
        var to: String?

        @Flag(help: "Also trips the other way, from --to to --from.")
        var eitherWay = false

        @Option(help: ArgumentHelp("The days of the hours: mon-fri, mon,wed,fri, sat-sun.", valueName: "days"))
        var days: String?

        @Option(help: ArgumentHelp("The hours, in the log's time zone: a trip wholly within them (or, with --outside, "
                                   + "wholly outside them) on one of the days.", valueName: "HH:MM-HH:MM"))
        var hours: String?

        @Flag(help: "Trips wholly outside the hours (and on the other days).")
        var outside = false

        @Option(help: ArgumentHelp("A regular trip with places: trips between them, either way, become what it is.",
                                   valueName: "name"))
        var regular: String?

        @Option(help: ArgumentHelp("A rule 'trackctl rules suggest' lists, as it is.", valueName: "n"))
        var suggestion: Int?

        @Flag(exclusivity: .exclusive, help: "What the trip becomes.")
        var kind: RuleKind?

        @Flag(help: "A private trip between home and the regular place of work.")
        var commute = false

        @Option(help: "The purpose a business trip gets when it has none (a business rule needs one).")
        var purpose: String?

        @Option(help: "The customer a trip gets when it has none.")
        var customer: String?

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func validate() throws {
            let byPlaces = from != nil || to != nil, byHours = days != nil || hours != nil, byRegular = regular != nil
            guard [byPlaces, byHours, byRegular, suggestion != nil].filter({ $0 }).count == 1 else {
                throw ValidationError(t("give one condition: --from and --to, --days and --hours, --regular, or --suggestion"))
            }
            if suggestion != nil {
                if kind != nil || commute || purpose != nil || customer != nil || eitherWay || outside {
                    throw ValidationError(t("--suggestion adds the rule as suggested: change it afterwards with trackctl rules edit"))
                }
                return
            }
            if byPlaces && (from == nil || to == nil) { throw ValidationError(t("give both --from and --to")) }
            if byHours && (days == nil || hours == nil) { throw ValidationError(t("give both --days and --hours")) }
            if eitherWay && !byPlaces { throw ValidationError(t("--either-way is for a rule by places")) }
            if outside && !byHours { throw ValidationError(t("--outside is for a rule by hours")) }
            if let days, WorkHours.days(days) == nil {
                throw ValidationError(t("--days: give days as mon-fri, mon,wed,fri or 1-5 (1 is Monday)"))
            }
            if let hours, RulesCommand.hours(hours) == nil {
                throw ValidationError(t("--hours: give HH:MM-HH:MM, from 00:00 to 24:00, the end after the start"))
            }
            if byRegular {
                if kind != nil || commute || purpose != nil || customer != nil {
                    throw ValidationError(t("a rule by a regular trip makes trips what the regular trip is: give no --business, --private, --commute, --purpose or --customer"))
                }
            } else if kind == nil && !commute {
                throw ValidationError(t("say what the trip becomes: --business (with --purpose), --private or --commute"))
            }
            if commute && kind == .business {
                throw ValidationError(t("a commute (home to the regular place of work) is a private trip: give --commute without --business"))
            }
        }

        func run() async throws {
            let options = rules.trackctl.connection
            if let suggestion {
                let chosen = try await RulesCommand.suggestion(suggestion, options: options)
                let added = try await LogAccess.change(options, .ruleAdd, RuleAddParams(rule: chosen.rule, reason: reason ?? "suggested"),
                                                       as: ClassificationRule.self, command: "rules add")
                print(options.json ? try ControlCall.json(added)
                      : t("rule \(added.id) added: \(Words.rule(added)) → \(Words.outcome(added)); trips it classifies are to confirm"))
                return
            }
            let condition: RuleCondition
            if let from, let to {
                let places = try await LogAccess.read(options, .placeList, NoParams(), as: [TrackCore.Place].self) { log, _ in
                    try await log.places()
                }
                condition = .places(from: try RulesCommand.place(from, in: places, json: options.json),
                                    to: try RulesCommand.place(to, in: places, json: options.json), eitherWay: eitherWay)
            } else if let days, let hours, let list = WorkHours.days(days), let span = RulesCommand.hours(hours) {
                condition = .hours(WorkHours(days: list, start: span.start, end: span.end), outside: outside)
            } else {
                condition = .regular(regular ?? "")
            }
            let rule = ClassificationRule(id: 0, condition: condition, kind: commute ? .private : (kind?.tripKind ?? .unclassified),
                                          commute: commute, purpose: purpose, customer: customer)
            let added = try await LogAccess.change(options, .ruleAdd, RuleAddParams(rule: rule, reason: reason),
                                                   as: ClassificationRule.self, command: "rules add")
            print(options.json ? try ControlCall.json(added)
                  : t("rule \(added.id) added: \(Words.rule(added)) → \(Words.outcome(added)); trips it classifies are to confirm"))
        }
    }

    /// `trackctl rules suggest`.
    struct Suggest: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "suggest",
            abstract: "Rules your own classifications suggest: a pair of places classified the same way 3 times or more.")

        @ParentCommand var rules: RulesCommand

        func run() async throws {
            let options = rules.trackctl.connection
            let list = try await LogAccess.read(options, .ruleSuggest, NoParams(), as: [RuleSuggestion].self) { log, _ in
                try await log.ruleSuggestions()
            }
            if options.json {
                print(try ControlCall.json(list))
            } else if list.isEmpty {
                print(t("no suggestions: no pair of named places has been classified the same way \(RuleSuggestions.minimumTrips) times without a rule"))
            } else {
                var rows = [["N", t("When"), t("Makes the trip"), t("Trips")]]
                for suggestion in list {
                    rows.append(["\(suggestion.number)", Words.rule(suggestion.rule), Words.outcome(suggestion.rule),
                                 suggestion.trips.map { "\($0)" }.joined(separator: ", ")])
                }
                print(LogText.align(rows, rightAligned: [0]).joined(separator: "\n"))
                print(t("make one a rule: trackctl rules add --suggestion N; never offer it again: trackctl rules decline N"))
            }
        }
    }

    /// `trackctl rules decline N`.
    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decline", abstract: "Never offer a suggested rule again (kept as a declined rule, which classifies nothing).")

        @ParentCommand var rules: RulesCommand

        @Argument(help: "The suggestion's number (trackctl rules suggest).")
        var number: Int

        func run() async throws {
            let options = rules.trackctl.connection
            var rule = try await RulesCommand.suggestion(number, options: options).rule
            rule.state = .declined
            let declined = try await LogAccess.change(options, .ruleAdd, RuleAddParams(rule: rule, reason: "suggestion declined"),
                                                      as: ClassificationRule.self, command: "rules decline")
            print(options.json ? try ControlCall.json(declined)
                  : t("suggestion declined: \(Words.rule(declined)) is not offered again (kept as rule \(declined.id), declined)"))
        }
    }

    /// `trackctl rules edit N`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Change what a rule makes of a trip, or pause it; trips it classified keep what they got.")

        @ParentCommand var rules: RulesCommand

        @Argument(help: "The rule's number (trackctl rules list).")
        var id: Int64

        @Flag(exclusivity: .exclusive, help: "What the trip becomes.")
        var kind: RuleKind?

        @Flag(inversion: .prefixedNo, help: "A private trip between home and the regular place of work; --no-commute: not one.")
        var commute: Bool?

        @Option(help: "The purpose ('' clears it).")
        var purpose: String?

        @Option(help: "The customer ('' clears it).")
        var customer: String?

        @Flag(help: "Stop classifying trips by it for now.")
        var pause = false

        @Flag(help: "Classify trips by it again.")
        var resume = false

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func validate() throws {
            if pause && resume { throw ValidationError(t("give --pause or --resume, not both")) }
        }

        func run() async throws {
            let options = rules.trackctl.connection
            let changes = RuleChanges(kind: kind?.tripKind, commute: commute, purpose: purpose, customer: customer,
                                      state: pause ? .paused : (resume ? .active : nil))
            let changed = try await LogAccess.change(options, .ruleEdit,
                                                     RuleEditParams(rule: RuleID(id), changes: changes, reason: reason),
                                                     as: ClassificationRule.self, command: "rules edit")
            print(options.json ? try ControlCall.json(changed)
                  : t("rule \(changed.id) changed: \(Words.rule(changed)) → \(Words.outcome(changed)) (\(Words.state(changed.state)))"))
        }
    }

    /// `trackctl rules delete N`.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a rule; trips it classified keep what they got and its name.")

        @ParentCommand var rules: RulesCommand

        @Argument(help: "The rule's number (trackctl rules list).")
        var id: Int64

        @Option(help: "Why (kept in the history).")
        var reason: String?

        func run() async throws {
            let options = rules.trackctl.connection
            let deleted = try await LogAccess.change(options, .ruleDelete, RuleDeleteParams(rule: RuleID(id), reason: reason),
                                                     as: ClassificationRule.self, command: "rules delete")
            print(options.json ? try ControlCall.json(deleted) : t("rule \(deleted.id) deleted: \(Words.rule(deleted))"))
        }
    }

    /// The suggestion numbered `number` in `rule.suggest`'s list.
    static func suggestion(_ number: Int, options: ConnectionOptions) async throws -> RuleSuggestion {
        let list = try await LogAccess.read(options, .ruleSuggest, NoParams(), as: [RuleSuggestion].self) { log, _ in
            try await log.ruleSuggestions()
        }
        guard let chosen = list.first(where: { $0.number == number }) else {
            throw Failure.exit(list.isEmpty ? t("there is no suggestion \(number) (trackctl rules suggest lists none)")
                               : t("there is no suggestion \(number); trackctl rules suggest lists 1 to \(list.count)"),
                               status: ExitStatus.refused, json: options.json)
        }
        return chosen
    }

    /// Minutes from `08:00-18:00`; `nil` unless both are times and the end comes after the start.
    static func hours(_ text: String) -> (start: Int, end: Int)? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = WorkHours.minutes(String(parts[0]).trimmed),
              let end = WorkHours.minutes(String(parts[1]).trimmed), end > start else { return nil }
        return (start, end)
    }

    /// The place a reference names among the log's: its number, or its name's key.
    static func place(_ reference: String, in places: [TrackCore.Place], json: Bool) throws -> PlaceID {
        let text = reference.trimmed
        if let number = Int64(text), let place = places.first(where: { $0.id.rawValue == number }) { return place.id }
        let key = TrackCore.Place.key(text)
        if !key.isEmpty, let place = places.first(where: { TrackCore.Place.key($0.name) == key }) { return place.id }
        throw Failure.exit(places.isEmpty ? t("there is no place '\(reference)' (none are named yet: trackctl place add NAME --here)")
                           : t("there is no place '\(reference)'; known: \(places.map(\.name).joined(separator: ", "))"),
                           status: ExitStatus.refused, json: json)
    }
}

/// What a rule makes a trip: business or private (a rule never leaves a trip unclassified).
enum RuleKind: String, EnumerableFlag {
    case business
    case `private`

    var tripKind: TripKind {
        switch self {
        case .business: .business
        case .private: .private
        }
    }

    static func help(for value: RuleKind) -> ArgumentHelp? {
        switch value {
        case .business: "A business trip (give --purpose)."
        case .private: "A private trip."
        }
    }
}
