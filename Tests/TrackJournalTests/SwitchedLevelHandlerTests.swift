import Logging
import TestSupport
import Testing
import TrackJournal

struct SwitchedLevelHandlerTests {
    @Test func everyLoggerFollowsTheSwitchIncludingOnesMadeBeforeTheChange() {
        let levels = LogLevelSwitch(.info)
        let records = RecordingLogHandler.Records()
        let make = { (label: String) in
            Logger(label: label) { _ in SwitchedLevelHandler(RecordingLogHandler(records: records), levels: levels) }
        }
        let tracker = make("tracker")
        let server = make("server")
        tracker.debug("hidden at info")
        server.info("shown at info")
        levels.level = .debug
        tracker.debug("shown at debug")
        make("made later").trace("hidden at debug")
        levels.level = .error
        server.warning("hidden at error")
        tracker.error("shown at error")
        #expect(records.all.map(\.message.description) == ["shown at info", "shown at debug", "shown at error"])
    }

    @Test func keepsTheMetadataOfTheHandlerItWraps() {
        let records = RecordingLogHandler.Records()
        var logger = Logger(label: "trackd") { _ in
            SwitchedLevelHandler(RecordingLogHandler(records: records), levels: LogLevelSwitch(.info))
        }
        logger[metadataKey: "trip_id"] = "7"
        logger.info("trip started")
        #expect(logger[metadataKey: "trip_id"] == "7")
        #expect(records.all.map { $0["trip_id"] } == ["7"])
    }
}
