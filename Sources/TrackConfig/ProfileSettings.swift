import TrackCore

/// The keys of the `profile:` section: what the mileage log's profile starts with.
enum ProfileSettings {
    static let all: [Setting<ProfileChanges>] = [
        .text("driver", \.driver, "the driver's name"),
        .text("plate", \.plate, "the car's registration plate"),
        .text("company", \.company, "the company the log is kept for"),
        .text("time_zone", \.timeZone, "IANA time zone of dates in the log and its reports") { text in
            isTimeZone(text) ? nil : "an IANA time-zone id such as Europe/Tallinn"
        },
        .parsed("country", \.country, "the country whose tax office the log is kept for") { text in
            Country(code: text).map { .success($0.rawValue) } ?? .failure(ExpectedValue("EE, DE, UK (or GB) or US"))
        },
    ]

    static var keys: [String] { all.map(\.key) }
}
