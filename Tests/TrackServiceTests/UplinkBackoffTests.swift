import Testing
import TrackCore
@testable import TrackService

/// The wait before an uplink's next attempt (`UplinkConfiguration.reconnectWait`).
struct UplinkBackoffTests {
    private func configuration(max: Double) -> UplinkConfiguration {
        var configuration = UplinkConfiguration()
        configuration.reconnectMax = max
        return configuration
    }

    @Test func theWaitDoublesWithEachFailureUpToTheMaximumWithJitter() {
        let configuration = configuration(max: 120)
        for failures in 1...12 {
            let ceiling = min(120, Double(1 << (failures - 1)))
            for _ in 0..<50 {
                let wait = configuration.reconnectWait(afterFailures: failures)
                #expect(wait >= ceiling / 2 && wait <= ceiling, "after \(failures): \(wait)")
            }
        }
    }

    @Test func aRefusedCarWaitsAMinuteAtLeastEvenWithASmallMaximum() {
        for maximum in [1.0, 2, 30, 120] {
            for failures in 1...5 {
                let wait = configuration(max: maximum).reconnectWait(afterFailures: failures, refused: true)
                #expect(wait >= 60 && wait <= Swift.max(60, maximum), "max \(maximum), after \(failures): \(wait)")
            }
        }
    }
}
