import ArgumentParser
import TrackCore
import TrackStore
import TrackctlTexts

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
                throw ValidationError(t("nothing to change: give --driver, --plate, --company, --time-zone, --vin, --country, --unit, --rate, --car or --language"))
            }
            if let car = car?.trimmingWhitespace, !car.isEmpty, CarOwnership(rawValue: car.lowercased()) == nil {
                throw ValidationError(t("'\(car)' is not whose car: own or company"))
            }
            if let language = language?.trimmingWhitespace, !language.isEmpty, Language(rawValue: language.lowercased()) == nil {
                throw ValidationError(t("'\(language)' is not a language trackd speaks: en, de or et"))
            }
            if let country = country?.trimmingWhitespace, !country.isEmpty, Country(code: country) == nil {
                throw ValidationError(t("'\(country)' is not a country trackd knows the rules of: EE, DE, UK or US"))
            }
            if let unit = unit?.trimmingWhitespace, !unit.isEmpty, DistanceUnit(name: unit) == nil {
                throw ValidationError(t("'\(unit)' is not a unit: km or mi"))
            }
            if let rate = rate?.trimmingWhitespace, !rate.isEmpty, AllowanceRate.thousandths(rate) == nil {
                throw ValidationError(t("'\(rate)' is not a rate: the currency per unit, more than 0 and less than 10, such as 0.42"))
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
        guard let country = profile.country else { return t("(none)") }
        guard profile.paysAllowance else { return t("none: a company car has no mileage allowance") }
        guard let rate = profile.rate else { return t("the country's table (docs/countries.md)") }
        return t("\(Format.rate(AllowanceRate.own(rate, country: country))) (the profile's own)")
    }

    static func describe(_ profile: LogProfile) -> String {
        func value(_ text: String?) -> String { (text?.isEmpty ?? true) ? t("(not set)") : text! }
        let car = profile.car.map { $0 == .company ? t("a company car") : t("the driver's own") } ?? t("(not said: the driver's own)")
        let unit = (profile.distanceUnit == .miles ? t("miles") : t("kilometres")) + (profile.unit == nil ? "" : t(" (the profile's own)"))
        let rows = [
            (t("driver"), value(profile.driver)),
            (t("plate"), value(profile.plate)),
            (t("company"), value(profile.company)),
            (t("VIN"), value(profile.vin)),
            (t("car"), car),
            (t("country"), profile.country.map { "\($0.rawValue) (\(Words.country($0)))" } ?? t("(none)")),
            (t("unit"), unit),
            (t("rate"), rate(profile)),
            (t("time zone"), profile.timeZone),
            (t("language"), profile.language.map { "\($0.rawValue) (\($0.ownName))" } ?? t("(none: each device's own)")),
            (t("calibration"), Format.figure("\(profile.calibrationFactor)")),
        ]
        let width = max(13, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { $0.0.padding(toLength: width) + $0.1 }.joined(separator: "\n")
    }
}
