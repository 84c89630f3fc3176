import Glibc
import Logging
import Testing
import TrackJournal

/// The choice between the journal and plain stderr lines, on real descriptors: a Unix stream socket stands for the
/// journal's stream (what systemd connects stderr to), and `$JOURNAL_STREAM` is passed in, not read from the
/// environment the tests run in.
struct LogDestinationTests {
    /// Two connected stream sockets, closed when released.
    private final class SocketPair {
        let ends: [Int32]

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw SocketPairFailed(errno: errno)
            }
            self.ends = ends
        }

        deinit { ends.forEach { _ = close($0) } }

        /// `$JOURNAL_STREAM` as systemd writes it for a descriptor: its device and inode, in decimal.
        func journalStream(_ end: Int) throws -> String {
            var status = stat()
            guard fstat(ends[end], &status) == 0 else { throw SocketPairFailed(errno: errno) }
            return "\(status.st_dev):\(status.st_ino)"
        }
    }

    private struct SocketPairFailed: Error {
        let errno: Int32
    }

    @Test func choosesTheJournalWhenJournalStreamNamesTheStandardErrorDescriptor() throws {
        let stream = try SocketPair()
        let destination = LogDestination.choose(journalStream: try stream.journalStream(0), standardError: stream.ends[0])
        #expect(destination == .journal)
    }

    @Test func keepsStderrLinesWhenStandardErrorIsNotTheStreamJournalStreamNames() throws {
        // Inherited by a child whose stderr was redirected: the variable names the journal's stream, stderr is another.
        let journal = try SocketPair()
        let elsewhere = try SocketPair()
        let destination = LogDestination.choose(journalStream: try journal.journalStream(0),
                                                standardError: elsewhere.ends[0])
        #expect(destination == .standardError)
    }

    @Test(arguments: [nil, "", "12", "12:", ":34", "a:b", "1:2:3", "-1:5"])
    func keepsStderrLinesWithoutAJournalStreamOrWithAMalformedOne(_ value: String?) throws {
        let stream = try SocketPair()
        #expect(LogDestination.choose(journalStream: value, standardError: stream.ends[0]) == .standardError)
    }

    @Test func keepsStderrLinesWhenStandardErrorIsClosed() throws {
        let stream = try SocketPair()
        let value = try stream.journalStream(0)
        let closed = dup(stream.ends[0])
        close(closed)
        #expect(LogDestination.choose(journalStream: value, standardError: closed) == .standardError)
    }

    @Test func eachDestinationMakesItsHandlerAtTheSwitchedLevel() {
        let levels = LogLevelSwitch(.debug)
        let journal = LogDestination.journal.handler(label: "trackd", levels: levels)
        #expect(journal is SwitchedLevelHandler<JournalLogHandler>)
        #expect(journal.logLevel == .debug)
        let lines = LogDestination.standardError.handler(label: "trackd", levels: levels)
        #expect(lines is SwitchedLevelHandler<StreamLogHandler>)
        levels.level = .warning
        #expect(journal.logLevel == .warning)
        #expect(lines.logLevel == .warning)
    }
}
