import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import TrackCore
@testable import TrackInput

/// `obd.adapter: auto` against ELM327-emulator on pseudo-terminals, in a folder of the test's own that stands for
/// `/dev`: its `ttyUSB*`, `ttyACM*`, `gps*` and `obd-trackd` are links to the emulator's pseudo-terminal or to one
/// that never answers, as udev makes them for the real devices.
@Suite(.serialized) struct OBDAutoSearchTests {
    /// The search made quick: a pseudo-terminal answers at once.
    static func places(_ devices: String) -> OBDAutoSearch.Places {
        var places = OBDAutoSearch.Places()
        places.devices = devices
        places.answerWithin = 0.5
        places.retryAfter = 0.2
        return places
    }

    @Test func findsTheAdapterOnTheUSBSerialPortThatAnswersAsAnELM327() async throws {
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path)
        defer { emulator.stop() }
        // A USB-serial cable with nothing behind it that answers, and the adapter on the next port.
        let silent = try PseudoTerminal(linkPath: "\(devices)/ttyUSB0")
        defer { silent.close() }
        try Self.link("\(devices)/ttyUSB1", to: emulator)
        // Not a USB-serial port: never asked.
        try Self.link("\(devices)/ttyS0", to: emulator)
        let events = OBDEventCollector()

        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick,
                                                 search: OBDAutoSearch(places: Self.places(devices)))) {
            try #require(await events.wait { $0.dialogue.contains(.vin("WP0ZZZ99ZTS390000")) },
                         "\(events.all.prefix(8)) \(emulator.output.suffix(600))")
        }

        let chosen = events.chosen
        #expect(chosen.map(\.address) == [.serial(path: "\(devices)/ttyUSB1", baud: 38400)])
        #expect(chosen.first?.reason == "ELM327 v1.5 answered at 38400 baud on \(devices)/ttyUSB1; "
                + "\(devices)/ttyUSB0: no ELM327 answer at 38400, 9600, 115200 baud")
        #expect(events.states.first == .connecting)
        #expect(events.states.contains(.connected("\(devices)/ttyUSB1 (\(try #require(emulator.devicePath))) at 38400 baud")))
        #expect(events.lostReasons.isEmpty, "found in the first round: \(events.lostReasons)")
    }

    @Test func neverAsksTheReceiversPort() async throws {
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let usb = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path + "/usb")
        defer { usb.stop() }
        let acm = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path + "/acm")
        defer { acm.stop() }
        // udev's GPS rules link a receiver's port as gps0; the daemon reads fixes from another port.
        try Self.link("\(devices)/ttyUSB0", to: usb)
        try FileManager.default.createSymbolicLink(atPath: "\(devices)/gps0", withDestinationPath: "\(devices)/ttyUSB0")
        try Self.link("\(devices)/ttyACM0", to: acm)
        let events = OBDEventCollector()

        let search = OBDAutoSearch(places: Self.places(devices), excluding: ["\(devices)/ttyACM0"])
        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick, search: search)) {
            // A round's report comes only after every port was looked at: had it asked one, it would have found it.
            try #require(await events.wait { !$0.lostReasons.isEmpty }, "\(events.all)")
        }

        #expect(events.lostReasons == ["no OBD-II adapter found: "
            + "\(devices)/ttyUSB0: the receiver's (\(devices)/gps0); "
            + "\(devices)/ttyACM0: the receiver's (trackd reads fixes from \(devices)/ttyACM0)"])
        #expect(events.chosen.isEmpty)
        #expect(events.dialogue.isEmpty)
    }

    @Test func takesTheAdapterTheUdevRulesNamedFirst() async throws {
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path)
        defer { emulator.stop() }
        let silent = try PseudoTerminal(linkPath: "\(devices)/ttyUSB0")
        defer { silent.close() }
        try Self.link("\(devices)/obd-trackd", to: emulator)
        let events = OBDEventCollector()

        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick,
                                                 search: OBDAutoSearch(places: Self.places(devices)))) {
            try #require(await events.wait { !$0.chosen.isEmpty && $0.speeds.count >= 1 }, "\(events.all.prefix(8))")
        }

        #expect(events.chosen.first?.address == .serial(path: "\(devices)/obd-trackd", baud: 38400))
        #expect(events.chosen.first?.reason == "ELM327 v1.5 answered at 38400 baud on \(devices)/obd-trackd "
                + "(named an adapter by the udev rules)")
    }

    @Test func looksAgainWhenTheAdapterIsUnpluggedAndFindsItOnItsNewPort() async throws {
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let first = try await ELM327Emulator(link: .pseudoTerminal, car: .trackd, in: directory.path + "/first")
        defer { first.stop() }
        try Self.link("\(devices)/ttyUSB0", to: first)
        var car = ELM327Emulator.CarState()
        car.speed = 31
        try first.drive(car)
        let events = OBDEventCollector()
        var second: ELM327Emulator?
        defer { second?.stop() }

        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick,
                                                 search: OBDAutoSearch(places: Self.places(devices)))) {
            try #require(await events.wait { $0.speeds.contains(31) }, "\(events.all.prefix(8))")
            // Unplugged: udev takes its node away.
            try FileManager.default.removeItem(atPath: "\(devices)/ttyUSB0")
            first.stop()
            try #require(await events.wait { $0.lostReasons.contains { $0.hasPrefix("no OBD-II adapter found") } },
                         "\(events.all.suffix(8))")
            // Plugged into another socket: another port.
            let back = try await ELM327Emulator(link: .pseudoTerminal, car: .trackd, in: directory.path + "/second")
            second = back
            car.speed = 52
            try back.drive(car)
            try Self.link("\(devices)/ttyUSB1", to: back)
            try #require(await events.wait { $0.chosen.count == 2 && $0.speeds.last == 52 }, "\(events.all.suffix(12))")
        }

        #expect(events.chosen.map(\.address) == [.serial(path: "\(devices)/ttyUSB0", baud: 38400),
                                                 .serial(path: "\(devices)/ttyUSB1", baud: 38400)])
        #expect(events.lostReasons.first?.hasPrefix("adapter serial://\(devices)/ttyUSB0?baud=38400 lost: ") == true,
                "\(events.lostReasons)")
        #expect(events.lostReasons.last == "no OBD-II adapter found: no USB-serial port in \(devices)", "\(events.lostReasons)")
    }

    @Test func aPortThatDidNotAnswerIsAskedOnceAndSaidOnceWhileNothingChanges() async throws {
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let silent = try PseudoTerminal(linkPath: "\(devices)/ttyUSB0")
        defer { silent.close() }
        let events = OBDEventCollector()
        var places = Self.places(devices)
        places.askAgainAfter = 3600
        var emulator: ELM327Emulator?
        defer { emulator?.stop() }

        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick,
                                                 search: OBDAutoSearch(places: places))) {
            try #require(await events.wait { !$0.lostReasons.isEmpty }, "\(events.all)")
            // Rounds go on every 0.2 s; the adapter plugged in later is found by one of them.
            let plugged = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path + "/usb")
            emulator = plugged
            try Self.link("\(devices)/ttyUSB1", to: plugged)
            try #require(await events.wait { !$0.chosen.isEmpty }, "\(events.all)")
        }

        #expect(events.lostReasons == ["no OBD-II adapter found: \(devices)/ttyUSB0: no ELM327 answer at 38400, 9600, 115200 baud"],
                "said once while nothing changed")
        #expect(events.chosen.first?.reason == "ELM327 v1.5 answered at 38400 baud on \(devices)/ttyUSB1; "
                + "\(devices)/ttyUSB0: no ELM327 answer at 38400, 9600, 115200 baud")
        // What reached the silent port: one question at each speed, in the first round only.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(silent.masterDescriptor, &buffer, buffer.count)
        let written = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        #expect(written.components(separatedBy: "AT I\r").count - 1 == 3, "\(written.debugDescription)")
    }

    @Test func aPortThatCouldNotBeOpenedIsTriedAgainAtTheNextRound() async throws {
        // As a new port is until udev has given it to dialout (trackd is no member yet: "no permission"), or while
        // another program holds it ("in use": here a lock of the test's own, as gpsd's).
        let directory = try TemporaryDirectory()
        let devices = try Self.devices(in: directory)
        let emulator = try await ELM327Emulator(link: .pseudoTerminal, in: directory.path)
        defer { emulator.stop() }
        try Self.link("\(devices)/ttyUSB0", to: emulator)
        let holder = open(try #require(emulator.devicePath), O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(holder >= 0 && flock(holder, LOCK_EX | LOCK_NB) == 0)
        var held = true
        defer { if held { close(holder) } }
        let events = OBDEventCollector()
        var places = Self.places(devices)
        places.askAgainAfter = 3600
        places.settleFor = 0.5

        try await events.collect(from: OBDSource(address: .auto, configuration: OBDSourceTests.quick,
                                                 search: OBDAutoSearch(places: places))) {
            // Said once it has not opened for settleFor.
            try #require(await events.wait { !$0.lostReasons.isEmpty }, "\(events.all)")
            close(holder)
            held = false
            try #require(await events.wait { !$0.chosen.isEmpty }, "\(events.all)")
        }

        #expect(events.lostReasons == ["no OBD-II adapter found: \(devices)/ttyUSB0: in use by another program"])
        #expect(events.chosen.first?.address == .serial(path: "\(devices)/ttyUSB0", baud: 38400))
    }

    @Test func readsTheAdaptersNameFromItsAnswer() {
        #expect(OBDAutoSearch.adapterName(in: "ELM327 v1.5") == "ELM327 v1.5")
        #expect(OBDAutoSearch.adapterName(in: "AT I\rELM327 v2.1\r\r") == "ELM327 v2.1", "the echo before it skipped")
        #expect(OBDAutoSearch.adapterName(in: " elm 327 v1.4b ") == "elm 327 v1.4b")
        #expect(OBDAutoSearch.adapterName(in: "?") == nil)
        #expect(OBDAutoSearch.adapterName(in: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") == nil)
        #expect(OBDAutoSearch.adapterName(in: "OK") == nil)
    }

    /// A device node's link, as udev makes one: `path` to the emulator's pseudo-terminal.
    private static func link(_ path: String, to emulator: ELM327Emulator) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: try #require(emulator.devicePath))
    }

    /// The folder that stands for `/dev`.
    private static func devices(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path + "/dev"
        for folder in [path, directory.path + "/usb", directory.path + "/acm", directory.path + "/first", directory.path + "/second"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        return path
    }
}
