import Foundation
import TestSupport
import Testing
@testable import TrackCore

/// The hand-written `status` answer must be what `JSONEncoder` would have written, byte for byte.
@Suite struct JSONWriterTests {
    /// The control socket's encoder settings (`JSONLines`).
    private func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Compares the two texts so that a failure shows both.
    private func expectSame(_ response: RPCResponse<DaemonStatus>, _ comment: Comment? = nil) throws {
        let written = text(response.jsonLine)
        let expected = text(try encoded(response))
        try #require(written == expected, comment)
    }

    @Test func writesAnIdleDaemonsStatusAsJSONEncoderDoes() throws {
        let status = DaemonStatus(version: "trackd 0.1.0",
                                  source: SourceStatus(address: "gpsd://localhost:2947", state: .connecting, detail: "starting"))
        for id: RPCID? in [.number(7), .number(-3), .string("dash/board"), nil] {
            let response = RPCResponse(id: id, result: status)
            try expectSame(response)
        }
    }

    @Test func writesADrivingStatusWithEveryPartAsJSONEncoderDoes() throws {
        let status = Self.drivingStatus(purpose: "Kunde \"Müller\" / Lager\n\t\u{1}\\ 🚗", seed: 1)
        let response = RPCResponse(id: .number(12), result: status)
        try expectSame(response)
        let decoded = try JSONDecoder().decode(RPCResponse<DaemonStatus>.self, from: Data(response.jsonLine))
        #expect(decoded.result == status)
    }

    @Test func writesRandomStatusesAsJSONEncoderDoes() throws {
        var random = SplitMix64(seed: 5)
        for seed in 0..<300 {
            let status = Self.drivingStatus(purpose: seed % 3 == 0 ? nil : "trip \(seed)", seed: random.next())
            let response = RPCResponse(id: .number(seed), result: status)
            try expectSame(response, "seed \(seed)")
        }
    }

    @Test func leavesOutNumbersJSONCannotHold() throws {
        var status = Self.drivingStatus(purpose: nil, seed: 2)
        status.lastFixAge = .nan
        status.odometer = .infinity
        status.lastFix?.speed = .nan
        let line = RPCResponse(id: .number(1), result: status).jsonLine
        let decoded = try JSONDecoder().decode(RPCResponse<DaemonStatus>.self, from: Data(line))
        #expect(decoded.result?.lastFixAge == nil)
        #expect(decoded.result?.odometer == nil)
        #expect(decoded.result?.lastFix?.speed == nil)
        #expect(decoded.result?.lastFix?.latitude == status.lastFix?.latitude)
    }

    @Test func writesAnErrorResponseAsJSONEncoderDoes() throws {
        let response = RPCResponse<DaemonStatus>(id: .string("a"), error: .invalidParams("status", "'params' should be an object"))
        try expectSame(response)
    }

