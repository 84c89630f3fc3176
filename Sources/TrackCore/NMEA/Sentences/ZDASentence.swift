/// ZDA, time and date with a four-digit year.
public struct ZDASentence: Sendable, Hashable {
    public var timeOfDay: Int64?
    public var date: CivilDate?

    static func parse(_ fields: NMEAFieldReader) throws(NMEASentenceError) -> ZDASentence {
        let day = try fields.integer(2, "day")
        let month = try fields.integer(3, "month")
        let year = try fields.integer(4, "year")
        var date: CivilDate?
        if let day, let month, let year {
            guard let valid = CivilDate(year: year, month: month, day: day) else { throw fields.invalid(4, "date") }
            date = valid
        }
        return ZDASentence(timeOfDay: try fields.timeOfDay(1), date: date)
    }
}
