// Writes demo/drive.nmea: a deterministic, simulated 1 Hz drive through Tallinn, as a u-blox receiver would
// report it (RMC, VTG, GGA, GSA, GST with CRLF and checksums). Made by the trackd project; same licence as trackd.
//
//     swiftc -O scripts/make-demo-drive.swift -o /tmp/make-demo-drive && /tmp/make-demo-drive > demo/drive.nmea
//
// With a number, the route is driven that many times in a row (for benchmarks): `/tmp/make-demo-drive 24`; a
// second number is the rate in Hz (1, 2, 5 or 10): `/tmp/make-demo-drive 1 10` is the route at 10 Hz.
//
// The route: 60 s parked, city streets with three red lights, a main road at 70 km/h, back into town, parked.
// Position noise is a first-order Gauss-Markov error (2 m per axis, 60 s correlation) plus 0.2 m white noise;
// speed is the true speed plus 0.1 m/s noise, as Doppler speed is. The same program always writes the same file.

import Foundation

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12)
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

enum Leg {
    case stop(seconds: Double)
    case straight(metres: Double, kmh: Double)
    case turn(degrees: Double, radius: Double, kmh: Double)
}

let route: [Leg] = [
    .stop(seconds: 60),
    .straight(metres: 400, kmh: 40), .turn(degrees: 90, radius: 15, kmh: 20),
    .straight(metres: 600, kmh: 50), .stop(seconds: 35),
    .straight(metres: 500, kmh: 50), .turn(degrees: -90, radius: 15, kmh: 20),
    .straight(metres: 900, kmh: 50), .stop(seconds: 50),
    .straight(metres: 300, kmh: 40), .turn(degrees: 45, radius: 60, kmh: 40),
    .straight(metres: 4000, kmh: 70), .turn(degrees: -30, radius: 200, kmh: 70),
    .straight(metres: 2000, kmh: 70), .turn(degrees: -120, radius: 20, kmh: 25),
    .straight(metres: 700, kmh: 50), .stop(seconds: 25),
    .straight(metres: 500, kmh: 40), .turn(degrees: 90, radius: 10, kmh: 15),
    .straight(metres: 120, kmh: 20), .stop(seconds: 90),
]

// Kinematics at 1 Hz, with 1.5 m/s² acceleration and 2.0 m/s² braking; distance integrated in 0.1 s steps.
struct State {
    var east = 0.0, north = 0.0, heading = 70.0, speed = 0.0
}

let laps = max(1, CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 1)
let rate = CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) }.flatMap { [1, 2, 5, 10].contains($0) ? $0 : nil } ?? 1
var samples: [(east: Double, north: Double, speed: Double, heading: Double)] = []
var state = State()
let step = 0.1
var clock = 0.0
func record() {
    let phase = (clock * Double(rate)).truncatingRemainder(dividingBy: 1)
    if phase < step * Double(rate) / 2 || phase > 1 - step * Double(rate) / 2 {
        samples.append((state.east, state.north, state.speed, state.heading))
    }
}

for (index, leg) in (0..<laps).flatMap({ _ in route }).enumerated() {
    // Speed to be at when leaving this leg: the next moving leg's speed, or 0 before a stop.
    var exitSpeed = 0.0
    if index + 1 < route.count * laps {
        switch route[(index + 1) % route.count] {
        case .stop: exitSpeed = 0
        case .straight(_, let kmh), .turn(_, _, let kmh): exitSpeed = kmh / 3.6
        }
    }
    switch leg {
    case .stop(let seconds):
        var waited = 0.0
        while waited < seconds {
            state.speed = 0
            record()
            clock += step
            waited += step
        }
    case .straight(let metres, let kmh):
        let target = kmh / 3.6
        var travelled = 0.0
        while travelled < metres {
            let remaining = metres - travelled
            let brakingDistance = (state.speed * state.speed - exitSpeed * exitSpeed) / (2 * 2.0)
            if remaining <= max(brakingDistance, 0) && state.speed > exitSpeed {
                state.speed = max(exitSpeed, state.speed - 2.0 * step, 0.5)
            } else if state.speed < target {
                state.speed = min(target, state.speed + 1.5 * step)
            }
            let distance = state.speed * step
            travelled += distance
            state.east += distance * sin(state.heading * .pi / 180)
            state.north += distance * cos(state.heading * .pi / 180)
            record()
            clock += step
        }
    case .turn(let degrees, let radius, let kmh):
        state.speed = min(state.speed, kmh / 3.6)
        let arc = abs(degrees) * .pi / 180 * radius
        var travelled = 0.0
        while travelled < arc {
            state.speed = max(state.speed, 1)
            let distance = state.speed * step
            travelled += distance
            state.heading += (degrees > 0 ? 1 : -1) * distance / radius * 180 / .pi
            state.east += distance * sin(state.heading * .pi / 180)
            state.north += distance * cos(state.heading * .pi / 180)
            record()
            clock += step
        }
    }
}

