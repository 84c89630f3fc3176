import Foundation
import TrackCore
@testable import TrackReports

extension ReportFixture {
    /// The trip recorded in privacy mode (`withheld`): trip 42, private.
    static let withheldID: TripID = 42
    /// The trip whose route was erased (`erased`): trip 47, reclassified private.
    static let erasedID: TripID = 47

    /// The fixture with trip 42 recorded in privacy mode and trip 47 reclassified private with its route erased.
    /// Both entries still carry their tracks and their start and end positions, as if the store had let them
    /// through: the renderers must not print them all the same.
    static func routelessReport() -> MileageReport {
        report(trips: routelessTrips())
    }

    /// The trips of `routelessReport()`.
    static func routelessTrips() -> [ReportTrip] {
        trips().map { entry in
            var entry = entry
            let route: TripRoute
            switch entry.trip.id {
            case withheldID: route = .withheld
            case erasedID: route = .erased
            default: return entry
            }
            entry.trip.route = route
            entry.trip.kind = .private
            entry.trip.startPosition = entry.segments.first?.first?.coordinate
            entry.trip.endPosition = entry.segments.last?.last?.coordinate
            return entry
        }
    }

    /// The would-be coordinates of a trip (every track point and both positions) as the exports print degrees:
    /// 7 decimals (GPX), rounded to 6 decimals as JSON writes them (GeoJSON), and in full (`LogTrip`'s JSON).
    static func coordinateTexts(of entry: ReportTrip) -> Set<String> {
        var coordinates = entry.segments.joined().map(\.coordinate)
        coordinates += [entry.trip.startPosition, entry.trip.endPosition].compactMap { $0 }
        var texts = Set<String>()
        for value in coordinates.flatMap({ [$0.latitude, $0.longitude] }) {
            texts.insert(DecimalText.fixed(value, digits: 7))
            texts.insert("\((value * 1e6).rounded() / 1e6)")
            texts.insert("\(value)")
        }
        return texts
    }

    /// The texts of `texts` that stand in `output` as whole numbers (no digit right before or after).
    static func numbers(_ texts: Set<String>, standingIn output: String) -> [String] {
        let digits = CharacterSet.decimalDigits
        return texts.filter { text in
            var searchRange = output.startIndex..<output.endIndex
            while let found = output.range(of: text, range: searchRange) {
                let before = output[..<found.lowerBound].unicodeScalars.last
                let after = output[found.upperBound...].unicodeScalars.first
                if !(before.map(digits.contains) ?? false) && !(after.map(digits.contains) ?? false) { return true }
                searchRange = found.upperBound..<output.endIndex
            }
            return false
        }.sorted()
    }
}
