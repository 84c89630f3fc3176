@testable import TrackCore

/// `2026-04-10` as a day (the allowance tests write their days so).
func day(_ text: String) -> CivilDate {
    CivilDate(iso8601: text)!
}

/// Business trips numbered from 1, each a day and tenths of the country's unit.
func allowanceTrips(_ rows: [(String, Int64)]) -> [MileageAllowance.Trip] {
    rows.enumerated().map { MileageAllowance.Trip(id: TripID(Int64($0.offset + 1)), date: day($0.element.0), tenths: $0.element.1) }
}