// From local metres to WGS-84 degrees around the start, with the ellipsoid's radii there.
let originLatitude = 59.43700, originLongitude = 24.75360
let a = 6_378_137.0, e2 = 0.006_694_379_990_14
let phi = originLatitude * .pi / 180
let w = (1 - e2 * sin(phi) * sin(phi)).squareRoot()
let meridianRadius = a * (1 - e2) / (w * w * w)
let normalRadius = a / w

var random = SplitMix64(state: 20_261_122)
var errorEast = 0.0, errorNorth = 0.0
let sigma = 2.0, tau = 60.0
let decay = exp(-1 / (tau * Double(rate)))
let drive = (1 - decay * decay).squareRoot() * sigma

func checksum(_ body: String) -> String {
    String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
}
func emit(_ body: String) {
    FileHandle.standardOutput.write("$\(body)*\(checksum(body))\r\n".data(using: .ascii)!)
}
func coordinate(_ value: Double, degreesWidth: Int, positive: String, negative: String) -> String {
    let magnitude = abs(value)
    let degrees = Int(magnitude)
    let minutes = (magnitude - Double(degrees)) * 60
    return String(format: "%0\(degreesWidth)d%08.5f,%@", degrees, minutes, value < 0 ? negative : positive)
}

let start = 8 * 3600  // 08:00:00 UTC, 22 November 2026
for (second, sample) in samples.enumerated() {
    errorEast = decay * errorEast + drive * random.gaussian()
    errorNorth = decay * errorNorth + drive * random.gaussian()
    let east = sample.east + errorEast + 0.2 * random.gaussian()
    let north = sample.north + errorNorth + 0.2 * random.gaussian()
    let latitude = originLatitude + north / meridianRadius * 180 / .pi
    let longitude = originLongitude + east / (normalRadius * cos(phi)) * 180 / .pi
    let moving = sample.speed > 0
    let speed = moving ? max(0, sample.speed + 0.1 * random.gaussian()) : abs(0.08 * random.gaussian())
    let course = moving ? sample.heading.truncatingRemainder(dividingBy: 360) + 0.5 * random.gaussian()
        : random.uniform() * 360
    let normalisedCourse = (course + 360).truncatingRemainder(dividingBy: 360)
    let knots = speed * 3600 / 1852
    let t = start + second / rate
    let time = String(format: "%02d%02d%02d.%02d", t / 3600 % 24, t / 60 % 60, t % 60, second % rate * 100 / rate)
    let date = String(format: "%02d1126", 22 + t / 86_400)  // laps past midnight: the next days of November
    let lat = coordinate(latitude, degreesWidth: 2, positive: "N", negative: "S")
    let lon = coordinate(longitude, degreesWidth: 3, positive: "E", negative: "W")
    let satellites = 9 + Int(random.uniform() * 3)
    let hdop = 0.8 + 0.2 * random.uniform()
    emit("GNRMC,\(time),A,\(lat),\(lon),\(String(format: "%.3f", knots)),\(String(format: "%.2f", normalisedCourse)),\(date),,,A,V")
    emit("GNVTG,\(String(format: "%.2f", normalisedCourse)),T,,M,\(String(format: "%.3f", knots)),N,\(String(format: "%.3f", speed * 3.6)),K,A")
    emit("GNGGA,\(time),\(lat),\(lon),1,\(String(format: "%02d", satellites)),\(String(format: "%.2f", hdop)),\(String(format: "%.1f", 35 + 0.5 * random.gaussian())),M,18.1,M,,")
    emit("GNGSA,A,3,02,05,07,09,13,15,18,20,30,,,,\(String(format: "%.2f", hdop * 1.6)),\(String(format: "%.2f", hdop)),\(String(format: "%.2f", hdop * 1.3)),1")
    emit("GNGST,\(time),8.5,3.1,2.4,52.0,\(String(format: "%.1f", sigma * 0.9)),\(String(format: "%.1f", sigma * 0.8)),4.0")
}
