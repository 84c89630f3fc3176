import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TrackCore
@testable import TrackInput

/// An OBD source against ELM327-emulator (scripts/elm327-emulator): its default car as it comes, and trackd's car
/// (Tests/ELM327/trackd_car.py) where a test needs an odometer or a car it can drive; over the emulator's
/// pseudo-terminal and over TCP, as USB and Wi-Fi adapters are reached.
@Suite(.serialized) struct OBDSourceTests {
    /// The polling made quick, so the tests wait for few seconds; the dialogue is the same.
    static let quick: ELM327Dialogue.Configuration = {
        var configuration = ELM327Dialogue.Configuration()
        configuration.motionInterval = 0.2
        configuration.voltageInterval = 0.5
        configuration.odometerInterval = 0.5
        configuration.carRetryInterval = 0.5
        return configuration
    }()

    /// trackd's car on the emulator's pseudo-terminal, set as `car` says (else as it starts), read by an OBD source at
    /// the quick pace while `body` runs; what the source reported.
    static func readTrackdCar(_ car: ELM327Emulator.CarState?,
                              _ body: (ELM327Emulator, OBDEventCollector) async throws -> Void) async throws -> OBDEventCollector {
        let directory = try TemporaryDirectory()
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, car: .trackd, in: directory.path)
        defer { emulator.stop() }
        if let car { try emulator.drive(car) }
        let events = OBDEventCollector()
        let device = try #require(emulator.devicePath)
        try await events.collect(from: OBDSource(address: .serial(path: device, baud: 38400), configuration: quick)) {
            try await body(emulator, events)
        }
        return events
    }

    @Test func readsWhatTheEmulatorsDefaultCarAnswersOverAPseudoTerminal() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path)
        defer { emulator.stop() }
        let device = try #require(emulator.devicePath)
        let events = OBDEventCollector()

        try await events.collect(from: OBDSource(address: .serial(path: device, baud: 38400), configuration: Self.quick)) {
            try #require(await events.wait { $0.speeds.count >= 2 && $0.engineSpeeds.count >= 2 && $0.voltages.count >= 2 })
        }

        // What ELM327-emulator 4.0.0's default car answers (read over TCP by hand before trusting it: docs/obd.md).
        let dialogue = events.dialogue
        #expect(dialogue.first == .adapter("ELM327 v1.5"))
        #expect(dialogue.contains(.protocolName("AUTO, ISO 15765-4 (CAN 11/500)")))
        #expect(dialogue.contains(.vin("WP0ZZZ99ZTS390000")))
        #expect(dialogue.contains(.odometerSupport(false)), "the default car answers 01A0 and 01A6 with NO DATA")
        #expect(!dialogue.contains(.odometerSupport(true)))
        // Its speed, engine speed and voltage step through sequences of its own, from these.
        #expect(events.speeds.first == 4)
        #expect(events.engineSpeeds.first == 620)
        #expect(events.voltages.first == 13.1)
        #expect(events.states.first == .connecting)
        #expect(events.states.dropFirst().first == .connected("\(device) at 38400 baud"))
        #expect(events.lostReasons.isEmpty)
        #expect(!dialogue.contains { if case .unanswered = $0 { true } else { false } }, "\(dialogue)")
    }

    @Test func followsACarWithAnOdometerOverTCP() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await ELM327Emulator(link: .tcp, car: .trackd, in: directory.path)
        defer { emulator.stop() }
        var car = ELM327Emulator.CarState()
        car.odometer = 23456.7
        car.volts = 14.2
        car.rpm = 780
        try emulator.drive(car)
        let events = OBDEventCollector()
        let port = try #require(emulator.port)

        try await events.collect(from: OBDSource(address: .tcp(host: "127.0.0.1", port: port), configuration: Self.quick)) {
            try #require(await events.wait { $0.odometers.contains(23456.7) && $0.engineSpeeds.contains(780) })
            // Driving on: 50 km/h, 1800 rpm, 1.2 km further.
            car.speed = 50
            car.rpm = 1800
            car.odometer = 23457.9
            try emulator.drive(car)
            try #require(await events.wait { $0.odometers.last == 23457.9 && $0.speeds.last == 50 && $0.engineSpeeds.last == 1800 })
        }

        let dialogue = events.dialogue
        #expect(dialogue.contains(.odometerSupport(true)))
        #expect(!dialogue.contains(.odometerSupport(false)))
        #expect(dialogue.contains(.vin("WP0ZZZ99ZTS390000")))
        #expect(events.voltages.contains(14.2))
        #expect(events.states.dropFirst().first == .connected("127.0.0.1:\(port)"))
        // Every odometer reading is one the car had: nothing in between, nothing invented.
        #expect(Set(events.odometers).isSubset(of: [23456.7, 23457.9]))
    }

    @Test func saysTheCarWentSilentWhenTheEngineStopsAndFindsItAgain() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await ELM327Emulator(link: .tcp, car: .trackd, in: directory.path)
        defer { emulator.stop() }
        var car = ELM327Emulator.CarState()
        car.rpm = 800
        car.volts = 14.1
        try emulator.drive(car)
        let events = OBDEventCollector()
        let port = try #require(emulator.port)

        try await events.collect(from: OBDSource(address: .tcp(host: "127.0.0.1", port: port), configuration: Self.quick)) {
            try #require(await events.wait { $0.engineSpeeds.contains(800) })
            // Engine off: the control units stop answering, the battery drops below the alternator's voltage.
            car.engine = false
            car.volts = 12.3
            try emulator.drive(car)
            try #require(await events.wait { !$0.silences.isEmpty && $0.voltages.last == 12.3 })
            let silent = events.count
            car.engine = true
            car.volts = 14.0
            try emulator.drive(car)
            // Waits for the engine's speed and the voltage read after the silence, not for any sign of the car:
            // once the search finds the car again, speed may come before rpm, and the voltage is read every 5 s.
            try #require(await events.wait { events in
                let since = events.dialogue(after: silent)
                return since.contains(.voltage(14.0))
                    && since.contains { if case .reading(.engineSpeed(800), _) = $0 { true } else { false } }
            })
            #expect(events.carAnswers >= 2)
        }

        #expect(events.silences.first?.contains("NO DATA") == true, "\(events.silences)")
        #expect(events.lostReasons.isEmpty, "a silent car is not a lost adapter")
    }

    @Test func goesOnThroughNoiseHalfAnswersAndABusError() async throws {
        var car = ELM327Emulator.CarState()
        car.speed = 20
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { $0.speeds.contains(20) })
            // Noise, then half an answer: unusable, said, and not taken for a silent car.
            car.fault = "4#!0D 3F"
            try emulator.drive(car)
            try #require(await events.wait { $0.unanswered.contains { $0.contains("'4#!0D 3F'") } })
            car.fault = "410"
            try emulator.drive(car)
            try #require(await events.wait { $0.unanswered.contains { $0.contains("'410'") } })
            #expect(events.silences.isEmpty, "noise says nothing about the car")
            // A bus error: the car counts as silent and is asked for again.
            car.fault = "CAN ERROR"
            try emulator.drive(car)
            try #require(await events.wait { $0.silences.contains { $0.contains("CAN ERROR") } })
            // Over: the car answers again, at its new speed.
            car.fault = nil
            car.speed = 33
            try emulator.drive(car)
            try #require(await events.wait { $0.speeds.last == 33 })
        }

        #expect(Set(events.speeds).isSubset(of: [20, 33]), "nothing read from the noise: \(Set(events.speeds))")
        #expect(events.lostReasons.isEmpty, "the adapter itself was there throughout")
    }

    @Test func answersTrackdCannotUseMakeTheCarSilentAndAnAdapterThatResetItselfIsSetUpAgain() async throws {
        var car = ELM327Emulator.CarState()
        car.speed = 20
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { $0.speeds.contains(20) })
            // Words without their spaces and a refusal: no data from the car, so it is silent (the ignition trip
            // closes), and it is found again when it answers.
            for fault in ["NODATA", "BUSINIT: ...ERROR", "7F 01 12"] {
                let silences = events.silences.count
                let answers = events.carAnswers
                car.fault = fault
                try emulator.drive(car)
                try #require(await events.wait { $0.silences.count > silences }, "\(fault): \(events.unanswered.suffix(3))")
                car.fault = nil
                try emulator.drive(car)
                try #require(await events.wait { $0.carAnswers > answers }, "found again after \(fault)")
            }
            // The adapter reset itself (its supply dipped, a fatal CAN error, its greeting in place of an answer):
            // set up again from the reset, echo and headers off once more.
            for fault in ["LV RESET", "ERR94", "ELM327 v1.5"] {
                let before = events.adapterGreetings
                car.fault = fault
                try emulator.drive(car)
                try #require(await events.wait { $0.adapterGreetings > before }, "\(fault): \(events.unanswered.suffix(3))")
                car.fault = nil
                car.speed = 40
                try emulator.drive(car)
                try #require(await events.wait { $0.speeds.last == 40 }, "read again after \(fault)")
                car.speed = 20
                try emulator.drive(car)
                try #require(await events.wait { $0.speeds.last == 20 })
            }
        }

        #expect(events.silences.contains { $0.contains("refused") }, "\(events.silences)")
        #expect(events.unanswered.contains { $0.contains("reset itself") })
        #expect(events.lostReasons.isEmpty, "the adapter itself was there throughout")
    }

    @Test func readsACarThroughAnAdapterThatKeepsItsHeadersOn() async throws {
        var car = ELM327Emulator.CarState()
        car.headers = true
        car.speed = 37
        car.odometer = 23456.7
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { $0.speeds.contains(37) && $0.odometers.contains(23456.7) },
                         "\(events.dialogue.suffix(8))")
        }
        // Every answer with its control unit's address (7E8) and frame byte; the VIN in four CAN frames.
        #expect(events.vins == ["WP0ZZZ99ZTS390000"], "\(events.dialogue.prefix(12))")
        #expect(events.silences.isEmpty, "\(events.silences)")
    }

    @Test func findsTheOdometerWhenAnotherControlUnitAnswersFirst() async throws {
        var car = ELM327Emulator.CarState()
        car.units = 2
        car.odometer = 34567.8
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { !$0.odometerSupport.isEmpty }, "\(events.dialogue.suffix(8))")
        }
        #expect(events.odometerSupport.first == true, "01 A0 from two units: the engine's lists A6")
        #expect(events.odometers.first == 34567.8)
    }

    @Test func readsAVINSentInFiveLinesAsJ1850AndKLineCarsDo() async throws {
        var car = ELM327Emulator.CarState()
        car.vinLines = true
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { !$0.odometerSupport.isEmpty }, "\(events.dialogue.suffix(8))")
        }
        #expect(events.vins == ["WP0ZZZ99ZTS390000"], "\(events.dialogue.prefix(12))")
    }

    @Test func findsACarAgainWhoseProtocolSearchTakesEightSeconds() async throws {
        var car = ELM327Emulator.CarState()
        car.speed = 20
        let events = try await Self.readTrackdCar(car) { emulator, events in
            try #require(await events.wait { $0.speeds.contains(20) })
            // The engine off: the car silent. Started again, the adapter searches for its protocol for 8 s before
            // it answers 01 00, as on a slow-init (K-line) car.
            car.engine = false
            try emulator.drive(car)
            try #require(await events.wait { !$0.silences.isEmpty })
            let answers = events.carAnswers
            car.engine = true
            car.searchSeconds = 8
            car.speed = 31
            try emulator.drive(car)
            try #require(await events.wait(upTo: 90) { $0.carAnswers > answers && $0.speeds.last == 31 },
                         "\(events.dialogue.suffix(10))")
        }
        #expect(events.lostReasons.isEmpty, "\(events.lostReasons)")
    }

    @Test func aUSBAdapterUnpluggedAndPluggedBackIsSaidOnceAndTalkedToAgain() async throws {
        let directory = try TemporaryDirectory()
        // udev's stable name for the adapter, re-made when it is plugged in again (the pseudo-terminal changes).
        let link = directory.path + "/obd0"
        let first = try await ELM327Emulator(link: .pseudoTerminal, car: .trackd, in: directory.path)
        defer { first.stop() }
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try #require(first.devicePath))
        var car = ELM327Emulator.CarState()
        car.speed = 25
        try first.drive(car)
        let events = OBDEventCollector()
        var second: ELM327Emulator?
        defer { second?.stop() }

        try await events.collect(from: OBDSource(address: .serial(path: link, baud: 38400), configuration: Self.quick)) {
            try #require(await events.wait { $0.speeds.contains(25) })
            // Unplugged: the link goes with the device (and never points at another test's pseudo-terminal that
            // gets the same number meanwhile).
            try FileManager.default.removeItem(atPath: link)
            first.stop()
            try #require(await events.wait { !$0.lostReasons.isEmpty })
            let back = try await ELM327Emulator(link: .pseudoTerminal, car: .trackd, in: directory.path)
            second = back
            car.speed = 47
            try back.drive(car)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try #require(back.devicePath))
            try #require(await events.wait { $0.connections >= 2 && $0.speeds.last == 47 },
                         "\(events.states) \(events.dialogue.suffix(12)) \(back.isRunning) \(back.output.suffix(800))")
        }

        #expect(events.lostReasons.count == 1, "said once while it stayed unplugged: \(events.lostReasons)")
        #expect(events.lostReasons.first?.hasPrefix("adapter serial://\(link)?baud=38400 lost: ") == true, "\(events.lostReasons)")
        #expect(events.states.compactMap { if case .connected(let detail) = $0 { detail } else { nil } }.allSatisfy {
            $0.hasPrefix("\(link) (/dev/pts/") && $0.hasSuffix(") at 38400 baud")
        }, "\(events.states)")
    }

    @Test func readsAnswersThatComeTwoSecondsLate() async throws {
        let events = try await Self.readTrackdCar(nil) { emulator, events in
            try #require(await events.wait { $0.odometers.count >= 1 })
            // From now on every answer comes 2 s after its question.
            try emulator.command("delay 2")
            var car = ELM327Emulator.CarState()
            car.speed = 30
            car.odometer = 12346.1
            try emulator.drive(car)
            try #require(await events.wait(upTo: 60) { $0.speeds.last == 30 && $0.odometers.last == 12346.1 })
        }

        #expect(events.lostReasons.isEmpty)
        #expect(!events.dialogue.contains { if case .unanswered = $0 { true } else { false } }, "\(events.dialogue)")
    }

    @Test func reportsTheTCPAdapterGoneOnceAndTalksToItAgainWhenItIsBack() async throws {
        let directory = try TemporaryDirectory()
        let first = try await ELM327Emulator(link: .tcp, car: .trackd, in: directory.path)
        defer { first.stop() }
        let port = try #require(first.port)
        let events = OBDEventCollector()
        var second: ELM327Emulator?
        defer { second?.stop() }

        try await events.collect(from: OBDSource(address: .tcp(host: "127.0.0.1", port: port), configuration: Self.quick)) {
            try #require(await events.wait { $0.speeds.count >= 1 })
            first.stop()
            try #require(await events.wait { !$0.lostReasons.isEmpty })
            let lost = events.count
            // Back (switched on with the car again), on the same address.
            let back = try await ELM327Emulator(link: .tcp, car: .trackd, in: directory.path, tcpPort: port)
            second = back
            var car = ELM327Emulator.CarState()
            car.speed = 42
            try back.drive(car)
            try #require(await events.wait { $0.connections >= 2 && $0.speeds.last == 42 })
            #expect(events.dialogue(after: lost).contains(.adapter("ELM327 v1.5")), "talked to from the reset on")
        }

        // Once per outage, whatever its reasons on the way (closed, then refused): never two losses without a
        // connection between them (a dying emulator may still accept one connection, which makes a second outage).
        let links = events.states.compactMap { state -> String? in
            switch state {
            case .lost: "lost"
            case .connected: "connected"
            default: nil
            }
        }
        #expect(!zip(links, links.dropFirst()).contains { $0 == "lost" && $1 == "lost" }, "\(events.states)")
        #expect(events.lostReasons.first?.hasPrefix("adapter tcp://127.0.0.1:\(port) lost: ") == true, "\(events.lostReasons)")
    }
}
