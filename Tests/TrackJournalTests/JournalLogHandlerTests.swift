import Glibc
import Logging
import Testing
import TrackJournal
import TrackService

/// The handler as journald sees it: the tests bind a datagram socket at journald's path (in a mount namespace of the
/// test's own, so a journald that runs keeps its socket), log through a real `Logger`, and parse what
/// `sd_journal_sendv` sent.
@Suite("The journal handler sends native fields to journald's socket", .serialized,
       .enabled(if: geteuid() == 0, "needs root, to mount a tmpfs over /run in a mount namespace of its own"))
struct JournalLogHandlerTests {
    /// This test's logger label; entries from any other sender are skipped.
    private let label = "trackd.test.\(UInt64.random(in: 0 ... .max))"

    private func logger() -> Logger {
        var logger = Logger(label: label) { JournalLogHandler(label: $0, metadataProvider: nil) }
        logger.logLevel = .trace
        return logger
    }

    @Test func sendsTheMessageAloneWithItsPriorityIdentifierCodeLocationAndLoggerLabel() throws {
        try JournalListener.isolated { listener in
            let line = #line + 1
            logger().info("fix acquired", metadata: ["mode": "3", "satellites": "9"])
            let entry = try listener.receive(from: label).entry

            #expect(entry["MESSAGE"] == "fix acquired", "the metadata goes in fields of its own, not the message")
            #expect(entry["PRIORITY"] == "6")
            #expect(entry.values("SYSLOG_IDENTIFIER") == ["trackd"])
            #expect(entry["CODE_FILE"] == #fileID)
            #expect(entry["CODE_LINE"] == "\(line)")
            #expect(entry["CODE_FUNC"] == #function)
            #expect(entry["TRACKD_LOGGER"] == label)
            #expect(entry["MODE"] == "3")
            #expect(entry["SATELLITES"] == "9")
        }
    }

    @Test func givesEachLevelItsSyslogPriority() throws {
        try JournalListener.isolated { listener in
            let priorities: [(Logger.Level, String)] = [
                (.trace, "7"), (.debug, "7"), (.info, "6"), (.notice, "5"), (.warning, "4"), (.error, "3"), (.critical, "2"),
            ]
            for (level, priority) in priorities {
                logger().log(level: level, "a record at \(level)")
                let entry = try listener.receive(from: label).entry
                #expect(entry["MESSAGE"] == "a record at \(level)")
                #expect(entry["PRIORITY"] == priority, "\(level)")
            }
        }
    }

    @Test func aTripStartedRecordCarriesItsMessageIDAndTripNumber() throws {
        try JournalListener.isolated { listener in
            logger().notice("trip started", metadata: [
                "trip": "12", "kind": "business", "purpose": "", "trip_id": "12", "message_id": "\(LogMessageID.tripStarted)",
            ])
            let entry = try listener.receive(from: label).entry

            // The id as written in systemd/trackd.catalog: changing it would orphan the catalog and saved queries.
            #expect(entry["MESSAGE_ID"] == "80cc07ce981348bd8f72bf625d0676d7")
            #expect(entry["TRIP_ID"] == "12")
            #expect(entry["TRIP"] == "12")
            #expect(entry["KIND"] == "business")
            #expect(entry["PURPOSE"] == "")
            #expect(entry["PRIORITY"] == "5")
        }
    }

    @Test func anIdleAlertLoggedAsAWarningIsPriorityFour() throws {
        try JournalListener.isolated { listener in
            logger().warning("idle alert: stationary for 2 h", metadata: [
                "trip": "3", "trip_id": "3", "message_id": "\(LogMessageID.idleAlert)",
            ])
            let entry = try listener.receive(from: label).entry

            #expect(entry["PRIORITY"] == "4")
            #expect(entry["MESSAGE_ID"] == LogMessageID.idleAlert.rawValue)
            #expect(entry["TRIP_ID"] == "3")
        }
    }

    @Test func metadataKeysWithOddCharactersBecomeFieldNamesJournaldAccepts() throws {
        try JournalListener.isolated { listener in
            logger().info("odd keys", metadata: [
                "gps.fix-mode": "3d", "Größe": "1", "2nd": "2", "_private": "3", "message": "not the message",
                String(repeating: "k", count: 80): "long",
            ])
            let entry = try listener.receive(from: label).entry

            #expect(entry["GPS_FIX_MODE"] == "3d")
            #expect(entry["GR__E"] == "1")
            #expect(entry["TRACKD_2ND"] == "2")
            #expect(entry["TRACKD__PRIVATE"] == "3", "journald keeps names starting with _ for its own trusted fields")
            #expect(entry.values("MESSAGE") == ["odd keys"], "a metadata key does not add a second MESSAGE")
            #expect(entry["TRACKD_MESSAGE"] == "not the message")
            #expect(entry[String(repeating: "K", count: 64)] == "long", "cut to journald's 64 characters")
            for name in entry.names {
                #expect(Self.journaldAccepts(name), "\(name)")
            }
        }
    }

    @Test func multiLineValuesArriveIntactInTheBinaryForm() throws {
        try JournalListener.isolated { listener in
            let detail = "line one\nline two=with an equals sign\n\n  indented\n"
            logger().error("first line\nsecond line", metadata: ["detail": "\(detail)"])
            let received = try listener.receive(from: label)

            #expect(received.entry["MESSAGE"] == "first line\nsecond line")
            #expect(received.entry["DETAIL"] == detail)
            #expect(received.entry.binaryNames == ["MESSAGE", "DETAIL"], "only values with a newline take the binary form")
            #expect(received.entry["PRIORITY"] == "3")
        }
    }

    @Test func anEntryTooLargeForADatagramArrivesAsAPassedMemfd() throws {
        try JournalListener.isolated { listener in
            // 24 MiB: more than any datagram a Unix socket takes (libsystemd asks for an 8 MiB send buffer, which the
            // kernel doubles), so libsystemd writes the entry to a sealed memfd and passes it with SCM_RIGHTS.
            let payload = String(repeating: "0123456789abcdef", count: 24 * 1024 * 1024 / 16)
            logger().info("a large record", metadata: ["payload": "\(payload)"])
            let received = try listener.receive(from: label)

            #expect(received.throughDescriptor)
            #expect(received.entry["MESSAGE"] == "a large record")
            #expect(received.entry["PAYLOAD"]?.utf8.count == payload.utf8.count)
            #expect(received.entry["PAYLOAD"] == payload)
        }
    }

    /// journald's rule for a field name a client sends: 1–64 characters of `A`–`Z`, `0`–`9`, `_`, not starting with
    /// `_` or a digit.
    private static func journaldAccepts(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, scalars.count <= 64, first != "_", !("0"..."9").contains(first) else { return false }
        return scalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
