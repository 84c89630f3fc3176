import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport
import Testing
import TrackCore
@testable import TrackInput

/// `AutoSource` looks at real pseudo-terminals (the "USB receiver" and the "header's UART", linked as udev would
/// link them) and a real gpsd, and reads from the first that talks.
struct AutoSourceTests {
    @Test func takesTheHeadersReceiverAtTheSpeedItTalks() async throws {
        let directory = try TemporaryDirectory()
        let places = try testPlaces(in: directory)
        let header = try SpeedReceiver(linkPath: places.header, talksAt: 38400)
        defer { header.close() }
        let events = EventCollector()

        try await running({ try await header.run() }) {
            try await events.collect(from: AutoSource(places: places)) {
                try #require(await events.wait(upTo: 60) { $0.fixes.count >= 2 }, "\(events.all)")
            }
        }

        let choice = try #require(events.choices.first)
        #expect(choice.address == .serial(path: places.header, baud: 38400))
        #expect(choice.reason == "NMEA (2 sentences) at 38400 baud on \(places.header) (the header's UART); "
                + "\(places.usb): not present")
        #expect(events.choices.count == 1)
        // Chosen before the chosen source's own events; 9600 and 4800 gave only noise, so nothing was reported lost.
        #expect(events.all.first.map(label) == "connecting")
        #expect(events.all.dropFirst().first.map(label) == "chosen")
        #expect(events.lostReasons.isEmpty)
        #expect(events.states.last == .connected("\(places.header) (\(header.terminal.slavePath)) at 38400 baud"))
        #expect(events.fixes.allSatisfy { $0.hasPosition })
    }

    @Test func prefersAUSBReceiverToTheHeader() async throws {
        let directory = try TemporaryDirectory()
        let places = try testPlaces(in: directory)
        let usb = try SpeedReceiver(linkPath: places.usb, talksAt: nil)
        defer { usb.close() }
        let header = try SpeedReceiver(linkPath: places.header, talksAt: 9600)
        defer { header.close() }
        let events = EventCollector()

        try await running({ try await usb.run() }) {
            try await running({ try await header.run() }) {
                try await events.collect(from: AutoSource(places: places)) {
                    try #require(await events.wait(upTo: 60) { $0.fixes.count >= 1 }, "\(events.all)")
                }
            }
        }

        let choice = try #require(events.choices.first)
        #expect(choice.address == .serial(path: places.usb, baud: 9600))
        #expect(choice.reason == "NMEA (2 sentences) at 9600 baud on \(places.usb) (a USB receiver)")
    }

    @Test func passesOverADeviceAnotherProgramHolds() async throws {
        let directory = try TemporaryDirectory()
        let places = try testPlaces(in: directory)
        let usb = try SpeedReceiver(linkPath: places.usb, talksAt: nil)
        defer { usb.close() }
        let header = try SpeedReceiver(linkPath: places.header, talksAt: 4800)
        defer { header.close() }
        // Another program (gpsd, a terminal program) has the USB receiver open and locked.
        let holder = try SerialPort(path: places.usb, baud: 9600)
        let events = EventCollector()

        try await running({ try await header.run() }) {
            try await events.collect(from: AutoSource(places: places)) {
                try #require(await events.wait(upTo: 60) { $0.fixes.count >= 1 }, "\(events.all)")
            }
        }
        holder.close()

        let choice = try #require(events.choices.first)
        #expect(choice.address == .serial(path: places.header, baud: 4800))
        #expect(choice.reason == "NMEA (2 sentences) at 4800 baud on \(places.header) (the header's UART); "
                + "\(places.usb): in use by another program")
    }

    @Test func saysWhatItFoundAndLooksAgainUntilAReceiverTalks() async throws {
        let directory = try TemporaryDirectory()
        // gpsd's port held closed: no gpsd of a test beside may answer there.
        let closed = try ClosedLoopbackPort()
        defer { closed.close() }
        var places = try testPlaces(in: directory)
        places.gpsdPort = closed.port
        // A UART with nothing on it: the port opens, nothing comes.
        let header = try SpeedReceiver(linkPath: places.header, talksAt: 115_200, silent: true)
        defer { header.close() }
        let events = EventCollector()
        let expected = "no receiver found: \(places.usb): not present; \(places.header): silent at 9600 baud; "
            + "gpsd: not answering at 127.0.0.1:\(places.gpsdPort)"

        try await running({ try await header.run() }) {
            try await events.collect(from: AutoSource(places: places)) {
                try #require(await events.wait(upTo: 60) { !$0.lostReasons.isEmpty }, "\(events.all)")
                #expect(events.lostReasons == [expected])
                #expect(events.choices.isEmpty)
                // The HAT starts talking (its receiver had no power yet): the next round finds it.
                header.speak()
                try #require(await events.wait(upTo: 60) { $0.fixes.count >= 1 }, "\(events.all)")
            }
        }

        let choice = try #require(events.choices.first)
        #expect(choice.address == .serial(path: places.header, baud: 115_200))
        #expect(choice.reason.hasPrefix("NMEA (2 sentences) at 115200 baud on \(places.header) (the header's UART); "))
        // (A round that began as the HAT woke may have found only noise, and said so: a finding of its own.)
    }

    @Test(.timeLimit(.minutes(TestPatience.minutes(2))))
    func fallsBackToGpsdWhenNoPortTalks() async throws {
        let directory = try TemporaryDirectory()
        let places = try testPlaces(in: directory)
        let fixture = try #require(Bundle.module.url(forResource: "gpsd-drive", withExtension: "nmea", subdirectory: "Fixtures"))
        let gpsd = try GPSFake(port: places.gpsdPort, log: fixture)
        defer { gpsd.stop() }
        try await gpsd.waitUntilDelivering()
        let events = EventCollector()

        try await events.collect(from: AutoSource(places: places)) {
            try #require(await events.wait(upTo: 60) { $0.fixes.contains(where: \.hasPosition) },
                         "\(events.all)\ngpsfake's output:\n\(gpsd.output)")
        }

        let choice = try #require(events.choices.first)
        #expect(choice.address == .gpsd(host: "127.0.0.1", port: places.gpsdPort))
        #expect(choice.reason == "gpsd answers at 127.0.0.1:\(places.gpsdPort); \(places.usb): not present; "
                + "\(places.header): not present")
        #expect(events.lostReasons.isEmpty)
    }

    @Test func parsesAutoAsAnAddress() throws {
        #expect(try SourceAddress(parsing: "auto") == .auto)
        #expect(try SourceAddress(parsing: "AUTO") == .auto)
        #expect(SourceAddress.auto.description == "auto")
        #expect(SourceAddress.auto.makeSource().description == "auto")
        #expect(throws: SourceAddressError.self) { try SourceAddress(parsing: "automatic") }
    }

    /// The places in `directory`, a closed port for gpsd, and short waits (the receivers send every 100 ms).
    private func testPlaces(in directory: TemporaryDirectory) throws -> AutoSource.Places {
        var places = AutoSource.Places()
        places.usb = directory.path + "/gps0"
        places.header = directory.path + "/serial0"
        places.gpsdHost = "127.0.0.1"
        places.gpsdPort = try LoopbackPort.free()
        places.listenFor = TestPatience.seconds(1.5)
        places.retryAfter = 0.2
        return places
    }
}

