/// Who and what the mileage log is about: one per log.
public struct LogProfile: Sendable, Hashable, Codable {
    public var driver: String?
    public var plate: String?
    public var company: String?
    /// The car's vehicle identification number: read from the car (OBD-II) when the log first meets it, or set by
    /// hand; a car with another one is not this log's car.
    public var vin: String?
    /// The IANA time zone in which dates, weeks and months of the log are counted (`Europe/Tallinn`).
    public var timeZone: String
    /// The factor applied to measured GPS distance for new trips (from odometer readings; 1 until there are two).
    public var calibrationFactor: Double
    /// The country whose tax office the log is kept for (its rules, its allowance, its unit); `nil`: none.
    public var country: Country?
    /// The unit a person reads distances in, where the profile sets its own; else the country's, else kilometres.
    public var unit: DistanceUnit?
    /// An employer's own mileage rate in place of the country's table: thousandths of the country's currency per
    /// unit of the country's (0.42 €/km: 420); `nil`: the table's.
    public var rate: Int64?
    /// Whose car it is; `nil`: not said, taken as the driver's own (the allowance is worked out).
    public var car: CarOwnership?
    /// The language trackd speaks to the log's people in (the page where a device has not chosen its own, trackctl,
    /// the mail); `nil`: each device's or environment's own, else English.
    public var language: Language?

    public init(driver: String? = nil, plate: String? = nil, company: String? = nil, timeZone: String = "UTC",
                calibrationFactor: Double = 1, vin: String? = nil, country: Country? = nil, unit: DistanceUnit? = nil,
                rate: Int64? = nil, car: CarOwnership? = nil, language: Language? = nil) {
        self.language = language
        self.rate = rate
        self.car = car
        self.country = country
        self.unit = unit
        self.driver = driver
        self.plate = plate
        self.company = company
        self.vin = vin
        self.timeZone = timeZone
        self.calibrationFactor = calibrationFactor
    }

    enum CodingKeys: String, CodingKey {
        case driver, plate, company, vin, country, unit, rate, car, language
        case timeZone = "time_zone"
        case calibrationFactor = "calibration_factor"
    }

    /// Whether a mileage allowance is worked out for the business trips: with a country, for a car that is not a
    /// company car.
    public var paysAllowance: Bool {
        country != nil && car != .company
    }

    /// The language trackd speaks to the log's people in (`check`'s findings, the mail): the profile's, else English.
    /// (The page puts a device's own choice first and the browser's last: docs/web.md. The report for the tax office
    /// is in its country's language whatever this says.)
    public var spokenLanguage: Language {
        language ?? .english
    }

    /// The unit distances are shown in: the profile's own, else its country's, else kilometres.
    public var distanceUnit: DistanceUnit {
        unit ?? country?.unit ?? .kilometres
    }

    /// Whether `text` is a vehicle identification number as ISO 3779 writes one: 17 characters, digits and capital
    /// letters other than I, O and Q.
    public static func isVIN(_ text: String) -> Bool {
        text.utf8.count == 17 && text.utf8.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || ((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    && byte != UInt8(ascii: "I") && byte != UInt8(ascii: "O") && byte != UInt8(ascii: "Q"))
        }
    }
}
