import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
import TrackCore
@testable import TrackInput

/// Every test reads through a real pseudo-terminal pair: the master plays the receiver, the source opens the
/// slave (usually through a symbolic link, as udev's /dev/gps0) exactly as it opens /dev/ttyACM0.
struct SerialSourceTests {
    @Test func readsFixesWrittenIntoAPty() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps0"
        let terminal = try PseudoTerminal(linkPath: link)
        defer { terminal.close() }
        let drive = try fixture("serial-drive")
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: link, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            let summary = try await play(drive, into: terminal, speed: 20)
            #expect(summary.sentences == 30)
            try #require(await events.wait { $0.fixes.count >= 10 })
        }

        let fixes = events.fixes
        #expect(fixes == (try decoded(drive)))
        #expect(fixes.first?.time == UTCTime(iso8601: "2026-11-22T10:00:00Z"))
        #expect(fixes.last?.time == UTCTime(iso8601: "2026-11-22T10:00:09Z"))
        // 52°31.0000'N 013°24.0000'E to 52°31.0900'N 013°24.0180'E.
        let first = try #require(fixes.first)
        let last = try #require(fixes.last)
        #expect(isClose(first.latitude, 52.0 + 31.0 / 60.0))
        #expect(isClose(first.longitude, 13.0 + 24.0 / 60.0))
        #expect(isClose(last.latitude, 52.0 + 31.09 / 60.0))
        #expect(isClose(last.longitude, 13.0 + 24.018 / 60.0))
        #expect(events.states.map(label) == ["connecting", "connected"])
        #expect(events.states.last == .connected("\(link) (\(terminal.slavePath)) at 9600 baud"))
        #expect(events.problems.isEmpty)
        let arrivals = events.all.compactMap { if case .fix(_, let at) = $0 { at } else { nil } }
        #expect(arrivals == arrivals.sorted())
    }

    @Test func recoversWhenTheDeviceIsUnpluggedAndReplugged() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps0"
        let drive = try fixture("serial-drive")
        let later = try fixture("serial-after-replug")
        let first = try PseudoTerminal(linkPath: link)
        defer { first.close() }
        var second: PseudoTerminal?
        defer { second?.close() }
        let events = EventCollector()
        var fixesBeforeUnplug = 0

        try await events.collect(from: SerialSource(path: link, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            // Mid-stream: once a few fixes are through, the receiver stops sending and is unplugged.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { _ = try await play(drive, into: first, speed: 5) }
                let flowing = await events.wait { $0.fixes.count >= 4 }
                group.cancelAll()
                try #require(flowing)
            }
            first.close()
            try #require(await events.wait { !$0.lostReasons.isEmpty })
            fixesBeforeUnplug = events.fixes.count

            // Plugged in again: a new pty, the same link (as udev would re-create /dev/gps0).
            let replugged = try PseudoTerminal(linkPath: link)
            second = replugged
            try #require(await events.wait { $0.connections == 2 })
            _ = try await play(later, into: replugged, speed: 20)
            try #require(await events.wait { $0.fixes.count >= fixesBeforeUnplug + 5 })
        }

        #expect(events.states.map(label) == ["connecting", "connected", "lost", "connected"])
        #expect(events.lostReasons.count == 1)
        #expect(events.lostReasons.first?.hasPrefix("device \(link) unplugged (") == true)
        let fixes = events.fixes
        let expectedBefore = try decoded(drive)
        #expect((4...10).contains(fixesBeforeUnplug))
        #expect(Array(fixes.prefix(fixesBeforeUnplug)) == Array(expectedBefore.prefix(fixesBeforeUnplug)))
        #expect(Array(fixes.dropFirst(fixesBeforeUnplug)) == (try decoded(later)))
        // Every fix of the first device came before the loss, every later one after the reconnection.
        let timeline = events.all.map(label)
        let lost = try #require(timeline.firstIndex(of: "lost"))
        let reconnected = try #require(timeline.lastIndex(of: "connected"))
        #expect(timeline[..<lost].count { $0 == "fix" } == fixesBeforeUnplug)
        #expect(timeline[reconnected...].count { $0 == "fix" } == 5)
    }

    @Test func refusesASecondReaderOfTheSameDevice() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let first = EventCollector()
        let second = EventCollector()

        try await first.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await first.wait { $0.connections == 1 })
            try await second.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
                try #require(await second.wait { !$0.lostReasons.isEmpty })
            }
        }

        #expect(second.connections == 0)
        #expect(second.lostReasons.count == 1)
        #expect(second.lostReasons.first?.hasPrefix("\(terminal.slavePath) is in use by another process") == true)
        #expect(first.lostReasons.isEmpty)
    }

    @Test func connectsOnceTheProcessHoldingTheDeviceLetsGo() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        // Another process (say, a second trackd) holds the device's lock.
        var holder = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(holder >= 0)
        defer { if holder >= 0 { close(holder) } }
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await events.wait { !$0.lostReasons.isEmpty })
            #expect(events.connections == 0)
            close(holder)
            holder = -1
            try #require(await events.wait { $0.connections == 1 })
        }

        #expect(events.states.map(label) == ["connecting", "lost", "connected"])
        #expect(events.lostReasons.first?.contains("is in use by another process") == true)
    }

    #if arch(x86_64) || arch(arm64)
    @Test func holdsTheDeviceExclusivelyOnlyWhileReading() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        // Opened before the source sets TIOCEXCL, which would refuse it to anyone but root.
        let observer = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(observer >= 0)
        defer { close(observer) }
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            #expect(exclusiveFlag(observer) == 1)
        }

        // Cleared on the way out: on a pty it would otherwise outlive the reader as long as the master is open.
        #expect(exclusiveFlag(observer) == 0)
    }
    #endif

    @Test func keepsReadingThroughGarbageAndBinaryBytes() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let drive = try fixture("serial-drive")
        let lines = try String(contentsOfFile: drive, encoding: .utf8)
            .components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let text = { (lines: ArraySlice<String>) in Array(lines.map { $0 + "\r\n" }.joined().utf8) }
        // Line noise without '$', '!' or a UBX sync byte, then damaged input of every kind.
        var seed: UInt32 = 0x2545_F491
        var garbage: [UInt8] = (0..<512).map { _ in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let byte = UInt8(truncatingIfNeeded: seed >> 24)
            return [0x24, 0x21, 0xB5].contains(byte) ? 0x00 : byte
        }
        garbage += [0xB5, 0x62, 0x01, 0x07, 0x04, 0x00, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00]  // UBX, bad checksum
        garbage += Array("$GPGGA,100002.50,5231.0250,N,01324.0050,E,1,08,0.9,40.2,M,39.6,M,,*00\r\n".utf8)
        garbage += Array("$GPRMC,100002.60,A,52".utf8) + [0x01, 0xFE, 0x00, 0xFF] + Array("\r\n".utf8)
        garbage += Array(("$GPTXT," + String(repeating: "A", count: 300) + "\r\n").utf8)
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            try writeAll(text(lines[0..<9]), to: terminal.masterDescriptor)
            try writeAll(garbage, to: terminal.masterDescriptor)
            try writeAll(text(lines[9...]), to: terminal.masterDescriptor)
            try #require(await events.wait { $0.fixes.count >= 10 })
        }

        #expect(events.fixes == (try decoded(drive)))
        let problems = events.problems.map(\.problem)
        #expect(problems.contains(.framing(.overlong)))
        #expect(problems.contains(.framing(.binaryData)))
        #expect(problems.contains { if case .sentence(.badChecksum) = $0 { true } else { false } })
        #expect(events.states.map(label) == ["connecting", "connected"])
    }

    @Test func takesEveryEpochOfAReceiverThatSendsInSmallBurstsAsTheyGather() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let drive = try fixture("serial-drive")
        let bytes = Array(try String(contentsOfFile: drive, encoding: .utf8).utf8)
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            // 16 bytes every 2 ms, as a USB receiver's packets come: the reader pauses between reads and takes what
            // gathered meanwhile, split anywhere in a sentence. On a thread of its own: the writing takes seconds,
            // which would hold one of the few threads every test shares.
            let master = terminal.masterDescriptor
            try await offload {
                var offset = 0
                while offset < bytes.count {
                    let piece = Array(bytes[offset..<min(offset + 16, bytes.count)])
                    try writeAll(piece, to: master)
                    offset += piece.count
                    usleep(2000)
                }
            }
            try #require(await events.wait { $0.fixes.count >= 10 })
        }

        #expect(events.fixes == (try decoded(drive)))
        #expect(events.problems.isEmpty)
        #expect(events.states.map(label) == ["connecting", "connected"])
    }

    @Test func reportsAMissingDeviceAndConnectsWhenItAppears() async throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps0"
        let later = try fixture("serial-after-replug")
        var terminal: PseudoTerminal?
        defer { terminal?.close() }
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: link, baud: 4800)) {
            try #require(await events.wait { !$0.lostReasons.isEmpty })
            let plugged = try PseudoTerminal(linkPath: link)
            terminal = plugged
            try #require(await events.wait { $0.connections == 1 })
            _ = try await play(later, into: plugged, speed: 20)
            try #require(await events.wait { $0.fixes.count >= 5 })
        }

        #expect(events.states.map(label) == ["connecting", "lost", "connected"])
        #expect(events.lostReasons == ["device \(link) not present: No such file or directory"])
        #expect(events.states.last == .connected("\(link) (\(terminal?.slavePath ?? "?")) at 4800 baud"))
        #expect(events.fixes == (try decoded(later)))
    }

    @Test(.enabled(if: systemClockIsSet, "the date hint needs a system clock that is set"))
    func datesTheFixesOfAGGAOnlyReceiverFromTheSystemClockOnceItHasGoneFiveSecondsWithoutADate() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let events = EventCollector()

        try await events.collect(from: SerialSource(path: terminal.slavePath, baud: 9600)) {
            try #require(await events.wait { $0.connections == 1 })
            _ = try await play(try fixture("serial-gga-only"), into: terminal, speed: 20)
            try #require(await events.wait { $0.fixes.count >= 8 })
        }

        // 12:00:00 to 12:00:07. A receiver that sends RMC would have dated its fixes by now: the first five seconds
        // stay undated, then the clock dates them.
        let now = UTCTime(secondsSinceEpoch: Date().timeIntervalSince1970)
        #expect(events.fixes.prefix(5).allSatisfy { $0.time == nil && $0.hasPosition })
        for (second, fix) in events.fixes.enumerated().dropFirst(5) {
            let time = try #require(fix.time)
            #expect(time.nanosecondOfDay == Int64(12 * 3600 + second) * UTCTime.nanosecondsPerSecond)
            // The day that puts 12:00 UTC nearest to the clock.
            #expect(abs(time.seconds(since: now)) <= 12 * 3600 + 60)
        }
    }

    @Test(arguments: SourceAddress.supportedBaudRates)
    func opensTheDeviceRawAtEverySupportedBaudRate(baud: Int) throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let port = try SerialPort(path: terminal.slavePath, baud: baud)
        var settings = termios()
        try #require(tcgetattr(port.descriptor, &settings) == 0)
        let speed = try #require(SerialPort.speed(forBaud: baud))
        #expect(cfgetispeed(&settings) == speed)
        #expect(cfgetospeed(&settings) == speed)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        for flag in [CLOCAL, CREAD] { #expect(settings.c_cflag & tcflag_t(flag) != 0) }
        for flag in [tcflag_t(PARENB), tcflag_t(CSTOPB), tcflag_t(CRTSCTS)] { #expect(settings.c_cflag & flag == 0) }
        for flag in [IXON, IXOFF, ICRNL] { #expect(settings.c_iflag & tcflag_t(flag) == 0) }
        for flag in [ICANON, ECHO, ISIG] { #expect(settings.c_lflag & tcflag_t(flag) == 0) }
        withUnsafeBytes(of: settings.c_cc) { characters in
            #expect(characters[Int(VMIN)] == 0)
            #expect(characters[Int(VTIME)] == 0)
        }
    }

    @Test func rejectsAnUnsupportedBaudRate() async {
        await #expect(throws: SerialPortError.unsupportedBaud(1234)) {
            try await SerialSource(path: "/dev/ttyACM0", baud: 1234).run { _ in }
        }
    }

    @Test func refusesAPathThatIsNotASerialDevice() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/drive.nmea"
        try Data("$GPZDA*00\r\n".utf8).write(to: URL(fileURLWithPath: path))
        let events = EventCollector()
        await #expect(throws: SerialPortError.notATerminal(path)) {
            try await SerialSource(path: path, baud: 9600).run { events.record($0) }
        }
        #expect(events.states.map(label) == ["connecting"])
    }
}

