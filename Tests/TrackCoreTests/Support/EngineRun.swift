import Foundation
import TestSupport
@testable import TrackCore

/// Runs fixes through an engine with a clock made from their times, as replay does, and collects the events.
struct EngineRun {
    var engine: TrackEngine
    var events: [EngineEvent] = []
    /// The monotonic clock: 1000 s plus GPS seconds since the first fix.
    private var origin: UTCTime?

    init(configuration: EngineConfiguration = EngineConfiguration()) {
        engine = TrackEngine(configuration: configuration)
    }

    /// The monotonic instant for a GPS time.
    mutating func clock(_ time: UTCTime) -> MonotonicInstant {
        if origin == nil { origin = time }
        return MonotonicInstant(nanoseconds: UInt64(1_000_000_000_000 + time.nanosecondsSinceEpoch - origin!.nanosecondsSinceEpoch))
    }

    mutating func start(_ kind: TripKind = .business, purpose: String? = nil, at time: UTCTime,
                        measuredSince: Double? = nil) {
        let instant = clock(time)
        engine.handle(.startTrip(kind, purpose: purpose, at: instant, measuredSince: measuredSince)) { events.append($0) }
    }

    mutating func stop(at time: UTCTime, atStandstill: Bool = false) {
        let instant = clock(time)
        engine.handle(.stopTrip(purpose: nil, at: instant, atStandstill: atStandstill)) { events.append($0) }
    }

    mutating func feed(_ fixes: [Fix]) {
        for fix in fixes {
            let instant = clock(fix.time!)
            engine.handle(.fix(fix, receivedAt: instant)) { events.append($0) }
        }
    }

    /// Feeds `fixes` and the car's speeds (km/h) between them and after them, in the order of their times (a speed
    /// before a fix of the same time).
    mutating func feed(_ fixes: [Fix], carSpeeds: [(time: UTCTime, kilometresPerHour: Double)]) {
        var speeds = carSpeeds[...]
        for fix in fixes {
            while let next = speeds.first, next.time <= fix.time! {
                let instant = clock(next.time)
                engine.handle(.carSpeed(next.kilometresPerHour / 3.6, at: instant)) { events.append($0) }
                speeds = speeds.dropFirst()
            }
            feed([fix])
        }
        for next in speeds {
            let instant = clock(next.time)
            engine.handle(.carSpeed(next.kilometresPerHour / 3.6, at: instant)) { events.append($0) }
        }
    }

    mutating func tick(at time: UTCTime) {
        let instant = clock(time)
        engine.handle(.tick(instant)) { events.append($0) }
    }

    var alerts: [IdleAlert] {
        events.compactMap { if case .idle(let alert) = $0 { return alert } else { return nil } }
    }

    var endedTrips: [Trip] {
        events.compactMap { if case .tripEnded(let trip) = $0 { return trip } else { return nil } }
    }

    var gaps: [GapReport] {
        events.compactMap { if case .gap(let gap) = $0 { return gap } else { return nil } }
    }
}
