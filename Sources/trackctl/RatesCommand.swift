import ArgumentParser
import FoundationEssentials
import SystemPackage
import TrackConfig
import TrackCore
import TrackctlTexts

/// `trackctl rates`: the mileage allowance rates this machine pays by, with their sources and the file and line each
/// was read from (docs/countries.md, "Rates").
struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates", abstract: "List the allowance rates by country and date, with their sources.",
        discussion: """
            The package's table (/usr/share/trackd/rates.conf) and the rows in /etc/trackd/rates.d/*.conf, which
            add to it or replace its row of the same country and day. Each rate says where it was read; a file with
            a wrong line is named with the line and left out (exit 1). Reads this machine's files: no trackd needed.
            trackctl rates --country UK --on 2026-04-10
            """)

    @ParentCommand var trackctl: TrackControl

    @Option(help: ArgumentHelp("Only this country's rates: EE, DE, UK or US.", valueName: "code"))
    var country: String?

    @Option(help: ArgumentHelp("Mark the rate in force on this day (default: today).", valueName: "YYYY-MM-DD"))
    var on: String?

    /// One rate as `--json` gives it.
    struct Row: Codable {
        var country: String
        var from: CivilDate
        var rate: Int64
        var reducedRate: Int64?
        var threshold: Int64?
        var monthlyCap: Int64?
        var source: String
        var origin: String?
        var inForce: Bool

        enum CodingKeys: String, CodingKey {
            case country, from, rate, threshold, source, origin
            case reducedRate = "reduced_rate"
            case monthlyCap = "monthly_cap"
            case inForce = "in_force"
        }
    }

    /// How far one country's rates are known to hold, as `--json` gives it.
    struct Checked: Codable {
        var country: String
        var through: CivilDate
        var source: String
        var origin: String?
    }

    /// Everything `--json` gives.
    struct Listing: Codable {
        var on: CivilDate
        var files: [String]
        var refused: [String]
        var problems: [String]
        var rates: [Row]
        var checked: [Checked]
    }

    func run() async throws {
        let options = trackctl.connection
        let countries: [Country]
        if let country {
            guard let known = Country(code: country) else {
                throw Failure.exit(t("'\(country)' is not a country trackd knows the rules of: EE, DE, UK or US"),
                                   status: ExitStatus.refused, json: options.json)
            }
            countries = [known]
        } else {
            countries = Country.allCases
        }
        let day: CivilDate
        if let on {
            guard let date = CivilDate(iso8601: on) else {
                throw Failure.exit(t("'\(on)' is not a day: YYYY-MM-DD"), status: ExitStatus.refused, json: options.json)
            }
            day = date
        } else {
            day = LogAccess.now().date
        }
        let files = RateFiles.load(environment: ProcessInfo.processInfo.environment)
        let table = files.table
        var rows: [Row] = []
        var checked: [Checked] = []
        for country in countries {
            let inForce = table.inForce(for: country, on: day)
            for rate in table.rates(of: country) {
                rows.append(Row(country: country.rawValue, from: rate.from, rate: rate.rate, reducedRate: rate.reducedRate,
                                threshold: rate.threshold, monthlyCap: rate.monthlyCap, source: rate.source,
                                origin: rate.origin, inForce: rate == inForce))
            }
            if let known = table.checked[country] {
                checked.append(Checked(country: country.rawValue, through: known.through, source: known.source,
                                       origin: known.origin))
            }
        }
        let refused = files.refused.map(\.description)
        if options.json {
            print(try ControlCall.json(Listing(on: day, files: files.files, refused: refused, problems: files.problems,
                                               rates: rows, checked: checked)))
        } else {
            for country in countries {
                let name = "\(country.rawValue) (\(Words.country(country)))", currency = country.currency.rawValue
                print(country.unit == .miles ? t("\(name), in \(currency) per mile") : t("\(name), in \(currency) per kilometre"))
                let rates = table.rates(of: country)
                if rates.isEmpty { print(t("  no rate in the table: no allowance is worked out")) }
                let inForce = table.inForce(for: country, on: day)
                for rate in rates {
                    print("  \(rate.from)  \(Format.rate(rate))\(rate == inForce ? t("   in force on \(day)") : "")")
                    print("              \(rate.source)")
                    if let origin = rate.origin { print(t("              read from \(origin)")) }
                }
                if let known = table.checked[country] {
                    print(day > known.through ? t("  known to hold to \(known.through) (not on \(day): a new rate may apply): \(known.source)")
                                              : t("  known to hold to \(known.through): \(known.source)"))
                    if let origin = known.origin { print(t("              read from \(origin)")) }
                } else {
                    print(t("  the table says of no day that these rates hold: amounts are at the last rate known"))
                }
            }
        }
        for warning in files.warnings {
            _ = try? FileDescriptor.standardError.writeAll(t("trackctl: allowance rates: \(warning)\n").utf8)
        }
        if !files.warnings.isEmpty { throw ExitCode(ExitStatus.refused) }
    }
}
