import Foundation
import TrackCore

/// Makes deterministic fixes for engine tests: a vehicle that stands, drives and loses its signal, seen by a
/// receiver with Gauss-Markov position error, white noise and Doppler speed noise.
public struct DriveSimulator {
    /// How the receiver errs.
    public struct Receiver {
        /// Per-axis standard deviation of the slowly varying position error, metres.
        public var sigma = 2.0
        /// Its correlation time, seconds.
        public var tau = 60.0
        /// White noise per axis, metres.
        public var white = 0.2
        /// Speed noise while moving, m/s.
        public var speedNoise = 0.1
        /// Speed reported at rest: |N(0, this)|, m/s.
        public var restSpeedNoise = 0.15
        /// The error estimate (95 %) it reports, metres.
        public var eph = 6.0
    }

    public var receiver = Receiver()
    /// Fixes per second.
    public var rate = 1.0
    public private(set) var fixes: [Fix] = []
    /// The true distance driven at each fix of `fixes`, metres.
    public private(set) var fixDistances: [Double] = []
    /// The truth at each step, fixes or not: the time, the speed (m/s) and the distance driven so far (metres).
    public private(set) var truth: [(time: UTCTime, speed: Double, distance: Double)] = []
    /// The car's own speed as an OBD-II adapter reads it (PID 0D: whole km/h) at each step, fixes or not.
    public var carSpeeds: [(time: UTCTime, kilometresPerHour: Double)] {
        truth.map { ($0.time, ($0.speed * 3.6).rounded()) }
    }
    /// Distance actually driven, metres.
    public private(set) var trueDistance = 0.0
    /// Where the vehicle is, metres east/north of the origin, and where it heads.
    private var east = 0.0
    private var north = 0.0
    private var heading = 90.0
    private var speed = 0.0
    private var time: UTCTime
    private let startTime: UTCTime
    private var errorEast = 0.0
    private var errorNorth = 0.0
    private var random: SplitMix64
    public let origin: Coordinate

    public init(start: UTCTime = UTCTime(iso8601: "2026-11-22T08:00:00Z")!,
                origin: Coordinate = Coordinate(latitude: 59.437, longitude: 24.7536), seed: UInt64 = 1) {
        time = start
        startTime = start
        self.origin = origin
        random = SplitMix64(seed: seed)
    }

    /// The time of the next fix.
    public var now: UTCTime { time }

    /// The time the drive started (before its first fix).
    public var start: UTCTime { startTime }

    /// Where the vehicle truly is now.
    public var position: Coordinate { Geodesic.point(east: east, north: north, from: origin) }

    /// Stands still for `seconds`.
    public mutating func park(_ seconds: Double) {
        speed = 0
        for _ in 0..<Int((seconds * rate).rounded()) { advance(acceleration: 0, turnRate: 0) }
    }

    /// Drives `metres` straight at `kmh`, accelerating at 1.5 m/s² and braking at 2 m/s² to `endKmh` at the end.
    public mutating func drive(_ metres: Double, kmh: Double, endKmh: Double = 0, turnDegrees: Double = 0) {
        let target = kmh / 3.6
        let exit = endKmh / 3.6
        var covered = 0.0
        let turnRate = turnDegrees / max(metres, 1)  // degrees per metre
        // On to the end of the stretch, then brake to the exit speed (a real car does not stop dead).
        while covered < metres || speed > exit + 1e-9 {
            let remaining = metres - covered
            let braking = (speed * speed - exit * exit) / (2 * 2.0)
            var acceleration = 0.0
            if speed > exit && (remaining <= braking || covered >= metres) {
                acceleration = -min(2.0, (speed - exit) * rate)
            } else if speed < target {
                acceleration = min(1.5, (target - speed) * rate)
            }
            let before = trueDistance
            advance(acceleration: acceleration, turnRate: turnRate)
            covered += trueDistance - before
        }
    }

    /// The receiver sends nothing for `seconds` while the vehicle goes on at its speed, or changes it evenly to
    /// `endKmh` (a tunnel).
    public mutating func outage(_ seconds: Double, turnDegrees: Double = 0, endKmh: Double? = nil) {
        let steps = Int((seconds * rate).rounded())
        let acceleration = endKmh.map { ($0 / 3.6 - speed) / seconds } ?? 0
        let turnRate = speed > 0 ? turnDegrees / ((speed + seconds * acceleration / 2) * seconds) : 0
        for _ in 0..<steps { advance(acceleration: acceleration, turnRate: turnRate, silent: true) }
    }

    /// Appends a hand-made fix (for duplicates, jumps and the like).
    public mutating func append(_ fix: Fix) {
        fixDistances.append(trueDistance)
        fixes.append(fix)
    }

    private mutating func advance(acceleration: Double, turnRate: Double, silent: Bool = false) {
        let dt = 1 / rate
        let newSpeed = max(0, speed + acceleration * dt)
        let step = (speed + newSpeed) / 2 * dt
        // Along an arc of constant turn rate the step's chord points along the heading halfway through it.
        let chord = (heading + turnRate * step / 2) * .pi / 180
        heading += turnRate * step
        east += step * sin(chord)
        north += step * cos(chord)
        trueDistance += step
        speed = newSpeed
        time = time.adding(seconds: dt)
        truth.append((time, speed, trueDistance))
        let decay = exp(-dt / receiver.tau)
        let drive = (1 - decay * decay).squareRoot() * receiver.sigma
        errorEast = decay * errorEast + drive * gaussian()
        errorNorth = decay * errorNorth + drive * gaussian()
        guard !silent else { return }
        let measuredEast = east + errorEast + receiver.white * gaussian()
        let measuredNorth = north + errorNorth + receiver.white * gaussian()
        let position = Geodesic.point(east: measuredEast, north: measuredNorth, from: origin)
        let reportedSpeed = speed > 0 ? max(0, speed + receiver.speedNoise * gaussian()) : abs(receiver.restSpeedNoise * gaussian())
        fixDistances.append(trueDistance)
        fixes.append(Fix(
            time: time, mode: .threeD, quality: .gps, latitude: position.latitude, longitude: position.longitude,
            altitudeMSL: 35, speed: reportedSpeed, track: speed > 0 ? heading.truncatingRemainder(dividingBy: 360) : uniform() * 360,
            eph: receiver.eph, ephSource: .receiver, hdop: 0.9, satellitesUsed: 10))
    }

    private mutating func uniform() -> Double {
        Double(random.next() >> 11) / Double(1 << 53)
    }

    private mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}