/// The path of a fixture log.
private func fixture(_ name: String) throws -> String {
    try #require(Bundle.module.url(forResource: name, withExtension: "nmea", subdirectory: "Fixtures")).path
}

/// The fixes `NMEAReader` reads from a whole log at once: what the source must deliver from the same bytes.
private func decoded(_ path: String) throws -> [Fix] {
    var reader = NMEAReader()
    var fixes: [Fix] = []
    let collect: (NMEAReader.Event) -> Void = { event in
        if case .fix(let fix) = event { fixes.append(fix) }
    }
    reader.read(try Data(contentsOf: URL(fileURLWithPath: path)), collect)
    reader.finish(collect)
    return fixes
}

/// Plays a log into the pty's master, giving up after 20 s.
private func play(_ path: String, into terminal: PseudoTerminal, speed: Double) async throws -> NMEAPlayer.Summary {
    let master = terminal.masterDescriptor
    return try await withTimeLimit(20, "playing \(path)") {
        try await BlockingThread.run(name: "test-player") { stop in
            try NMEAPlayer(path: path, speed: speed).play(into: master, stop: stop)
        }
    }
}

/// Whether a coordinate is present and within 1e-9 degrees (0.1 mm) of `expected`.
private func isClose(_ value: Double?, _ expected: Double) -> Bool {
    guard let value else { return false }
    return abs(value - expected) < 1e-9
}

/// A short name for what an event is: "fix", "problem" or the state's name.
private func label(_ event: SourceEvent) -> String {
    switch event {
    case .fix: "fix"
    case .problem: "problem"
    case .chosen: "chosen"
    case .state(let state): label(state)
    }
}

private func label(_ state: SourceState) -> String {
    switch state {
    case .connecting: "connecting"
    case .connected: "connected"
    case .lost: "lost"
    case .ended: "ended"
    }
}

/// Whether the system clock is past 2024, as `SerialSource` requires before it trusts it for a date.
private let systemClockIsSet = Date().timeIntervalSince1970 > 1_704_067_200

#if arch(x86_64) || arch(arm64)
/// The kernel's TIOCEXCL flag of a tty (`TIOCGEXCL`, Linux ≥ 3.8; `_IOR('T', 0x40, int)` on these architectures).
private func exclusiveFlag(_ descriptor: Int32) -> Int32 {
    var value: Int32 = -1
    _ = ioctl(descriptor, UInt(0x8004_5440), &value)
    return value
}
#endif
