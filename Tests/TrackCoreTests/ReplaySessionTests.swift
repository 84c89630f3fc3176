import Foundation
import Testing
@testable import TrackCore

struct ReplaySessionTests {
    /// An NMEA recording of a drive: RMC and GGA at 1 Hz, heading north at 10 m/s for a minute, then parked.
    private func recording() -> String {
        var text = ""
        let origin = Coordinate(latitude: 59.437, longitude: 24.7536)
        for second in 0..<120 {
            let north = Double(min(second, 60)) * 10
            let point = Geodesic.point(east: 0, north: north, from: origin)
            let minutes = (point.latitude - 59) * 60
            let knots = second < 60 ? 10 * 3600 / 1852.0 : 0.05
            let time = String(format: "12%02d%02d", second / 60, second % 60)
            text += NMEA.lines(
                String(format: "GPRMC,%@,A,59%08.5f,N,02445.21600,E,%.3f,0.0,221126,,,A", time, minutes, knots),
                String(format: "GPGGA,%@,59%08.5f,N,02445.21600,E,1,09,0.8,40.0,M,18.0,M,,", time, minutes)
            )
        }
        return text
    }

    @Test func runsTheEngineOverARecordingWithATripFromTheFirstFix() throws {
        var session = ReplaySession()
        session.read(Array(recording().utf8))
        let result = session.finish()
        let trip = try #require(result.trips.first)
        #expect(result.trips.count == 1)
        #expect(trip.start == .iso("2026-11-22T12:00:00Z"))
        #expect(trip.end == .iso("2026-11-22T12:01:59Z"))
        // 10 m/s for 59 s, then the recording stops dead between two reports: the integral of what the receiver
        // reported is 590 m plus half of the last second.
        #expect(abs(trip.measuredDistance - 595) < 0.1)
        #expect(result.distance == trip.distance)
        #expect(result.input.epochs == 120)
        #expect(result.statistics.accepted + result.statistics.speedOnly == 120)
    }

    @Test func readsTheSameWhateverTheChunks() {
        let bytes = Array(recording().utf8)
        var whole = ReplaySession()
        whole.read(bytes)
        var chunked = ReplaySession()
        var start = 0
        while start < bytes.count {
            chunked.read(bytes[start..<min(start + 77, bytes.count)])
            start += 77
        }
        #expect(whole.finish().trips == chunked.finish().trips)
    }
}
