/// Every word of `LogCheck`'s findings and of their listing, in one language (`english`, `german`, `estonian`): the
/// log's people read them in the profile's (`LogProfile.spokenLanguage`). Commands in a fix stay as typed; only the
/// words around them and the values a person fills in (`"what it was for"`) are the language's.
public struct CheckWords: Sendable, LanguageTable {
    public var language: Language
    /// Who asks for `what` in `country` (`nil`: a tax office), and where that is written.
    public var whoAsks: @Sendable (_ country: Country?, _ what: String) -> String
    public var driver: String
    public var plate: String
    public var purposeOfEach: String
    /// A precise purpose is asked for, not `purpose` alone.
    public var precisePurpose: @Sendable (_ purpose: String) -> String
    public var partnersVisited: String
    public var destinationWithAddress: String
    public var destinationOfEach: String
    public var noDriver: String
    public var noPlate: String
    /// What a person fills in for a name, a plate, a reason, a purpose, whom for, an address.
    public var nameValue: String
    public var plateValue: String
    public var reasonValue: String
    public var purposeValue: String
    public var whomValue: String
    public var addressValue: String
    public var unclassified: String
    public var unclassifiedWhy: String
    /// `--business --purpose "…" (or --private)`: the alternative in parentheses.
    public var orPrivate: String
    public var toConfirm: @Sendable (_ rule: String) -> String
    public var toConfirmWhy: String
    /// `trackctl confirm 3 (or trackctl edit 3 … )`.
    public var toConfirmFix: @Sendable (_ confirm: String, _ edit: String) -> String
    public var purposeMissing: String
    public var purposeVague: @Sendable (_ purpose: String) -> String
    public var customerMissing: String
    public var addressMissing: String
    public var destinationMissing: String
    /// `(or a named place with an address)`.
    public var orNamedPlace: String
    /// The postcodes missing: the start's and the end's, the start's, the end's.
    public var postcodes: @Sendable (_ start: Bool, _ end: Bool) -> String
    public var postcodesMissing: @Sendable (_ missing: String) -> String
    public var postcodesWhy: String
    public var postcodesFix: @Sendable (_ edit: String) -> String
    /// `entered 9 days after the trip`, `changed (purpose) 9 days after the trip`.
    public var late: @Sendable (_ fields: [String]?, _ days: Int64) -> String
    public var lateWhy: @Sendable (_ days: Int64) -> String
    public var lateFix: @Sendable (_ days: Int64) -> String
    /// `trip 3 ends at 120.4 km, trip 4 starts at 121.0 km`.
    public var ends: @Sendable (_ previous: TripID, _ end: String, _ trip: TripID, _ start: String) -> String
    public var gap: @Sendable (_ difference: String, _ ends: String) -> String
    public var gapWhy: String
    public var gapFix: @Sendable (_ difference: String) -> String
    public var overlap: @Sendable (_ difference: String, _ ends: String) -> String
    public var overlapWhy: String
    public var overlapFix: @Sendable (_ trip: TripID, _ previous: TripID) -> String
    /// `3 business trips paid at the last rate known: EE's rates are known to hold only to 2026-12-31`.
    public var rateUnconfirmed: @Sendable (_ count: Int, _ country: Country, _ through: CivilDate?) -> String
    public var rateWhy: @Sendable (_ country: Country) -> String
    public var rateFix: @Sendable (_ command: String) -> String
    /// The listing (`trackctl check`, the mail): `trip 3`, `profile`, `why`, `fix`.
    public var trip: @Sendable (_ trip: TripID) -> String
    public var profile: String
    public var why: String
    public var fix: String
    /// `the rules for Germany and every log's`, or every log's alone (no country).
    public var rules: @Sendable (_ country: Country?) -> String
    public var nothing: @Sendable (_ rules: String) -> String
    public var count: @Sendable (_ count: Int, _ rules: String) -> String
}

