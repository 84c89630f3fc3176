import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TrackInput
import SystemPackage

struct PseudoTerminalTests {
    @Test func bytesWrittenToTheMasterArriveUnchangedAtTheSlavePath() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(slave >= 0)
        defer { close(slave) }
        // Raw mode: line ends, control characters and 8-bit bytes pass untouched, and nothing is echoed.
        let sent = Array("$GPGGA,1*00\r\n".utf8) + (0...255).map { UInt8($0) }
        try writeAll(sent, to: terminal.masterDescriptor)
        let received = try readExactly(sent.count, from: slave)
        #expect(received == sent)
        var echoed = pollfd(fd: terminal.masterDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&echoed, 1, 0) == 0)
    }

    @Test func linkPointsAtTheSlaveAndIsRemovedOnClose() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps0"
        let terminal = try PseudoTerminal(linkPath: link)
        #expect(terminal.linkPath == link)
        #expect(PseudoTerminal.target(of: link) == terminal.slavePath)
        terminal.close()
        #expect(!directory.contains("gps0"))
        #expect(terminal.isClosed)
    }

    @Test func replacesAnOlderLinkButLeavesOneThatPointsElsewhereOnClose() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/gps0"
        #expect(symlink("/dev/pts/stale", link) == 0)
        let first = try PseudoTerminal(linkPath: link)
        defer { first.close() }
        #expect(PseudoTerminal.target(of: link) == first.slavePath)
        let second = try PseudoTerminal(linkPath: link)
        defer { second.close() }
        #expect(PseudoTerminal.target(of: link) == second.slavePath)
        first.close()
        #expect(PseudoTerminal.target(of: link) == second.slavePath)
        second.close()
        #expect(!directory.contains("gps0"))
    }

    @Test func refusesToReplaceAFileWithTheLink() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: PseudoTerminalError.notALink(path)) { try PseudoTerminal(linkPath: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func reportsALinkInADirectoryThatDoesNotExist() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path + "/missing/gps0"
        #expect(throws: PseudoTerminalError.cannotLink(link, .noSuchFileOrDirectory)) {
            try PseudoTerminal(linkPath: link)
        }
    }

    @Test func closingTheMasterHangsUpTheSlaveLikeAnUnpluggedDevice() throws {
        let terminal = try PseudoTerminal()
        let slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(slave >= 0)
        defer { close(slave) }
        terminal.close()
        var descriptor = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 5000) == 1)
        #expect(Int32(descriptor.revents) & POLLHUP != 0)
        var byte: UInt8 = 0
        #expect(Glibc.read(slave, &byte, 1) == 0)
        #expect(access(terminal.slavePath, F_OK) != 0)
    }

    @Test func waitsUntilTheReaderHasTakenEverything() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let slave = open(terminal.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        try #require(slave >= 0)
        defer { close(slave) }
        let stop = StopSignal()
        try writeAll(Array("$GPZDA*00\r\n".utf8), to: terminal.masterDescriptor)
        #expect(!terminal.waitUntilDrained(timeout: 0.2, stop: stop))
        _ = try readExactly(11, from: slave)
        #expect(terminal.waitUntilDrained(timeout: 20, stop: stop))
    }
}
