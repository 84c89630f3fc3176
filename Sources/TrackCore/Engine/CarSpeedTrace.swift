/// The car's own speed (OBD-II PID 0D) as it arrived, kept since the last usable fix: the distance driven through
/// an outage of the receiver (a tunnel, a multi-storey car park) is this speed integrated over the outage.
///
/// The speed is stamped on the monotonic clock when its answer arrived (the adapter has no GPS time), so it is
/// integrated over the monotonic time between the fixes on either side of the outage: a car's speed times the time
/// that passed.
struct CarSpeedTrace: Sendable {
    /// Readings kept at most (two hours at one a second); the oldest go first.
    static let capacity = 7200

    private var readings: [(at: MonotonicInstant, speed: Double)] = []

    /// Keeps a speed, m/s, that arrived at `instant` (an earlier instant than the last one kept is dropped).
    mutating func add(_ speed: Double, at instant: MonotonicInstant) {
        guard speed.isFinite, speed >= 0, readings.last.map({ instant > $0.at }) ?? true else { return }
        if readings.count >= Self.capacity { readings.removeFirst(readings.count - Self.capacity + 1) }
        readings.append((instant, speed))
    }

    /// Forgets what lies before `instant`, keeping the last reading before it (the speed at that moment).
    mutating func forget(before instant: MonotonicInstant) {
        guard let last = readings.lastIndex(where: { $0.at <= instant }), last > 0 else { return }
        readings.removeFirst(last)
    }

    /// Metres driven from `start` to `end` by the car's speed, or `nil` if the readings do not cover that time: a
    /// reading at most `interval` seconds before `start`, one at most `interval` seconds before `end`, and none
    /// further than `interval` apart between them (the car stopped answering, or the adapter was lost).
    ///
    /// Between two readings the speed changes linearly (trapezoids, as the receiver's Doppler speed is integrated):
    /// from the last reading before `start` to the first one after it, and so on; after the last reading before
    /// `end` it stays at that reading.
    func distance(from start: MonotonicInstant, to end: MonotonicInstant, interval: Double) -> Double? {
        guard end > start, let first = readings.lastIndex(where: { $0.at <= start }),
              start.seconds(since: readings[first].at) <= interval
        else { return nil }
        var metres = 0.0
        var previous = (at: start, speed: readings[first].speed)
        var previousArrival = readings[first].at
        for reading in readings[(first + 1)...] {
            guard reading.at <= end else { break }
            guard reading.at.seconds(since: previousArrival) <= interval else { return nil }
            metres += (previous.speed + reading.speed) / 2 * reading.at.seconds(since: previous.at)
            previous = reading
            previousArrival = reading.at
        }
        guard end.seconds(since: previousArrival) <= interval else { return nil }
        return metres + previous.speed * end.seconds(since: previous.at)
    }

    /// When the car came to rest after `start`, as the readings up to `end` tell: the first of the 0 km/h readings
    /// that end them (`start` if it stood from then on), or `end` while it still answered moving at most `interval`
    /// seconds before; `nil` when they stopped while it moved (the adapter lost: how far it went is unknown).
    func rest(after start: MonotonicInstant, until end: MonotonicInstant, interval: Double) -> MonotonicInstant? {
        guard var index = readings.lastIndex(where: { $0.at <= end }) else { return nil }
        if readings[index].speed > 0 {
            return end.seconds(since: readings[index].at) <= interval ? end : nil
        }
        while index > 0, readings[index - 1].speed == 0, readings[index - 1].at > start { index -= 1 }
        return max(readings[index].at, start)
    }
}