extension CheckWords {
    /// The findings in English.
    public static let english = CheckWords(
        language: .english,
        whoAsks: { country, what in
            switch country {
            case .germany: "the Finanzamt asks for \(what) (R 8.1 Abs. 9 Nr. 2 LStR)"
            case .estonia: "Maksu- ja Tolliamet asks for \(what) (Vabariigi Valitsuse määrus nr 164 § 4)"
            case .unitedKingdom: "HMRC asks for \(what) (the date, destination, purpose and miles of each business journey)"
            case .unitedStates: "the IRS asks for \(what) (Publication 463, chapter 5: recordkeeping)"
            case nil: "a tax office asks for \(what)"
            }
        },
        driver: "the driver", plate: "the car's registration plate", purposeOfEach: "the purpose of each business trip",
        precisePurpose: { "a precise purpose (a customer, a site, an errand), not \"\($0)\" alone" },
        partnersVisited: "the business partners visited (aufgesuchte Geschäftspartner)",
        destinationWithAddress: "the destination with its address (Reiseziel mit Anschrift)",
        destinationOfEach: "the destination of each business trip",
        noDriver: "the profile names no driver", noPlate: "the profile names no registration plate",
        nameValue: "NAME", plateValue: "PLATE", reasonValue: "…", purposeValue: "what it was for",
        whomValue: "whom or what for", addressValue: "STREET NUMBER, TOWN",
        unclassified: "neither business nor private",
        unclassifiedWhy: "a log's every trip is one or the other; an unclassified one counts as private",
        orPrivate: "or",
        toConfirm: { "classified by rule '\($0)', not confirmed by the driver" },
        toConfirmWhy: "the driver answers for every entry; a classification no one has confirmed is the logger's guess",
        toConfirmFix: { "\($0) (or \($1))" },
        purposeMissing: "business trip without a purpose",
        purposeVague: { "purpose \"\($0)\" says nothing of what the trip was for" },
        customerMissing: "business trip without the business partner visited",
        addressMissing: "business trip without the destination's address",
        destinationMissing: "business trip without its destination",
        orNamedPlace: "or a named place with an address",
        postcodes: { start, end in start && end ? "the start's and the end's postcodes" : start ? "the start's postcode" : "the end's postcode" },
        postcodesMissing: { "business journey without \($0)" },
        postcodesWhy: "HMRC's guidance on employees' business mileage asks the postcode of the start and of the end of "
            + "each business journey, with its reason",
        postcodesFix: { "\($0) --from PLACE --to PLACE --reason \"…\", places whose address has the postcode (trackctl place "
            + "add … --address \"…, SW1A 1AA\"; or --destination with the end's postcode)" },
        late: { fields, days in (fields.map { "changed (\($0.joined(separator: ", ")))" } ?? "entered") + " \(days) days after the trip" },
        lateWhy: { "the Finanzamt accepts a Fahrtenbuch kept promptly (zeitnah, BFH VI R 64/04); entries more than \($0) days "
            + "late may make it reject the whole log" },
        lateFix: { "nothing undoes it: keep entries and changes within \($0) days of the trip" },
        ends: { "trip \($0) ends at \($1), trip \($2) starts at \($3)" },
        gap: { "\($0) missing before it: \($1)" },
        gapWhy: "consecutive entries must chain: the odometer at one's end is the next one's start",
        gapFix: { "trackctl add --distance \($0) --private|--business … for the driving in between, or trackctl odometer set "
            + "with the dashboard's reading" },
        overlap: { "\($0) counted twice: \($1)" },
        overlapWhy: "consecutive entries must chain: an entry cannot start below the previous one's end",
        overlapFix: { "trackctl edit \($0) (or trip \($1)) with the right odometer, or delete the entry counted twice" },
        rateUnconfirmed: { count, country, through in
            (count == 1 ? "a business trip" : "\(count) business trips") + " paid at the last rate known: "
                + (through.map { "\(country.rawValue)'s rates are known to hold only to \($0)" }
                   ?? "the rate table confirms no day of \(country.rawValue)'s rates")
        },
        rateWhy: { country in
            "an allowance is tax-free only at the rate in force on the trip's day, and "
                + "\(country == .unitedKingdom ? "HMRC" : country == .unitedStates ? "the IRS" : "the law") may have set another since"
        },
        rateFix: { "\($0); a new rate goes, with its source, in a file in /etc/trackd/rates.d/ (docs/countries.md, \"The allowance\")" },
        trip: { "trip \($0)" }, profile: "profile", why: "why", fix: "fix",
        rules: { country in country.map { "the rules for \($0.name) and every log's" } ?? "every log's rules (no country in the profile)" },
        nothing: { "nothing to question by \($0)" },
        count: { "\($0) finding\($0 == 1 ? "" : "s") by \($1)" })
}
