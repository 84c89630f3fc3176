import Logging
import Testing
import TrackJournal

/// An error attached to a log event.
struct SourceUnplugged: Error {}

struct JournalFieldTests {
    @Test(arguments: [
        ("trip_id", "TRIP_ID"), ("message_id", "MESSAGE_ID"), ("distance_m", "DISTANCE_M"),
        ("gps.fix-mode", "GPS_FIX_MODE"), ("error.message", "ERROR_MESSAGE"), ("with space", "WITH_SPACE"),
        ("Größe", "GR__E"), ("Ünï", "TRACKD__N_"), ("2nd", "TRACKD_2ND"), ("_private", "TRACKD__PRIVATE"), ("", "TRACKD_"),
        ("message", "TRACKD_MESSAGE"), ("Priority", "TRACKD_PRIORITY"), ("code_line", "TRACKD_CODE_LINE"),
        ("trackd_logger", "TRACKD_TRACKD_LOGGER"),
    ])
    func namesAMetadataKeyAsJournaldAcceptsIt(_ key: String, _ name: String) {
        #expect(JournalField.name(forMetadataKey: key) == name)
    }

    @Test func cutsALongNameToSixtyFourCharacters() {
        let name = JournalField.name(forMetadataKey: String(repeating: "a", count: 100))
        #expect(name == String(repeating: "A", count: 64))
    }

    @Test func theHandlerSendsItsOwnFieldsFirstAndTheMergedMetadataByKey() {
        var handler = JournalLogHandler(label: "trackd", metadataProvider: .init { ["provided": "p", "both": "provider"] })
        handler[metadataKey: "handler"] = "h"
        handler[metadataKey: "both"] = "handler"
        var event = LogEvent(level: .warning, message: "source lost", metadata: ["reason": "unplugged"], source: "TrackService",
                             file: "TrackService/TrackerService.swift", function: "run()", line: 137)
        event.error = SourceUnplugged()
        let fields = handler.fields(for: event).map { "\($0.name)=\($0.value)" }
        #expect(fields == [
            "MESSAGE=source lost", "PRIORITY=4", "SYSLOG_IDENTIFIER=trackd", "CODE_FILE=TrackService/TrackerService.swift",
            "CODE_LINE=137", "CODE_FUNC=run()", "TRACKD_LOGGER=trackd",
            "BOTH=provider", "ERROR_MESSAGE=SourceUnplugged()", "ERROR_TYPE=TrackJournalTests.SourceUnplugged",
            "HANDLER=h", "PROVIDED=p", "REASON=unplugged",
        ])
    }
}
