/// What a profile change sets; `nil` leaves a field as it is, an empty string clears it.
public struct ProfileChanges: Sendable, Hashable, Codable {
    public var driver: String?
    public var plate: String?
    public var company: String?
    /// An IANA time-zone id such as `Europe/Tallinn`.
    public var timeZone: String?
    /// The car's VIN (17 characters; an empty string clears it, and the next car's is then read again).
    public var vin: String?
    /// The country's code (`EE`, `DE`, `UK`, `US`; an empty string: none).
    public var country: String?
    /// `km` or `mi` (an empty string: the country's).
    public var unit: String?
    /// An employer's own rate, the currency per unit of the country's as a decimal (`0.42`; an empty string: the
    /// country's table).
    public var rate: String?
    /// Whose car: `own` or `company` (an empty string: not said).
    public var car: String?
    /// `en`, `de` or `et` (an empty string: none, each device's own).
    public var language: String?

    public init(driver: String? = nil, plate: String? = nil, company: String? = nil, timeZone: String? = nil,
                vin: String? = nil, country: String? = nil, unit: String? = nil, rate: String? = nil, car: String? = nil,
                language: String? = nil) {
        self.language = language
        self.rate = rate
        self.car = car
        self.country = country
        self.unit = unit
        self.driver = driver
        self.plate = plate
        self.company = company
        self.timeZone = timeZone
        self.vin = vin
    }

    /// Whether anything is asked.
    public var isEmpty: Bool {
        driver == nil && plate == nil && company == nil && timeZone == nil && vin == nil && country == nil && unit == nil
            && rate == nil && car == nil && language == nil
    }

    enum CodingKeys: String, CodingKey {
        case driver, plate, company, vin, country, unit, rate, car, language
        case timeZone = "time_zone"
    }
}