    /// A status with every optional part present, its numbers drawn from `seed` over many magnitudes.
    static func drivingStatus(purpose: String?, seed: UInt64) -> DaemonStatus {
        var random = SplitMix64(seed: seed)
        func number(_ scale: Double) -> Double {
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            let exponent = Double(random.next() % 13) - 6      // 1e-6 … 1e6 of the scale
            return unit * scale * pow(10, exponent)
        }
        func count() -> Int { Int(random.next() % 100_000) }
        let time = UTCTime(nanosecondsSinceEpoch: 1_795_000_000_000_000_000 + Int64(random.next() % 1_000_000_000) * 1_000_000)  // whole milliseconds, as sent
        let fix = Fix(time: time, mode: .threeD, quality: .dgps, latitude: number(90) - 45, longitude: number(180) - 90,
                      altitudeMSL: number(1000), geoidSeparation: number(50), speed: number(40), track: number(360),
                      eph: number(10), ephSource: .receiver, hdop: number(5), vdop: number(5), pdop: number(5),
                      satellitesUsed: count() % 30, satellitesInView: count() % 40)
        var trip = Trip(number: TripID(Int64(count())), kind: .business, purpose: purpose, calibrationFactor: 1 + number(0.01),
                        startedAt: MonotonicInstant(nanoseconds: 1_000))
        trip.start = time
        trip.measuredDistance = number(100_000)
        trip.idleAlerts = count() % 3
        trip.firstFixAt = MonotonicInstant(nanoseconds: 2_000 + random.next() % 1_000_000_000)
        var statistics = EngineStatistics()
        statistics.accepted = count()
        statistics.rejected = count()
        statistics.speedOnly = count()
        statistics.rejections = [.noFix: count(), .stale: count(), .notAfterLast: count()]
        statistics.positionRejections = [.jump: count(), .inaccurate: count()]
        statistics.speedRejections = [.tooFast: count()]
        let alert = IdleAlert(time: time, stationarySince: time.adding(seconds: -7200),
                              position: Coordinate(latitude: number(90), longitude: -number(180)), tripNumber: trip.number)
        var source = SourceStatus(address: "serial:///dev/ttyACM0?baud=9600", state: .connected,
                                  detail: "u-blox \"M8\" at 9600 baud", stateAge: number(100))
        if count() % 2 == 0 {
            source.chosen = "serial:///dev/serial0?baud=9600"
            source.reason = "NMEA (2 sentences) at 9600 baud on /dev/serial0 (the header's UART); /dev/gps0: \"busy\""
        }
        return DaemonStatus(
            version: "trackd 0.1.0",
            source: source,
            lastFix: fix, lastFixAge: number(1), lastPosition: fix, lastPositionAge: number(1),
            epochs: count(), positionFixes: count(), inputProblems: count(),
            trip: TripView(trip, now: MonotonicInstant(nanoseconds: 4_000_000_000_000)),
            motion: MotionStatus(state: .stationary, since: time), lastAlert: alert, fixes: statistics,
            odometer: number(100_000),
            storage: StorageStatus(state: .failing, detail: "disk full: cannot write /var/lib/trackd/trackd.sqlite",
                                   stateAge: number(100), pendingPoints: count(), pendingRecords: count() % 5,
                                   droppedPoints: count() % 2),
            mail: count() % 3 == 0 ? nil : MailStatus(to: ["driver@example.org", "tax+\"2026\"@example.com"].suffix(count() % 2 + 1),
                                                     monthly: count() % 2 == 0),
            obd: count() % 4 == 0 ? nil : obdStatus(number: number, count: count),
            stick: count() % 3 == 0 ? nil : StickCopy(
                id: Int64(count()), time: time, label: ["TRACKD", "", "Stick \"ü\"\\"][count() % 3],
                filesystem: ["vfat", "exfat", "ext4"][count() % 3], folder: "trackd/AB-123", written: count(),
                unchanged: count(), removed: count() % 3, chainHead: "3f2a",
                problem: count() % 2 == 0 ? nil : "the stick is full"))
    }

    /// An adapter's status with every field set or left out at random.
    static func obdStatus(number: (Double) -> Double, count: () -> Int) -> OBDStatus {
        var obd = OBDStatus(address: "tcp://192.168.0.10:35000", state: [.connecting, .connected, .lost][count() % 3],
                            detail: "192.168.0.10:35000", car: [.unknown, .answering, .silent][count() % 3])
        if count() % 2 == 0 { obd.carDetail = "0100: the car did not answer (NO DATA)" }
        if count() % 2 == 0 { obd.adapter = "ELM327 v1.5" }
        if count() % 2 == 0 { obd.protocolName = "AUTO, ISO 15765-4 (CAN 11/500)" }
        if count() % 2 == 0 { obd.vin = "WP0ZZZ99ZTS390000" }
        if count() % 2 == 0 { obd.logVIN = "WVWZZZ1JZXW000001" }
        if count() % 2 == 0 {
            obd.chosen = "serial:///dev/ttyUSB0?baud=38400"
            obd.reason = "ELM327 v1.5 answered at 38400 baud on /dev/ttyUSB0; /dev/ttyACM0: the receiver's (/dev/gps0)"
        }
        if count() % 2 == 0 { obd.odometerSupported = count() % 2 == 0 }
        if count() % 2 == 0 { obd.odometer = number(100_000) }
        if count() % 2 == 0 { obd.rpm = number(1_000) }
        if count() % 2 == 0 { obd.speed = number(100) }
        if count() % 2 == 0 { obd.volts = number(10) }
        if count() % 2 == 0 { obd.readingAge = number(1) }
        if count() % 2 == 0 { obd.engineRunning = count() % 2 == 0 }
        return obd
    }
}