/// A receiver on a pseudo-terminal that talks at one speed, as a UART does: read at another speed it gives bytes
/// and never a sentence; read at its own, an epoch (RMC and GGA) every 100 ms. With no speed of its own it is a
/// USB receiver (CDC-ACM), heard at any. The speed the port is read at is the slave's, read from a descriptor of
/// the receiver's own on it.
private final class SpeedReceiver: Sendable {
    let terminal: PseudoTerminal
    private let slave: Int32
    private let baud: Int?
    private let talking: Atomic<Bool>

    init(linkPath: String, talksAt baud: Int?, silent: Bool = false) throws {
        terminal = try PseudoTerminal(linkPath: linkPath)
        slave = Glibc.open(terminal.slavePath, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard slave >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        self.baud = baud
        talking = Atomic(!silent)
    }

    /// The receiver gets power: it talks from now on.
    func speak() { talking.store(true, ordering: .releasing) }

    func close() {
        terminal.close()
        _ = Glibc.close(slave)
    }

    /// Sends until cancelled.
    func run() async throws {
        try await BlockingThread.run(name: "test-receiver") { stop in
            var noise = SplitMix64(seed: UInt64(self.baud ?? 0))
            var second = 1
            while stop.sleep(seconds: 0.1) {
                guard self.talking.load(ordering: .acquiring) else { continue }
                var settings = termios()
                guard tcgetattr(self.slave, &settings) == 0 else { continue }
                let speed = cfgetispeed(&settings)
                let bytes: [UInt8]
                if let baud = self.baud, speed != SerialPort.speed(forBaud: baud) {
                    bytes = (0..<64).map { _ in UInt8(truncatingIfNeeded: noise.next()) }
                } else {
                    bytes = SpeedReceiver.epoch(second)
                    second += 1
                }
                _ = bytes.withUnsafeBytes { Glibc.write(self.terminal.masterDescriptor, $0.baseAddress, $0.count) }
            }
        }
    }

    /// RMC and GGA for 08:00:SS on 2026-11-22, standing in Berlin.
    private static func epoch(_ second: Int) -> [UInt8] {
        let clock = String(format: "08%02d%02d.00", second / 60 % 60, second % 60)
        return ["GNRMC,\(clock),A,5231.00000,N,01324.00000,E,0.000,0.00,221126,,,A,V",
                "GNGGA,\(clock),5231.00000,N,01324.00000,E,1,10,0.90,35.0,M,18.1,M,,"].flatMap { body in
            let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return Array("$\(body)*\(String(format: "%02X", checksum))\r\n".utf8)
        }
    }
}

extension EventCollector {
    /// What `auto` chose, in order.
    var choices: [(address: SourceAddress, reason: String)] {
        all.compactMap { if case .chosen(let address, let reason) = $0 { (address, reason) } else { nil } }
    }
}

/// A short name for what an event is.
private func label(_ event: SourceEvent) -> String {
    switch event {
    case .fix: "fix"
    case .problem: "problem"
    case .chosen: "chosen"
    case .state(let state):
        switch state {
        case .connecting: "connecting"
        case .connected: "connected"
        case .lost: "lost"
        case .ended: "ended"
        }
    }
}
