import ArgumentParser
import TrackCore
import TrackStore

/// `trackctl profile`: the log's driver, plate, company, time zone, car (VIN, whose), country and unit.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "The log's driver, car plate, company, time zone, car (VIN), country and unit.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    @ParentCommand var trackctl: TrackControl

    /// `trackctl profile show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the profile.")

        @ParentCommand var profile: ProfileCommand

        func run() async throws {
            let options = profile.trackctl.connection
            let value = try await LogAccess.read(options, .profile, NoParams(), as: LogProfile.self) { log, _ in
                try await log.profile()
            }
            print(options.json ? try ControlCall.json(value) : ProfileCommand.describe(value))
        }
    }

    /// `trackctl profile set`.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Change the profile (each change is kept in the history).",
            discussion: "trackctl profile set --driver \"Anna Tamm\" --plate \"123 ABC\" --company \"Tamm OÜ\" --time-zone Europe/Tallinn")

        @ParentCommand var profile: ProfileCommand

        @Option(help: "The driver's name.") var driver: String?
        @Option(help: "The car's registration plate.") var plate: String?
        @Option(help: "The company the log is kept for.") var company: String?
        @Option(help: ArgumentHelp("The IANA time zone dates and times are given in.", valueName: "Area/City"))
        var timeZone: String?
        @Option(help: ArgumentHelp(
            "The car's VIN (17 characters; read from the car by an OBD-II adapter when the log has none; \"\" clears it).",
            valueName: "VIN"))
        var vin: String?
        @Option(help: ArgumentHelp(
            "The country whose tax office the log is kept for: EE, DE, UK or US (its rules, its allowance, its unit; \"\" for none).",
            valueName: "CODE"))
        var country: String?
        @Option(help: ArgumentHelp("The unit distances are shown in, if not the country's: km or mi (\"\" for the country's).",
                                   valueName: "km|mi"))
        var unit: String?
        @Option(help: ArgumentHelp(
            "An employer's own mileage rate instead of the country's table: the currency per unit of the country's, such as 0.42 (no threshold, no cap; \"\" for the table's).",
            valueName: "RATE"))
        var rate: String?
        @Option(help: ArgumentHelp(
            "Whose car: own (the driver's own: the mileage allowance is worked out) or company (a company car: none; \"\" for not said).",
            valueName: "own|company"))
        var car: String?
        @Option(help: ArgumentHelp(
            "The language trackd speaks to the log's people in: en, de or et (the page where a device has not chosen its own, trackctl, the mail; \"\" for none).",
            valueName: "en|de|et"))
        var language: String?
        @Option(help: "Why it changes (kept in the history).") var reason: String?

        private var changes: ProfileChanges {
            ProfileChanges(driver: driver, plate: plate, company: company, timeZone: timeZone, vin: vin, country: country,
                           unit: unit, rate: rate, car: car, language: language)
        }

        func validate() throws {
            if changes.isEmpty {
                throw ValidationError("nothing to change: give --driver, --plate, --company, --time-zone, --vin, --country, --unit, --rate, --car or --language")
            }
            if let car = car?.trimmingWhitespace, !car.isEmpty, CarOwnership(rawValue: car.lowercased()) == nil {
                throw ValidationError("'\(car)' is not whose car: own or company")
            }
            if let language = language?.trimmingWhitespace, !language.isEmpty, Language(rawValue: language.lowercased()) == nil {
                throw ValidationError("'\(language)' is not a language trackd speaks: en, de or et")
            }
            if let country = country?.trimmingWhitespace, !country.isEmpty, Country(code: country) == nil {
                throw ValidationError("'\(country)' is not a country trackd knows the rules of: EE, DE, UK or US")
            }
            if let unit = unit?.trimmingWhitespace, !unit.isEmpty, DistanceUnit(name: unit) == nil {
                throw ValidationError("'\(unit)' is not a unit: km or mi")
            }
            if let rate = rate?.trimmingWhitespace, !rate.isEmpty, AllowanceRate.thousandths(rate) == nil {
                throw ValidationError("'\(rate)' is not a rate: the currency per unit, more than 0 and less than 10, such as 0.42")
            }
        }

        func run() async throws {
            let options = profile.trackctl.connection
            let value = try await LogAccess.change(options, .profileSet, ProfileParams(changes: changes, reason: reason),
                                                   as: LogProfile.self, command: "profile set")
            print(options.json ? try ControlCall.json(value) : ProfileCommand.describe(value))
        }
    }

    /// `0.42 €/km (the profile's own)`, `the country's table`, `none: a company car`, or `(none)` without a country.
    static func rate(_ profile: LogProfile) -> String {
        guard let country = profile.country else { return "(none)" }
        guard profile.paysAllowance else { return "none: a company car has no mileage allowance" }
        guard let rate = profile.rate else { return "the country's table (docs/countries.md)" }
        return AllowanceRate.own(rate, country: country).summary + " (the profile's own)"
    }

    static func describe(_ profile: LogProfile) -> String {
        func value(_ text: String?) -> String { (text?.isEmpty ?? true) ? "(not set)" : text! }
        return """
            driver       \(value(profile.driver))
            plate        \(value(profile.plate))
            company      \(value(profile.company))
            VIN          \(value(profile.vin))
            car          \(profile.car.map { $0 == .company ? "a company car" : "the driver's own" } ?? "(not said: the driver's own)")
            country      \(profile.country.map { "\($0.rawValue) (\($0.name))" } ?? "(none)")
            unit         \(profile.distanceUnit == .miles ? "miles" : "kilometres")\(profile.unit == nil ? "" : " (the profile's own)")
            rate         \(rate(profile))
            time zone    \(profile.timeZone)
            language     \(profile.language.map { "\($0.rawValue) (\($0.ownName))" } ?? "(none: each device's own)")
            calibration  \(profile.calibrationFactor)
            """
    }
}
